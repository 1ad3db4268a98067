// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

@testable import Bluetooth
import Domain
import Foundation
import SecurityToolbox
import TestSupport
import XCTest

/// Security from the device's side (issue 33, item 3), against a scripted controller: its own
/// request to pair, and a bond that turns out not to be enough.
final class DeviceSecurityTests: XCTestCase {
    private let device = try! DeviceID(parsing: "F0:00:00:00:00:05", kind: .leRandom)

    /// The pairer's events, kept for the test.
    final class Events: @unchecked Sendable {
        private let lock = NSLock()
        private var kept: [PairingPromptEvent] = []
        private var task: Task<Void, Never>?
        init(_ feed: Feed<PairingPromptEvent>) {
            task = Task.detached { [weak self] in for await event in feed { self?.lock.withLock { self?.kept.append(event) } } }
        }
        deinit { task?.cancel() }
        var codesWanted: [DeviceID] { lock.withLock { kept.compactMap { if case .codeWanted(let d) = $0 { d } else { nil } } } }
    }

    func testAnUnauthenticatedBondThatMeetsInsufficientAuthenticationIsOfferedANewPairingWithMITM() async throws {
        let controller = ScriptedController()
        controller.requireAuthentication = true
        let link = HCILink(open: { () throws(ScanFailure) -> HCITransport in controller })
        defer { link.close() }
        let connector = HCILinkConnector(link: link)
        let keyring = HCIKeyring(hashing: AESAddressHashing(), local: LocalIdentity(random: Array(0..<22)))
        keyring.set([Bond(identity: device, irk: nil, ltk: Array(0..<16), authenticated: false, secureConnections: true,
                          createdAt: Date())])
        let pairer = HCIPairer(connector: connector, security: HCISecurity(crypto: ToolboxPairingCrypto(), keyring: keyring,
                                                                           keep: { _ in }, forget: { _ in }))
        let events = Events(pairer.prompts)
        let log = EventLog(connector)
        XCTAssertFalse(pairer.wantsCode(device))
        connector.connect(to: device)
        let failed = await log.wait(for: { $0 == .failed(.needsPairing) })
        XCTAssertNotNil(failed, "the chat's subscription was refused for want of authentication: \(log.states)")
        XCTAssertTrue(controller.commands.contains(HCICommand.leEnableEncryptionOp), "the link was encrypted with the old bond")
        await eventually { events.codesWanted == [self.device] }
        XCTAssertEqual(events.codesWanted, [device], "the pages hear that the bond is not enough")
        XCTAssertTrue(pairer.wantsCode(device))
        // Pair again: a new pairing, not the old key once more, asking for MITM protection.
        let device = self.device
        let pairing = Task { try? await pairer.pair(device) }
        await eventually { !controller.frames(on: 6).isEmpty }
        let request = try XCTUnwrap(controller.frames(on: 6).first)
        XCTAssertEqual(request.first, 0x01, "a Pairing Request")
        XCTAssertEqual(request[3] & 0x04, 0x04, "with the MITM bit set (Vol 3, Part H, §3.5.1)")
        await pairer.cancelPairing(device)
        _ = await pairing.value
    }

    func testASecurityRequestAsksOncePerConnectionAndOneWithReservedBitsIsIgnoredWithALogLine() async throws {
        let controller = ScriptedController()
        let host = HCIHost(transport: controller)
        defer { host.close() }
        let lines = ResolvingListTests.Lines()
        let connector = HCIConnector(host: host, connectTimeout: 3, attTimeout: 5, log: { lines.add($0) })
        connector.keyring = HCIKeyring(hashing: AESAddressHashing(), local: LocalIdentity(random: Array(0..<22)))
        let asked = ResolvingListTests.Lines()
        connector.onPairingRequest = { asked.add($0.address) }
        let log = EventLog(connector)
        connector.connect(to: device)
        await log.wait { $0.states.contains(.connected(self.device, service: .chat)) }
        controller.deliver(channel: 6, [0x0B, 0x45])  // bit 6 is reserved
        controller.deliver(channel: 6, [0x0B, 0x03])  // Bonding_Flags 11 is reserved
        controller.deliver(channel: 6, [0x0B, 0x0D])  // bonding, MITM, Secure Connections
        controller.deliver(channel: 6, [0x0B, 0x0D])  // again, on the same link
        await eventually { lines.all.contains { $0.contains("ignored a repeated Security Request") } }
        XCTAssertEqual(asked.all, [device.address], "asked once, for the well-formed request")
        XCTAssertEqual(lines.all.filter { $0.contains("ignored a Security Request with reserved bits") }.count, 2, "\(lines.all)")
        XCTAssertEqual(controller.frames(on: 6), [], "nothing is sent before the user answers")
        connector.declinePairingRequest(from: device)
        await eventually { !controller.frames(on: 6).isEmpty }
        XCTAssertEqual(controller.frames(on: 6), [[0x05, 0x05]], "no: Pairing Failed, Pairing Not Supported")
    }
}
