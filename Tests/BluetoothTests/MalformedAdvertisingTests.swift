// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Bluetooth
import Domain
import Foundation
import TestSupport
import XCTest

/// Advertising data that overruns its report, read by FavBlue and by Wireshark's dissector
/// from the same capture: both keep what came before the bad structure and both call it malformed.
final class MalformedAdvertisingTests: XCTestCase {
    static let adverts: [[UInt8]] = [
        // A manufacturer structure that claims 8 bytes and has 1.
        [0x02, 0x01, 0x06, 0x05, 0x09] + Array("Good".utf8) + [0x09, 0xFF, 0x4C],
        // A 16-bit UUID list of three bytes: one whole UUID and a stray byte.
        [0x05, 0x09] + Array("Uuid".utf8) + [0x04, 0x03, 0x0F, 0x18, 0x0A],
        // Well formed.
        [0x05, 0x09] + Array("Fine".utf8),
    ]

    struct Reading: Equatable { var name: String; var uuids: [String]; var malformed: Bool }

    func testFavBlueAndTsharkAgreeOnWhatAMalformedAdvertHolds() throws {
        let tshark = "/usr/bin/tshark"
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: tshark), "tshark is installed by meson-helpers/bootstrap")
        let path = try TickCapture.write(adverts: Self.adverts, prefix: "favblue-malformed")
        defer { try? FileManager.default.removeItem(atPath: path) }

        let (status, out, err) = try runTool(tshark, ["-r", path, "-T", "fields", "-E", "separator=|",
                                                       "-e", "bthci_evt.bd_addr", "-e", "btcommon.eir_ad.entry.device_name",
                                                       "-e", "btcommon.eir_ad.entry.uuid_16", "-e", "_ws.malformed"])
        XCTAssertEqual(status, 0, err)
        var theirs: [String: Reading] = [:]
        for line in out.split(separator: "\n") {
            let f = line.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            guard f.count == 4 else { continue }
            let uuids = f[2].split(separator: ",").map { String($0.dropFirst(2)).uppercased() }
            theirs[f[0].uppercased()] = Reading(name: f[1], uuids: uuids, malformed: !f[3].isEmpty)
        }

        let (table, _) = ReplayScanner(path: path, realTime: false).table()
        var ours: [String: Reading] = [:]
        for device in table.sorted {
            ours[device.id.address] = Reading(name: device.name ?? "", uuids: device.advertised.services.map(\.uuid),
                                              malformed: device.advertised.malformed)
        }
        XCTAssertEqual(ours.count, 3, "every device is listed, malformed or not")
        XCTAssertEqual(ours, theirs)
        XCTAssertEqual(ours["C6:05:04:03:02:00"], Reading(name: "Good", uuids: [], malformed: true))
        XCTAssertEqual(ours["C6:05:04:03:02:01"], Reading(name: "Uuid", uuids: ["180F"], malformed: true))
        XCTAssertEqual(ours["C6:05:04:03:02:02"]?.malformed, false)
    }
}
