// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

@testable import Bluetooth
import Domain
import Foundation
import TestSupport
import XCTest

/// Real captures decoded by us and by the reference decoders (tshark, btmon).
final class CaptureTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let captures = root.appending(path: "Tests/Fixtures/captures")

    private func capture(_ name: String) throws -> String {
        let path = Self.captures.appending(path: name).path
        XCTAssertTrue(FileManager.default.fileExists(atPath: path), "\(name) is missing from Tests/Fixtures/captures")
        return path
    }

    private func run(_ tool: String, _ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        try runTool(tool, arguments)
    }

    /// Our device table for a capture: address → (reports, names).
    private func ours(_ path: String) throws -> [String: (Int, Set<String>)] {
        var table: [String: (Int, Set<String>)] = [:]
        for packet in try BtsnoopReader(path: path).packets().packets where packet.type == .event && packet.received {
            guard let observations = try? ObservationDecoder.observations(inEvent: packet.bytes[...], at: packet.timestamp) else { continue }
            for o in observations where o.rssi != nil || o.name != nil {
                var entry = table[o.id.address] ?? (0, [])
                entry.0 += 1
                if let name = o.name { entry.1.insert(name) }
                table[o.id.address] = entry
            }
        }
        return table
    }

    func testAdvertisingCapturesMatchTshark() throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/bin/tshark"), "tshark is not installed")
        for name in ["android-legacy-adverts-govee.btsnoop", "android-extended-adverts.btsnoop"] {
            let path = try capture(name)
            let result = try run("/usr/bin/tshark", ["-r", path, "-Y", "bthci_evt.le_meta_subevent == 0x02 || bthci_evt.le_meta_subevent == 0x0d",
                                                      "-T", "fields", "-e", "bthci_evt.bd_addr", "-e", "btcommon.eir_ad.entry.device_name"])
            XCTAssertEqual(result.status, 0, result.err)
            var reference: [String: (Int, Set<String>)] = [:]
            for line in result.out.split(separator: "\n") {
                let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
                let addresses = fields[0].split(separator: ",").map { $0.uppercased() }
                for address in addresses {
                    var entry = reference[address] ?? (0, [])
                    entry.0 += 1
                    if fields.count > 1, !fields[1].isEmpty { entry.1.formUnion(fields[1].split(separator: ",").map(String.init)) }
                    reference[address] = entry
                }
            }
            let decoded = try ours(path)
            XCTAssertFalse(reference.isEmpty, name)
            XCTAssertEqual(Set(decoded.keys), Set(reference.keys), "\(name): the same devices")
            for (address, (count, names)) in reference {
                XCTAssertEqual(decoded[address]?.0, count, "\(name) \(address): report count")
                XCTAssertEqual(decoded[address]?.1, names, "\(name) \(address): names")
            }
        }
    }

    func testTheGoveeThermometerIsNamedWithItsCompany() throws {
        let path = try capture("android-legacy-adverts-govee.btsnoop")
        let all = try BtsnoopReader(path: path).packets().packets
            .filter { $0.type == .event }
            .flatMap { (try? ObservationDecoder.observations(inEvent: $0.bytes[...], at: $0.timestamp)) ?? [] }
        let named = all.filter { $0.name?.hasPrefix("GVH") == true || $0.name?.contains("Govee") == true }
        XCTAssertFalse(named.isEmpty, "the thermometer advertises its name")
        XCTAssertTrue(all.contains { $0.manufacturerData.contains { $0.companyID == 0xEC88 } })
    }

    func testAMonitorCaptureIsReadWithoutAdverts() throws {
        let reader = try BtsnoopReader(path: try capture("btmon-monitor-2001.btsnoop"))
        XCTAssertEqual(reader.datalink, 2001)
        let (packets, truncated) = reader.packets()
        XCTAssertNil(truncated)
        XCTAssertEqual(packets.filter { $0.type == .command }.count, 55)
        XCTAssertEqual(packets.filter { $0.type == .event }.count, 56)
    }

    func testATruncatedCaptureKeepsEverythingBeforeTheCut() throws {
        let whole = try [UInt8](Data(contentsOf: URL(fileURLWithPath: try capture("android-legacy-adverts-govee.btsnoop"))))
        let cut = try BtsnoopReader(data: Array(whole.prefix(whole.count - 7)))
        let (packets, truncated) = cut.packets()
        let (all, _) = try BtsnoopReader(data: whole).packets()
        XCTAssertEqual(packets.count, all.count - 1)
        guard case .truncated? = truncated else { return XCTFail("the cut is reported") }
        XCTAssertTrue(truncated!.message.contains("middle of a record"))
    }

    func testBadHeadersAreRefusedWithAReason() {
        XCTAssertThrowsError(try BtsnoopReader(data: Array("not a capture at all".utf8))) { XCTAssertEqual($0 as? BtsnoopError, .badMagic) }
        XCTAssertThrowsError(try BtsnoopReader(data: Array("btsnoop\0".utf8) + [0, 0, 0, 1, 0, 0, 0x00, 0xC9])) {
            XCTAssertEqual($0 as? BtsnoopError, .unknownDatalink(201))
        }
    }

    func testOurRecordingIsReadByBtmonWithTheDeviceNames() throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/bin/btmon"), "btmon is not installed")
        let path = NSTemporaryDirectory() + "favblue-rec-\(UUID().uuidString).btsnoop"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try BtsnoopWriter(path: path)
        let ad: [UInt8] = [0x02, 0x01, 0x06, 0x0A, 0x09] + Array("Recorded1".utf8)
        let event: [UInt8] = [0x3E, UInt8(12 + ad.count), 0x02, 0x01, 0x00, 0x00, 1, 2, 3, 4, 5, 6, UInt8(ad.count)] + ad + [0xC0]
        writer.write(type: .command, bytes: HCICommand.leSetScanEnable(true).packet, received: false)
        writer.write(type: .event, bytes: event, received: true)
        writer.close()
        let result = try run("/usr/bin/btmon", ["-r", path])
        XCTAssertTrue(result.out.contains("Recorded1"), result.out)
        XCTAssertTrue(result.out.contains("LE Set Scan Enable"), result.out)
        let back = try BtsnoopReader(path: path).packets().packets
        XCTAssertEqual(back.map(\.type), [.command, .event])
    }
}
