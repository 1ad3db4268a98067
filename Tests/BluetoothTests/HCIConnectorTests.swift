// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

@testable import Bluetooth
import Domain
import Foundation
import TestSupport
import XCTest

/// The connector against a scripted controller: what a peer may send that Bumble does not.
final class HCIConnectorTests: XCTestCase {
    private let device = try! DeviceID(parsing: "F0:F1:F2:F3:F4:F5", kind: .leRandom)

    private func connect(_ controller: ScriptedController) async throws -> (HCIHost, HCIConnector, EventLog) {
        let host = HCIHost(transport: controller)
        let connector = HCIConnector(host: host, connectTimeout: 5, attTimeout: 5, attributes: LocalAttributes(adapterName: "Lab Bench"))
        let log = EventLog(connector)
        connector.connect(to: device)
        await log.wait { $0.states.contains(.connected(self.device, service: .chat)) }
        XCTAssertEqual(connector.state, .connected(device, service: .chat), "\(log.states)")
        return (host, connector, log)
    }

    func testMalformedDataFromThePeerIsSkippedAndTheChatGoesOn() async throws {
        let controller = ScriptedController()
        let (host, connector, log) = try await connect(controller)
        defer { host.close() }
        controller.notify("before")
        controller.deliverACL([1, 2, 3], boundary: .continuation)              // continuation without a start
        controller.deliverACL([0xFF, 0x00, 0x04, 0x00, 0x1B])                  // L2CAP longer than its data…
        controller.deliverACL([9, 0, 4, 0, 0x1B, 0x12, 0x00, 0x41], boundary: .first)  // …and a new start
        controller.deliver(channel: 4, [0x1B, 0x12])                           // notification without a handle
        controller.deliver(channel: 4, [])                                     // empty ATT PDU
        controller.deliver(channel: 5, [0x12, 1, 8, 0])                        // truncated signalling
        controller.deliver(channel: 0x0040, [1, 2, 3])                         // a channel nobody opened
        controller.deliverACL([0x05, 0x00, 0x04])                              // an L2CAP header cut short
        controller.notify("after")
        await log.wait { $0.received.count >= 2 }
        XCTAssertEqual(log.received.map(\.body), [.text("before"), .text("after")])
        XCTAssertEqual(connector.state, .connected(device, service: .chat))
    }

    func testWhileConnectedTheLinksSignalIsReadEverySecond() async throws {
        let controller = ScriptedController()
        let (host, connector, log) = try await connect(controller)
        defer { host.close() }
        XCTAssertTrue(connector.readsSignalWhileConnected)
        await log.wait(timeout: 5) { $0.signals.count >= 2 }
        XCTAssertEqual(log.signals.prefix(2).map(\.rssi), [-63, -63])
        XCTAssertEqual(log.signals.first?.device, device)
    }

    func testPairingIsRefusedAndParameterUpdatesAccepted() async throws {
        let controller = ScriptedController()
        let (host, connector, _) = try await connect(controller)
        defer { host.close() }
        controller.deliver(channel: 6, [0x01, 0x03, 0x00, 0x01, 0x10, 0x07, 0x07])
        controller.deliver(channel: 5, [0x12, 0x21, 8, 0, 24, 0, 40, 0, 0, 0, 0xF4, 1])
        await eventually { controller.frames(on: 5).count == 1 && controller.commands.contains(HCICommand.leConnectionUpdateOp) }
        XCTAssertEqual(controller.frames(on: 6), [[0x05, 0x05]], "Pairing Failed: Pairing Not Supported")
        XCTAssertEqual(controller.frames(on: 5), [[0x13, 0x21, 2, 0, 0, 0]], "the update is accepted")
        XCTAssertTrue(controller.commands.contains(HCICommand.leConnectionUpdateOp), "and applied")
        withExtendedLifetime(connector) {}
    }

