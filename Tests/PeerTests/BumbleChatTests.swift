// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

@testable import Bluetooth
import Domain
import Foundation
import SecurityToolbox
import TestSupport
import XCTest

/// Connecting and chatting through FavBlue's own HCI host with Bumble's GATT server.
final class BumbleChatTests: XCTestCase {
    private func isConnected(_ state: ConnectionState) -> Bool {
        if case .connected = state { return true }
        return false
    }

    private func isFailed(_ state: ConnectionState) -> Bool {
        if case .failed = state { return true }
        return false
    }

    /// Connects to the first peer and waits until the chat is open.
    private func connected(_ peer: ChatPeer, record: BtsnoopWriter? = nil,
                           attributes: LocalAttributes = LocalAttributes()) async throws -> (HCIHost, HCIConnector, EventLog) {
        let (host, connector) = try peer.connector(record: record, attributes: attributes)
        let log = EventLog(connector)
        connector.connect(to: ChatPeer.first)
        let state = await log.wait(for: { self.isConnected($0) || self.isFailed($0) })
        guard case .connected? = state else {
            host.close()
            // A peer that never connects is a failure: the connector under test may be why.
            throw PeerError.neverConnected("\(log.states) \(peer.output)")
        }
        return (host, connector, log)
    }

    func testTheChatServiceIsPreferredWhenADeviceOffersBoth() async throws {
        let peer = try ChatPeer(["--service", "both"])
        let (host, connector, log) = try await connected(peer)
        defer { host.close() }
        XCTAssertEqual(log.states.last, .connected(ChatPeer.first, service: .chat))
        XCTAssertEqual(Array(log.states.prefix(3)), [.idle, .connecting(ChatPeer.first), .connected(ChatPeer.first, service: .chat)])
        XCTAssertNotNil(peer.wait(for: { $0 == "SUBSCRIBED chat" }), "it subscribed to the chat TX: \(peer.output)")
        await log.wait { $0.services != nil }
        let uuids = log.services?.map(\.uuid) ?? []
        XCTAssertTrue(uuids.contains(ChatService.chat.uuid), "\(uuids)")
        XCTAssertTrue(uuids.contains(ChatService.nordicUART.uuid), "every primary service is listed: \(uuids)")
        XCTAssertTrue(log.services?.contains { $0.name == "Generic Access" } ?? false, "known services are named")
        withExtendedLifetime(connector) {}
    }

    /// The Core gives every LE device a GATT server (Vol 3, Part G, §7): on the link FavBlue
    /// made as the central, Bumble's client discovers FavBlue's database, reads this computer's
    /// name and appearance, and subscribes to Service Changed, while the chat goes on.
    func testThePeripheralReadsFavBluesNameAndSubscribesToServiceChangedOnTheCentralsLink() async throws {
        let peer = try ChatPeer(["--service", "chat", "--ask-central"])
        let (host, connector, _) = try await connected(peer, attributes: LocalAttributes(adapterName: "Lab Bench"))
        defer { host.close() }
        XCTAssertEqual(peer.wait(for: { $0.hasPrefix("CENTRAL_SERVICES") }), "CENTRAL_SERVICES 1800 1801", peer.output)
        XCTAssertEqual(peer.wait(for: { $0.hasPrefix("CENTRAL_NAME") }), "CENTRAL_NAME Lab Bench", peer.output)
        XCTAssertEqual(peer.wait(for: { $0.hasPrefix("CENTRAL_APPEARANCE") }), "CENTRAL_APPEARANCE 8000", "a computer (0x0080)")
        XCTAssertNotNil(peer.wait(for: { $0 == "CENTRAL_SUBSCRIBED 2A05" }), peer.output)
        XCTAssertFalse(peer.output.contains("CENTRAL_ERROR"), peer.output)
        try await connector.send("still chatting")
        XCTAssertNotNil(peer.wait(for: { $0.hasPrefix("RX chat ") && $0.hasSuffix("still chatting") }), peer.output)
    }

