// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

@testable import Bluetooth
import Domain
import Foundation
import TestSupport
import XCTest

/// Full GATT discovery through FavBlue's own host against Bumble's GATT server.
final class BumbleGATTTests: XCTestCase {
    /// A host and connector on `peer`, connected to its first device.
    private func connected(_ peer: ChatPeer) async throws -> (HCIHost, HCIConnector, EventLog) {
        let (host, connector) = try peer.connector()
        let log = EventLog(connector)
        connector.connect(to: ChatPeer.first)
        await log.wait(for: { if case .connected = $0 { return true } else { return false } })
        return (host, connector, log)
    }

    func testTheWholeTreeIsFoundWithHandlesPropertiesAndDescriptors() async throws {
        let peer = try ChatPeer(["--service", "both"])
        let (host, connector, _) = try await connected(peer)
        defer { host.close() }
        let tree = try await connector.discoverServices()
        XCTAssertEqual(tree.map(\.uuid.text), ["1800", "1801", "7E57C000-2C8F-4F3C-9F91-8577E1891234", "6E400001-B5A3-F393-E0A9-E50E24DCCA9E"])
        XCTAssertEqual(tree.first?.name, "Generic Access")
        XCTAssertTrue(tree[0].characteristics.contains { $0.uuid == BluetoothUUID(0x2A00) && $0.properties.contains(.read) }, "Device Name")
        let chat = tree[2]
        let tx = try XCTUnwrap(chat.characteristics.first { $0.uuid.text == "7E57C001-2C8F-4F3C-9F91-8577E1891234" })
        XCTAssertEqual(tx.properties.words, ["Notify"])
        XCTAssertEqual(tx.descriptors.map(\.uuid.text), ["2902"], "the CCCD, with its handle")
        XCTAssertGreaterThan(tx.descriptors[0].handle, tx.valueHandle)
        let rx = try XCTUnwrap(chat.characteristics.first { $0.uuid.text == "7E57C002-2C8F-4F3C-9F91-8577E1891234" })
        XCTAssertEqual(rx.properties.words, ["Write Without Response", "Write"])
        XCTAssertEqual(rx.descriptors, [])
        // Handles rise through the tree and stay inside each service.
        for service in tree {
            for c in service.characteristics {
                XCTAssertTrue((service.start...service.end).contains(c.handle) && c.valueHandle > c.handle)
                XCTAssertTrue(c.descriptors.allSatisfy { $0.handle > c.valueHandle && $0.handle <= service.end })
            }
        }
        withExtendedLifetime(connector) {}
    }

    func testValuesAreReadWholeAndDecoded() async throws {
        let peer = try ChatPeer(["--service", "chat", "--info"])
        let (host, connector, _) = try await connected(peer)
        defer { host.close() }
        let tree = try await connector.discoverServices()
        func handle(_ uuid: String) throws -> UInt16 {
            try XCTUnwrap(tree.flatMap(\.characteristics).first { $0.uuid.text == uuid }?.valueHandle, uuid)
        }
        let battery = try await connector.readValue(at: try handle("2A19"))
        XCTAssertEqual(CharacteristicValues.decode(0x2A19, battery).text, "87 %")
        let name = try await connector.readValue(at: try handle("2A29"))
        XCTAssertEqual(name.count, 300, "longer than one ATT_MTU, read whole with Read Blob")
        XCTAssertTrue(String(decoding: name, as: UTF8.self).hasPrefix("Manufacturer xxx"))
        let pnp = try await connector.readValue(at: try handle("2A50"))
        XCTAssertEqual(CharacteristicValues.decode(0x2A50, pnp, company: CompanyNames.name).text, CompanyNames.name(0x000F))
        // A handle that is not there is said in words.
        do {
            _ = try await connector.readValue(at: 0x0FFF)
            XCTFail("read a missing handle")
        } catch {
            XCTAssertTrue(error.message.hasPrefix("Invalid handle"), error.message)
        }
        withExtendedLifetime(connector) {}
    }