    /// Every LE device has a GATT server (Vol 3, Part G, §7): the device reads this computer's
    /// name and subscribes to Service Changed on the link FavBlue made as the central.
    func testTheDevicesOwnRequestsAreAnsweredFromFavBluesDatabase() async throws {
        let controller = ScriptedController()
        let (host, connector, _) = try await connect(controller)
        defer { host.close() }
        controller.deliver(channel: 4, [0x10, 0x01, 0x00, 0xFF, 0xFF, 0x00, 0x28])  // Read By Group Type: primary services
        controller.deliver(channel: 4, [0x0A, 0x03, 0x00])                          // Read Request: Device Name
        controller.deliver(channel: 4, [0x12, 0x09, 0x00, 0x02, 0x00])              // Service Changed's CCCD: indications
        controller.deliver(channel: 4, [0x3F, 0x00])                                // a request no one defined
        await eventually { controller.frames(on: 4).contains([0x01, 0x3F, 0x00, 0x00, 0x06]) }
        let answers = controller.frames(on: 4)
        XCTAssertTrue(answers.contains([0x11, 6, 1, 0, 5, 0, 0x00, 0x18, 6, 0, 9, 0, 0x01, 0x18]), "GAP 1–5, GATT 6–9: \(answers)")
        XCTAssertTrue(answers.contains([0x0B] + Array("Lab Bench".utf8)), "the adapter's name: \(answers)")
        XCTAssertTrue(answers.contains([0x13]), "the subscription is taken: \(answers)")
        XCTAssertTrue(answers.contains([0x01, 0x3F, 0x00, 0x00, 0x06]), "an unknown request: Request Not Supported")
        withExtendedLifetime(connector) {}
    }

    func testTheChatIsFoundInTheListOfServicesWithoutAskingForItByUUID() async throws {
        // A server need not answer Find By Type Value; the list asked for while connecting holds the chat.
        let controller = ScriptedController(findByTypeValue: false)
        let (host, connector, log) = try await connect(controller)
        defer { host.close() }
        await log.wait { $0.services != nil }
        XCTAssertEqual(log.services?.map(\.uuid), ["1800", ChatService.chat.uuid])
        XCTAssertTrue(controller.frames(on: 4).contains { $0.first == 0x10 }, "found through Read By Group Type")
        XCTAssertFalse(controller.frames(on: 4).contains { $0.first == 0x06 }, "no Find By Type Value: a round trip saved")
        withExtendedLifetime(connector) {}
    }

    func testReadingSeveralValuesGivesEachItsOwnOutcome() async throws {
        let controller = ScriptedController()
        let (host, connector, _) = try await connect(controller)
        defer { host.close() }
        let device = self.device
        let results = await connector.readValues(at: [0x03, 0x12, 0x05])
        XCTAssertEqual(try results[0].get(), Array("Scripted".utf8), "the device's name")
        XCTAssertThrowsError(try results[1].get(), "the chat's TX value is not readable") { error in
            XCTAssertEqual((error as? GATTError)?.message, ATTErrorCode.readNotPermitted.message)
        }
        XCTAssertEqual(try results[2].get(), [0x00, 0x00], "the one after a refusal is read")
        let reads = controller.frames(on: 4).filter { $0.first == 0x0A }.map { Int($0[1]) | Int($0[2]) << 8 }
        XCTAssertEqual(reads, [0x03, 0x12, 0x05], "one Read each, in order")
        controller.disconnect()
        await eventually { connector.state != .connected(device, service: .chat) }
        let after = await connector.readValues(at: [0x03, 0x05])
        XCTAssertEqual(after.map { result in if case .failure = result { return true } else { return false } }, [true, true],
                       "once the link has ended, each says so")
    }

    func testTheServicesFoundWhileConnectingAreNotAskedForAgainButARediscoveryAsks() async throws {
        let controller = ScriptedController()
        let (host, connector, log) = try await connect(controller)
        defer { host.close() }
        await log.wait { $0.services != nil }
        func groupRequests() -> Int { controller.frames(on: 4).filter { $0.first == 0x10 }.count }
        let whileConnecting = groupRequests()
        XCTAssertGreaterThan(whileConnecting, 0)
        let tree = try await connector.discoverServices()
        XCTAssertEqual(tree.map(\.uuid.text), ["1800", ChatService.chat.uuid])
        XCTAssertEqual(groupRequests(), whileConnecting, "Read By Group Type is sent once")
        _ = try await connector.discoverServices()
        XCTAssertEqual(groupRequests(), 2 * whileConnecting, "a rediscovery (the services changed) asks again")
    }