    /// Generic Attribute as the app and the command line serve it (with a CMAC to hash the
    /// database): the Database Hash Bumble reads is the one Bumble computes over the attributes
    /// it discovered, and Client Supported Features is the link's own, which a client may set
    /// but never clear.
    func testTheCentralsDatabaseHashIsTheOneBumbleComputesAndItsClientFeaturesAreTheLinks() async throws {
        let peer = try ChatPeer(["--service", "chat", "--ask-central"])
        let attributes = LocalAttributes(adapterName: "Lab Bench", crypto: ToolboxPairingCrypto())
        let (host, connector, _) = try await connected(peer, attributes: attributes)
        defer { host.close() }
        XCTAssertEqual(peer.wait(for: { $0.hasPrefix("CENTRAL_SERVICES") }), "CENTRAL_SERVICES 1800 1801", peer.output)
        let hash = try XCTUnwrap(peer.wait(for: { $0.hasPrefix("CENTRAL_HASH ") }), peer.output)
        let expected = try XCTUnwrap(peer.wait(for: { $0.hasPrefix("CENTRAL_HASH_EXPECTED ") }), peer.output)
        XCTAssertEqual(hash.dropFirst("CENTRAL_HASH ".count).count, 32, "16 bytes: \(hash)")
        XCTAssertEqual(String(hash.dropFirst("CENTRAL_HASH ".count)), String(expected.dropFirst("CENTRAL_HASH_EXPECTED ".count)))
        XCTAssertEqual(peer.wait(for: { $0.hasPrefix("CENTRAL_FEATURES ") }), "CENTRAL_FEATURES 01", "robust caching set")
        XCTAssertEqual(peer.wait(for: { $0.hasPrefix("CENTRAL_FEATURES_") }), "CENTRAL_FEATURES_REFUSED 13",
                       "clearing a bit is Value Not Allowed (Vol 3, Part G, §7.2)")
        XCTAssertFalse(peer.output.contains("CENTRAL_ERROR"), peer.output)
        withExtendedLifetime(connector) {}
    }

    func testTheNordicUARTServiceIsTheFallback() async throws {
        let peer = try ChatPeer(["--service", "nus", "--legacy-reports"])
        let (host, connector, log) = try await connected(peer)
        defer { host.close() }
        XCTAssertEqual(log.states.last, .connected(ChatPeer.first, service: .nordicUART))
        try await connector.send("over nus")
        XCTAssertNotNil(peer.wait(for: { $0.hasPrefix("RX nus ") && $0.hasSuffix("over nus") }), peer.output)
        await log.wait { $0.received.count == 1 }
        XCTAssertEqual(log.received.first?.body, .text("echo: over nus"))
    }

    func testAMessageIsEchoedAndTheRecordingShowsTheATTExchange() async throws {
        let path = NSTemporaryDirectory() + "favblue-chat-\(UUID().uuidString.prefix(8)).btsnoop"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try BtsnoopWriter(path: path)
        let peer = try ChatPeer(["--service", "chat"])
        let (host, connector, log) = try await connected(peer, record: writer)
        try await connector.send("hello")
        XCTAssertNotNil(peer.wait(for: { $0 == "RX chat 68656c6c6f hello" }), peer.output)
        await log.wait { !$0.received.isEmpty }
        let echo = log.received.first
        XCTAssertEqual(echo?.body, .text("echo: hello"))
        XCTAssertEqual(echo?.direction, .incoming)
        XCTAssertEqual(echo?.device, ChatPeer.first)
        host.close()
        writer.close()

        // btmon reads the recording: commands, events and ACL both ways, and decodes ATT. (The
        // btmon of BlueZ 5.66 crashes once GATT discovery starts, so tshark checks the rest.)
        // Its output goes line by line: what it wrote before it crashed is kept, not lost in a buffer.
        try Peers.require(FileManager.default.isExecutableFile(atPath: "/usr/bin/btmon"), "/usr/bin/btmon is not installed")
        let btmon = try Self.run("/usr/bin/stdbuf", ["-oL", "/usr/bin/btmon", "-r", path])
        for expected in ["LE Connection Complete (0x01)", "ACL Data TX: Handle 1", "ACL Data RX: Handle 1",
                         "ATT: Exchange MTU Request", "ATT: Exchange MTU Response"] {
            XCTAssertTrue(btmon.contains(expected), "btmon shows \(expected): \(btmon.suffix(1500))")
        }
        let tshark = try Self.run("/usr/bin/tshark", ["-r", path, "-Y", "btatt"])
        for expected in ["Read By Group Type Request", "Read By Type Request", "Find Information Request",
                         "Write Request, Handle: 0x0011", "Write Request, Handle: 0x0013", "Handle Value Notification"] {
            XCTAssertTrue(tshark.contains(expected), "the recording holds \(expected)")
        }
    }

