// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

@testable import Bluetooth
import Crypto
import Domain
import Foundation
import TestSupport
import XCTest

/// The GATT client of our own host against gatt_peer.py, a Bumble server that holds every kind
/// of characteristic the browser meets: discovery handle for handle, long values both ways,
/// refusals in words, and the decoders on the values a real server sends.
final class BumbleGATTServerTests: XCTestCase {
    private var peer: ChatPeer!
    private var host: HCIHost!
    private var connector: HCIConnector!
    private var tree: [GATTService] = []

    override func setUp() async throws {
        peer = try ChatPeer([], script: "gatt_peer.py")
        let (host, connector) = try peer.connector()
        self.host = host
        self.connector = connector
        let log = EventLog(connector)
        connector.connect(to: ChatPeer.gattPeer)
        await log.wait(for: { if case .connected = $0 { return true } else { return false } })
        tree = try await connector.discoverServices()
    }

    override func tearDown() {
        host?.close()
        peer?.stop()
    }

    private func handle(_ uuid: String) throws -> UInt16 {
        try XCTUnwrap(tree.flatMap(\.characteristics).first { $0.uuid.text == uuid }?.valueHandle, uuid)
    }

    private func vendor(_ n: Int) -> String { String(format: "5E7F%04X-1C2B-4A5D-8E9F-0A1B2C3D4E5F", 0x1000 + n) }

    func testDiscoveryFindsThePeersOwnTableHandleForHandle() throws {
        let line = try XCTUnwrap(peer.lines.first { $0.hasPrefix("TABLE ") })
        let table = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.dropFirst(6).utf8)) as? [[Any]])
        let theirs = table.map { "\($0[0] as? Int ?? -1) \($0[1] as? String ?? "?")" }
        var ours: [String] = []
        for service in tree {
            ours.append("\(service.start) 2800")
            for include in service.includes { ours.append("? 2802 \(include.start)") }
            for c in service.characteristics {
                ours.append("\(c.handle) 2803")
                ours.append("\(c.valueHandle) \(c.uuid)")
                ours += c.descriptors.map { "\($0.handle) \($0.uuid)" }
            }
        }
        XCTAssertEqual(ours, theirs)
        XCTAssertEqual(tree.map(\.uuid.text), ["1800", "1801", "180F", "180A", "180D", "1809", "181A", "5E7F1000-1C2B-4A5D-8E9F-0A1B2C3D4E5F"])
        let properties = try XCTUnwrap(tree.last?.characteristics.prefix(5).map(\.properties.words))
        XCTAssertEqual(properties, [["Read"], ["Write"], ["Write Without Response"], ["Notify"], ["Indicate"]], "one a property")
    }

    func testA512ByteValueIsReadWholeAndA300ByteValueWrittenWhole() async throws {
        let long = try await connector.readValue(at: try handle(vendor(6)))
        XCTAssertEqual(long, (0 ..< 512).map { UInt8($0 % 256) }, "Read Blob to the end")
        let value = (0 ..< 300).map { UInt8(($0 * 7) % 251) }
        try await connector.writeValue(value, at: try handle(vendor(7)), withResponse: true)
        let line = try XCTUnwrap(peer.wait(for: { $0.hasPrefix("WROTE 300 ") }), peer.output)
        XCTAssertEqual(line, "WROTE 300 " + Insecure.SHA1.hash(data: value).map { String(format: "%02x", $0) }.joined(), "Prepare Write in parts, then Execute, arrived whole")
        let back = try await connector.readValue(at: try handle(vendor(7)))
        XCTAssertEqual(back, value)
    }

    func testEveryRefusalIsSaidInTheDevicesWords() async throws {
        for (uuid, words, pairing) in [(vendor(9), "Insufficient encryption: pair with the device first.", true),
                                        (vendor(10), "Read not permitted: the device does not let this value be read.", false)] {
            let at = try handle(uuid)
            do {
                _ = try await connector.readValue(at: at)
                XCTFail("\(uuid) was read")
            } catch {
                XCTAssertEqual(error.message, words)
                XCTAssertEqual(error.wantsPairing, pairing)
            }
        }
    }

    func testWhatTheServerSendsIsDecoded() async throws {
        let expected: [(String, String)] = [
            ("2A19", "87 %"), ("2A29", "FavBlue Labs"), ("2A24", "GP-1"), ("2A25", "SN-0042"), ("2A26", "1.2.3"),
            ("2A27", "rev B"), ("2A28", "4.5.6"), ("2A38", "Chest"), ("2A6E", "21.50 °C"), ("2A6F", "45.50 %"),
        ]
        for (uuid, text) in expected {
            let bytes = try await connector.readValue(at: try handle(uuid))
            XCTAssertEqual(CharacteristicValues.decode(UInt16(uuid, radix: 16)!, bytes).text, text, uuid)
        }
        let pressure = try await connector.readValue(at: try handle("2A6D"))
        XCTAssertNotNil(CharacteristicValues.decode(0x2A6D, pressure).text?.contains("Pa"))
        let pnp = try await connector.readValue(at: try handle("2A50"))
        XCTAssertEqual(CharacteristicValues.decode(0x2A50, pnp, company: CompanyNames.name).text, CompanyNames.name(0x000F))
    }
}