    func testShortAndLongWritesReachTheDeviceWhole() async throws {
        let peer = try ChatPeer(["--service", "chat"])
        let (host, connector, _) = try await connected(peer)
        defer { host.close() }
        let tree = try await connector.discoverServices()
        let rx = try XCTUnwrap(tree.flatMap(\.characteristics).first { $0.uuid.text.hasPrefix("7E57C002") })
        try await connector.writeValue(Array("short".utf8), at: rx.valueHandle, withResponse: true)
        XCTAssertNotNil(peer.wait(for: { $0.hasPrefix("RX chat ") && $0.hasSuffix(" short") }), peer.output)
        // 300 bytes: more than ATT_MTU−3, so Prepare Write in parts, then Execute Write.
        let long = String(repeating: "0123456789", count: 30)
        try await connector.writeValue(Array(long.utf8), at: rx.valueHandle, withResponse: true)
        XCTAssertNotNil(peer.wait(for: { $0.hasPrefix("RX chat ") && $0.hasSuffix(" " + long) }), "arrived whole: \(peer.output)")
        do {
            try await connector.writeValue(Array(long.utf8), at: rx.valueHandle, withResponse: false)
            XCTFail("a command longer than a packet was sent")
        } catch {
            XCTAssertTrue(error.message.contains("write it with a response instead"), error.message)
        }
        withExtendedLifetime(connector) {}
    }

    func testAThousandNotificationsArriveInOrderNoneLostAndIndicationsAreConfirmed() async throws {
        let peer = try ChatPeer(["--service", "chat", "--info", "--heart-rate", "200"])
        let (host, connector, log) = try await connected(peer)
        defer { host.close() }
        let tree = try await connector.discoverServices()
        func characteristic(_ uuid: String) throws -> GATTCharacteristic {
            try XCTUnwrap(tree.flatMap(\.characteristics).first { $0.uuid.text == uuid }, uuid)
        }
        let measurement = try characteristic("2A37")
        let cccd = try XCTUnwrap(measurement.descriptors.first { $0.uuid == BluetoothUUID(0x2902) })
        try await connector.subscribe(to: measurement.valueHandle, cccd: cccd.handle, indicate: false, on: true)
        let all = await log.wait(timeout: 30) { $0.notified(measurement.valueHandle).count >= 1_000 }
        XCTAssertTrue(all, "\(log.notified(measurement.valueHandle).count) notifications")
        try await connector.subscribe(to: measurement.valueHandle, cccd: cccd.handle, indicate: false, on: false)
        XCTAssertNotNil(peer.wait(for: { $0.hasPrefix("UNSUBSCRIBED") }), peer.output)
        // The RR interval counts up from 1 with every notification sent: none lost, none out of order.
        let counters = log.notified(measurement.valueHandle).map { Int($0[2]) | Int($0[3]) << 8 }
        XCTAssertEqual(counters, Array(1...counters.count))
        XCTAssertEqual(CharacteristicValues.decode(0x2A37, log.notified(measurement.valueHandle)[0]).text, "72 bpm")

        // Indications: each one is confirmed, or the device would send no next one.
        let temperature = try characteristic("2A1C")
        let thermometerCCCD = try XCTUnwrap(temperature.descriptors.first { $0.uuid == BluetoothUUID(0x2902) })
        try await connector.subscribe(to: temperature.valueHandle, cccd: thermometerCCCD.handle, indicate: true, on: true)
        XCTAssertNotNil(peer.wait(for: { $0 == "CONFIRMED 2" }), "the second indication followed the confirmed first: \(peer.output)")
        let indicated = await log.wait { $0.notified(temperature.valueHandle).count >= 2 }
        XCTAssertTrue(indicated)
        XCTAssertEqual(CharacteristicValues.decode(0x2A1C, log.notified(temperature.valueHandle)[0]).text, "36.7 °C")
        withExtendedLifetime(connector) {}
    }

    // MARK: favblue-scan gatt

    private func scan(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        try runTool(scanToolPath, arguments)
    }