    func testALongMessageWaitsForFreeBuffersAndIsCutAtTheNegotiatedMTU() async throws {
        let controller = ScriptedController(bufferCount: 2)
        let (host, connector, _) = try await connect(controller)
        defer { host.close() }
        controller.holdCompletions = true
        let text = String(repeating: "ö", count: 100)  // 200 bytes; MTU 64 allows 61 per write
        let sending = Task { try await connector.send(text) }
        await eventually { controller.mostOutstanding == 2 }
        XCTAssertLessThanOrEqual(controller.mostOutstanding, 2, "never more packets than the controller has buffers")
        // Frees the buffers as the host's write thread fills them, until all four writes went out.
        await eventually {
            controller.completeAll()
            return controller.frames(on: 4).filter { $0.first == 0x52 }.count == 4
        }
        controller.completeAll()
        try await sending.value
        let writes = controller.frames(on: 4).filter { $0.first == 0x52 }
        XCTAssertEqual(writes.map { $0.count - 3 }, [60, 60, 60, 20], "Write Commands of at most MTU − 3, whole characters")
        XCTAssertEqual(writes.flatMap { $0.dropFirst(3) }, Array(text.utf8))
        XCTAssertLessThanOrEqual(controller.mostOutstanding, 2)
    }

    func testRawHCIAndReplaysRefuseToConnectWithAClearReason() async {
        let raw = ConnectorFactory.make(.hci(0), link: nil)
        raw.connect(to: device)
        guard case .failed(.notSupported(let why)) = raw.state else { return XCTFail("\(raw.state)") }
        XCTAssertTrue(why.contains("BlueZ"), why)
        let replay = ConnectorFactory.make(.btsnoop(path: "/nonexistent/capture.btsnoop"), link: nil)
        replay.connect(to: device)
        XCTAssertEqual(replay.state, .failed(.notSupported("A replayed capture cannot connect to devices.")))
        do {
            try await raw.send("x")
            XCTFail()
        } catch {
            XCTAssertEqual(error, .notConnected)
        }
    }

    func testDisconnectionReasonsAreNamedInPlainWords() {
        XCTAssertEqual(HCIConnector.failure(disconnectReason: 0x08), .linkLost)
        XCTAssertEqual(HCIConnector.failure(disconnectReason: 0x13), .endedByDevice)
        XCTAssertEqual(HCIConnector.failure(disconnectReason: 0x15), .endedByDevice)
        XCTAssertEqual(HCIConnector.failure(disconnectReason: 0x3E), .notEstablished(code: 0x3E))
        XCTAssertEqual(HCIConnector.failure(disconnectReason: 0x3B), .other(code: 0x3B))
    }

    /// Both roles on one controller read it once and take one address: a device that meets
    /// FavBlue as a central and as a peripheral meets the same FavBlue, without a keyring too.
    func testTheConnectorAndThePeripheralShareOneReadingOfTheControllerAndOneAddress() async throws {
        let controller = ScriptedController()
        let link = HCILink(open: { () throws(ScanFailure) -> HCITransport in controller })
        defer { link.close() }
        let connector = HCILinkConnector(link: link)
        let log = EventLog(connector)
        connector.connect(to: device)
        await log.wait { $0.states.contains(.connected(self.device, service: .chat)) }
        let facts = try await HCIPeripheral(link: link).adapterFacts()
        let addresses = controller.sent.filter { $0.0 == .command && UInt16($0.1[0]) | UInt16($0.1[1]) << 8 == HCICommand.leSetRandomAddressOp }
        XCTAssertEqual(addresses.count, 1, "one random address, set once")
        let address = try XCTUnwrap(addresses.first.map { DeviceID(wireBytes: Array($0.1[3...]), kind: .leRandom).address })
        XCTAssertEqual(facts.advertisingAddress, address, "the peripheral advertises from the address the connector connects from")
        XCTAssertEqual(controller.commands.filter { $0 == HCICommand.leReadBufferSizeOp }.count, 1, "the buffers are read once")
        withExtendedLifetime(connector) {}
    }
}