    /// Runs a decoding tool and returns what it printed; skips when the tool is missing.
    private static func run(_ tool: String, _ arguments: [String]) throws -> String {
        try Peers.require(FileManager.default.isExecutableFile(atPath: tool), "\(tool) is not installed")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return text
    }

    func testABurstOf150NotificationsArrivesWholeAndInOrder() async throws {
        let peer = try ChatPeer(["--service", "chat", "--burst", "150"])
        let (host, connector, log) = try await connected(peer)
        defer { host.close() }
        await log.wait(timeout: 30) { $0.received.count >= 150 }
        let texts = log.received.map { message -> String in
            if case .text(let text) = message.body { return text }
            return "?"
        }
        XCTAssertEqual(texts.count, 150, "missing: \(Set((1...150).map { "message \($0)" }).subtracting(texts).sorted())")
        XCTAssertEqual(texts, (1...150).map { "message \($0)" })
        XCTAssertEqual(UnreadBadge.text(for: log.received.count), "...")
        // The host holds its clients weakly: whoever connects keeps the connector.
        withExtendedLifetime(connector) {}
    }

    func testA300ByteMessageIsSplitWithoutCuttingACharacter() async throws {
        let peer = try ChatPeer(["--service", "chat"])
        let (host, connector, _) = try await connected(peer)
        defer { host.close() }
        // 100 × (a + ü + €) = 600 bytes would do too; 300 bytes with two- and three-byte characters.
        let text = String(repeating: "aü€", count: 50)
        XCTAssertEqual(text.utf8.count, 300)
        try await connector.send(text)
        await Task.detached { peer.wait(for: { _ in peer.lines.filter { $0.hasPrefix("RX chat ") }.count >= 2 }) }.value
        let parts = peer.lines.filter { $0.hasPrefix("RX chat ") }.map { line -> [UInt8] in
            let hex = line.split(separator: " ")[2]
            return stride(from: 0, to: hex.count, by: 2).map {
                UInt8(hex[hex.index(hex.startIndex, offsetBy: $0)..<hex.index(hex.startIndex, offsetBy: $0 + 2)], radix: 16)!
            }
        }
        XCTAssertEqual(parts.count, 2, "300 bytes over an MTU of 247 take two writes: \(peer.output)")
        XCTAssertTrue(parts.allSatisfy { $0.count <= 244 }, "each part fits in ATT_MTU − 3")
        XCTAssertTrue(parts.allSatisfy { String(validating: $0, as: UTF8.self) != nil }, "no character is cut")
        XCTAssertEqual(parts.flatMap { $0 }, Array(text.utf8), "the parts join back to the message")
    }

    func testThePeerEndingTheConnectionGivesAPlainReason() async throws {
        let peer = try ChatPeer(["--service", "chat", "--disconnect-after", "2"])
        let (host, connector, log) = try await connected(peer)
        defer { host.close() }
        let state = await log.wait(for: isFailed)
        XCTAssertEqual(state, .failed(.endedByDevice))
        XCTAssertEqual(state.map { ConnectionState.summary($0) }, "The device ended the connection.")
        do {
            try await connector.send("anyone?")
            XCTFail("a message cannot be sent once the connection ended")
        } catch {
            XCTAssertEqual(error, .notConnected)
        }
    }

