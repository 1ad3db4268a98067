// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation
import TestSupport
import XCTest

/// `favblue-scan trackers` on a three-hour trip: the rule on the capture's own timestamps, with
/// the places a file gives.
final class TrackersCommandTests: XCTestCase {
    private var tool: String { scanToolPath }

    private func temporary(_ name: String, _ text: String) throws -> String {
        let path = NSTemporaryDirectory() + "favblue-\(name)-\(UUID()).txt"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        return path
    }

    /// An AirTag away from its owner: Apple's block with a full key (31 bytes, all an advertisement holds).
    private func airTag(_ key: UInt8) -> [UInt8] { [30, 0xFF, 0x4C, 0x00, 0x12, 0x19, 0x10] + Array(repeating: key, count: 22) + [0x00, 0x00] }

    /// Three hours, a report a minute: the follower's AirTag all along (home, bus, office), a
    /// neighbour's SmartTag while at home, and the owner's own AirTag all along.
    private func trip() throws -> String {
        let smartTag: [UInt8] = [16, 0x16, 0x5A, 0xFD, 0x12, 0x05, 0x00, 0x00] + Array(repeating: 0, count: 8) + [0x03]
        var reports: [(second: Double, ad: [UInt8], address: [UInt8])] = []
        for minute in 0..<180 {
            let second = Double(minute) * 60
            reports.append((second, airTag(0x11), [0xD1, 0x11, 0x11, 0x11, 0x11, 0x11]))
            reports.append((second + 1, airTag(0x22), [0xD2, 0x22, 0x22, 0x22, 0x22, 0x22]))
            if minute < 60 { reports.append((second + 2, smartTag, [0x43, 0x33, 0x33, 0x33, 0x33, 0x33])) }
        }
        let path = try TickCapture.write(timed: reports, prefix: "favblue-trip")
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        return path
    }

    private func run(_ arguments: [String]) throws -> (Int32, String, String) {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: tool), "build favblue-scan first (swift build)")
        return try runTool(tool, ["trackers"] + arguments)
    }

    func testOneAlertForTheTagThatMovedWithTheMachineNoneForANeighboursOrYourOwn() throws {
        let capture = try trip()
        let places = try temporary("places", "# the trip\n2000-01-01T00:00:00Z home\n2000-01-01T01:00:00Z bus\n2000-01-01T01:30:00Z office\n")
        let trusted = try temporary("trusted", "D2:22:22:22:22:22/le-random\n")
        let (status, out, err) = try run(["--source", "btsnoop:\(capture)", "--places", places, "--trusted", trusted, "--json"])
        XCTAssertEqual(status, 0, err)
        let document = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])
        let trackers = try XCTUnwrap(document["trackers"] as? [[String: Any]])
        XCTAssertEqual(trackers.compactMap { $0["family"] as? String }.sorted(), ["apple-find-my", "apple-find-my", "samsung-smarttag"])
        let alerts = try XCTUnwrap(document["alerts"] as? [[String: Any]])
        XCTAssertEqual(alerts.count, 1, "\(alerts)")
        let alert = try XCTUnwrap(alerts.first)
        XCTAssertEqual(alert["address"] as? String, "D1:11:11:11:11:11", "the follower, not the neighbour's tag nor your own")
        XCTAssertEqual(alert["places"] as? Int, 3)
        XCTAssertEqual(alert["minutes"] as? Int, 90, "due once the third place is reached: an hour and a half in")
        XCTAssertEqual(alert["firstSeen"] as? String, "2000-01-01T00:00:00Z", "on the capture's own clock")

        // Without the trusted file, your own tag is flagged too; with high sensitivity sooner.
        let (_, plain, _) = try run(["--source", "btsnoop:\(capture)", "--places", places, "--sensitivity", "high"])
        XCTAssertEqual(plain.split(separator: "\n").filter { $0.hasPrefix("ALERT") }.count, 2, plain)
    }

    func testWithoutPlacesTimeAloneNeedsTwoSessions() throws {
        let (status, out, err) = try run(["--source", "btsnoop:\(try trip())", "--json"])
        XCTAssertEqual(status, 0, err)
        XCTAssertTrue(out.contains("\"alerts\":[]"), "one scan session, however long, is not enough: \(out)")
    }

    func testABadPlacesLineIsNamedAndNothingIsGuessed() throws {
        let places = try temporary("places", "2000-01-01T00:00:00Z home\nyesterday office\n")
        let (status, out, err) = try run(["--source", "btsnoop:\(try trip())", "--places", places])
        XCTAssertEqual(status, 2)
        XCTAssertEqual(out, "")
        XCTAssertTrue(err.contains("line 2") && err.contains("yesterday"), err)
    }
}