    func testTheCommandLinePrintsTheWholeTreeWithEveryValueAsOneJSONDocument() throws {
        let peer = try ChatPeer(["--service", "chat", "--info"])
        let (status, out, err) = try scan(["gatt", "F0:F1:F2:F3:F4:F5/le-random", "--source", "h4-tcp:127.0.0.1:\(peer.port)",
                                           "--read", "--json"])
        XCTAssertEqual(status, 0, err)
        let document = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])
        XCTAssertEqual(document["address"] as? String, "F0:F1:F2:F3:F4:F5")
        let services = try XCTUnwrap(document["services"] as? [[String: Any]])
        XCTAssertEqual(services.compactMap { $0["uuid"] as? String }.prefix(3), ["1800", "1801", "7E57C000-2C8F-4F3C-9F91-8577E1891234"])
        let characteristics = services.flatMap { $0["characteristics"] as? [[String: Any]] ?? [] }
        let battery = try XCTUnwrap(characteristics.first { $0["uuid"] as? String == "2A19" })
        XCTAssertEqual(battery["name"] as? String, "Battery Level")
        XCTAssertEqual(battery["properties"] as? [String], ["read"])
        XCTAssertEqual((battery["value"] as? [String: Any])?["hex"] as? String, "57")
        XCTAssertEqual((battery["value"] as? [String: Any])?["decoded"] as? String, "87 %")
        let locked = try XCTUnwrap(characteristics.first { $0["uuid"] as? String == "5E7F0002-1C2B-4A5D-8E9F-0A1B2C3D4E5F" })
        XCTAssertEqual(locked["error"] as? String, "Insufficient encryption: pair with the device first.")
        let heartRate = try XCTUnwrap(characteristics.first { $0["uuid"] as? String == "2A37" })
        XCTAssertEqual((heartRate["descriptors"] as? [[String: Any]])?.first?["name"] as? String, "Client Characteristic Configuration")
        XCTAssertNil(heartRate["value"], "a value that cannot be read is not asked for")
    }

    func testTheCommandLineSaysWhyItCouldNotConnectAndExitsNonZero() throws {
        let (status, out, err) = try scan(["gatt", "F0:F1:F2:F3:F4:F5/le-random", "--source", "h4-tcp:127.0.0.1:\(Peers.freePort())"])
        XCTAssertEqual(status, 2)
        XCTAssertEqual(out, "")
        XCTAssertTrue(err.hasPrefix("favblue-scan: could not connect to F0:F1:F2:F3:F4:F5: "), err)
        let (badStatus, _, badErr) = try scan(["gatt", "not-an-address"])
        XCTAssertEqual(badStatus, 2)
        XCTAssertTrue(badErr.contains("is not an address like"), badErr)
    }

    func testGivenAnIdentityAndItsKeyTheCommandLineReachesADeviceThatChangesItsAddressEveryTwoSeconds() throws {
        let irk = "00112233445566778899aabbccddeeff"
        let peer = try ChatPeer(["--service", "chat", "--irk", irk, "--private", "--rotate", "2", "--advertising-interval", "100"])
        let keys = FileManager.default.temporaryDirectory.appending(path: "favblue-keys-\(UUID().uuidString)").path
        // The key as FavBlue keeps it: Bumble's bytes the other way round.
        let ours = stride(from: 30, through: 0, by: -2).map { irk[irk.index(irk.startIndex, offsetBy: $0)...].prefix(2) }.joined()
        try "F0:F1:F2:F3:F4:F5/le-random \(ours)\n".write(toFile: keys, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: keys) }
        // Three rotations first: the address the peer started with is long gone.
        XCTAssertNotNil(peer.wait(for: { _ in peer.lines.filter { $0.hasPrefix("ROTATED ") }.count >= 3 }, timeout: 15), peer.output)
        let (status, out, err) = try scan(["gatt", "F0:F1:F2:F3:F4:F5/le-random", "--source", "h4-tcp:127.0.0.1:\(peer.port)",
                                           "--keys", keys, "--json"])
        XCTAssertEqual(status, 0, err + peer.output)
        let document = try XCTUnwrap(try? JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any], out + err)
        XCTAssertEqual(document["address"] as? String, "F0:F1:F2:F3:F4:F5", "reported under its identity")
        XCTAssertEqual(peer.lines.filter { $0.hasPrefix("CONNECTED") }.count, 1, "one connection: \(peer.output)")
    }
}
