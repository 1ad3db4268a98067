// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

@testable import Bluetooth
import Domain
import Foundation
import TestSupport
import XCTest

/// Counts the HCI Reset commands FavBlue sends (opcode 0x0C03, Core v5.4, Vol 4, Part E, §7.3.2).
private final class ResetCounter: PacketRecorder, @unchecked Sendable {
    private let lock = NSLock()
    private var resets = 0
    var count: Int { lock.withLock { resets } }

    func write(type: H4PacketType, bytes: [UInt8], received: Bool, at time: Date) {
        if type == .command, !received, bytes.count >= 2, bytes[0] == 0x03, bytes[1] == 0x0C { lock.withLock { resets += 1 } }
    }
}

/// The app's wiring for an H4 source: the scanner and the connector on one link, as the factories make them.
final class SharedLinkTests: XCTestCase {
    func testTheScannerAndTheConnectorShareOneLinkThatIsResetOnceAndOpenedAgainAfterItEnds() async throws {
        let peer = try ChatPeer(["--service", "chat", "--peers", "2"])
        let source = ScanSource.h4TCP(host: "127.0.0.1", port: peer.port)
        let resets = ResetCounter()
        let link = try XCTUnwrap(ScannerFactory.link(for: source, record: resets))
        defer { link.close() }
        let scanner = ScannerFactory.make(source, demoCapture: nil, link: link)
        let heard = Collected()
        let observing = Task { for await observation in scanner.observations { await heard.add(observation) } }
        defer { observing.cancel() }
        scanner.start()
        var found = false
        for _ in 0..<100 where !found {
            // Polls the real peer's advertising, not a fixed wait.
            try await Task.sleep(nanoseconds: 100_000_000)
            found = await heard.table.devices.keys.contains(ChatPeer.first)
        }
        XCTAssertTrue(found, "the scanner hears the peer over the link")

        let connector = ConnectorFactory.make(source, link: link)
        let log = EventLog(connector)
        connector.connect(to: ChatPeer.first)
        let state = await log.wait(for: { if case .connected = $0 { return true } else { return false } }, timeout: 20)
        XCTAssertEqual(state, .connected(ChatPeer.first, service: .chat), "\(log.states) \(peer.output)")
        try await connector.send("over one link")
        let echoed = await log.wait { $0.received.contains { $0.body == .text("echo: over one link") } }
        XCTAssertTrue(echoed, "the peer's echo arrives")

        // Scanning goes on beside the connection: the second peer keeps being heard.
        let before = await heard.table.devices[ChatPeer.second]?.reports ?? 0
        // Real time on purpose: the second peer keeps advertising over the real link meanwhile.
        try await Task.sleep(nanoseconds: 1_500_000_000)
        let after = await heard.table.devices[ChatPeer.second]?.reports ?? 0
        XCTAssertGreaterThan(after, before, "scanning goes on while connected")
        XCTAssertEqual(resets.count, 1, "one reset for both clients")

        connector.disconnect()
        await log.wait(for: { $0 == .idle && log.states.contains(.disconnecting(ChatPeer.first)) })
        scanner.stop()
        // A link that ended opens afresh, reset once more, for the next client.
        link.close()
        connector.connect(to: ChatPeer.first)
        let again = await log.wait(timeout: 20) { $0.states.filter { $0 == .connected(ChatPeer.first, service: .chat) }.count == 2 }
        XCTAssertTrue(again, "connected again over a reopened link: \(log.states)")
        XCTAssertEqual(resets.count, 2)
    }
}