    func testAPeerKilledMidChatEndsTheConnectionWithAReason() async throws {
        let peer = try ChatPeer(["--service", "chat", "--every", "0.2"])
        let (host, connector, log) = try await connected(peer)
        defer { host.close() }
        await log.wait { $0.received.count >= 2 }
        peer.kill9()
        let state = await log.wait(for: isFailed)
        guard case .failed(.adapterGone(let detail))? = state else { return XCTFail("\(log.states)") }
        XCTAssertTrue(detail.contains("127.0.0.1:\(peer.port)"), detail)
        XCTAssertTrue(state!.summary.hasPrefix("The Bluetooth adapter stopped answering"), state!.summary)
        XCTAssertGreaterThanOrEqual(log.received.count, 2, "what arrived before stays")
        do {
            try await connector.send("still there?")
            XCTFail("nothing can be sent after the link died")
        } catch {
            XCTAssertEqual(error, .notConnected)
        }
    }

    func testConnectingToASecondDeviceDisconnectsTheFirstWhileScanningGoesOn() async throws {
        let peer = try ChatPeer(["--service", "chat", "--peers", "2"])
        let (host, connector, log) = try await connected(peer)
        defer { host.close() }
        // A scanner on the same host keeps hearing the second peer while the first is connected.
        let scanner = HCIScanner(host: host, resetController: false)
        let heard = Collected()
        let observing = Task { for await observation in scanner.observations { await heard.add(observation) } }
        scanner.start()
        var second = false
        for _ in 0..<100 where !second {
            // Polls the real peer's advertising, not a fixed wait.
            try await Task.sleep(nanoseconds: 100_000_000)
            second = await heard.table.devices.keys.contains(ChatPeer.second)
        }
        XCTAssertTrue(second, "scanning goes on while connected")
        XCTAssertEqual(connector.state, .connected(ChatPeer.first, service: .chat))

        connector.connect(to: ChatPeer.second)
        await log.wait(for: { $0 == .connected(ChatPeer.second, service: .chat) })
        scanner.stop()
        observing.cancel()
        XCTAssertNotNil(peer.wait(for: { $0.hasPrefix("DISCONNECTED") && $0.hasSuffix(ChatPeer.first.address) }),
                        "the first device was disconnected: \(peer.output)")
        let after = log.states.drop { $0 != .connected(ChatPeer.first, service: .chat) }
        XCTAssertEqual(Array(after), [.connected(ChatPeer.first, service: .chat), .disconnecting(ChatPeer.first), .idle,
                                      .connecting(ChatPeer.second), .connected(ChatPeer.second, service: .chat)])
    }

    func testQuittingTellsTheDeviceBeforeTheTransportCloses() async throws {
        let peer = try ChatPeer(["--service", "chat"])
        let (host, connector, _) = try await connected(peer)
        connector.disconnectBeforeQuitting(within: 2)
        XCTAssertEqual(connector.state, .idle, "it returns once the link has ended, not when the request is queued")
        host.close()
        // The controller keeps a link nobody ended, and the device then never advertises again.
        XCTAssertNotNil(peer.wait(for: { $0.hasPrefix("DISCONNECTED") && $0.hasSuffix(ChatPeer.first.address) }, timeout: 5),
                        "the device heard the disconnect: \(peer.output)")
    }

    func testAnAbsentDeviceFailsAfterTheTimeoutWithAClearReason() async throws {
        let peer = try ChatPeer(["--service", "chat"])
        let (host, connector) = try peer.connector()
        defer { host.close() }
        let log = EventLog(connector)
        connector.connect(to: try DeviceID(parsing: "C0:00:00:00:00:01", kind: .leRandom))
        let state = await log.wait(for: isFailed, timeout: 20)
        XCTAssertEqual(state, .failed(.noAnswer(seconds: 10)))
        XCTAssertEqual(state?.summary, "The device did not answer within 10 seconds.")
    }

    func testCancellingAConnectionAttemptGoesBackToIdle() async throws {
        let peer = try ChatPeer(["--service", "chat"])
        let (host, connector) = try peer.connector()
        defer { host.close() }
        let log = EventLog(connector)
        let absent = try DeviceID(parsing: "C0:00:00:00:00:02", kind: .leRandom)
        connector.connect(to: absent)
        await log.wait(for: { $0 == .connecting(absent) })
        connector.cancel()
        await log.wait { $0.states.last == .idle }
        XCTAssertEqual(log.states, [.idle, .connecting(absent), .idle], "no failure: the user chose to stop")
    }
}

private extension ConnectionState {
    static func summary(_ state: ConnectionState) -> String { state.summary }
}
