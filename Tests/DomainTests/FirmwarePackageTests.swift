// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import XCTest

/// The nRF Connect SDK's dfu_application.zip: its manifest names the image for each core; what
/// does not read is refused in words before any byte is sent.
final class FirmwarePackageTests: XCTestCase {
    /// A ZIP file of stored (unpacked) members, as PKWARE's APPNOTE lays it out.
    private func zip(_ members: [(String, [UInt8])]) -> [UInt8] {
        func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func le32(_ v: Int) -> [UInt8] { le16(v & 0xFFFF) + le16(v >> 16) }
        var out: [UInt8] = [], directory: [UInt8] = []
        for (name, data) in members {
            let offset = out.count
            let header = le16(20) + le16(0) + le16(0) + le16(0) + le16(0) + le32(0) + le32(data.count) + le32(data.count)
                + le16(name.utf8.count) + le16(0)
            out += [0x50, 0x4B, 0x03, 0x04] + header + Array(name.utf8) + data
            directory += [0x50, 0x4B, 0x01, 0x02] + le16(20) + header + le16(0) + le16(0) + le16(0) + le32(0) + le32(offset) + Array(name.utf8)
        }
        let start = out.count
        out += directory
        out += [0x50, 0x4B, 0x05, 0x06] + le16(0) + le16(0) + le16(members.count) + le16(members.count) + le32(directory.count) + le32(start) + le16(0)
        return out
    }

    private let noInflate: ([UInt8], Int) -> [UInt8]? = { _, _ in nil }

    func testTheImageTheManifestNamesIsTaken() throws {
        let image: [UInt8] = [0x3D, 0xB8, 0xF3, 0x96] + Array(repeating: 7, count: 60)
        let manifest = #"{"format-version": 0, "files": [{"type": "application", "image_index": "0", "file": "app_update.bin"}]}"#
        let package = zip([("manifest.json", Array(manifest.utf8)), ("app_update.bin", image)])
        XCTAssertEqual(try FirmwarePackage.images(in: package, inflate: noInflate), [.init(number: 0, name: "app_update.bin", bytes: image)])
        XCTAssertEqual(try FirmwarePackage.images(in: image, inflate: noInflate), [.init(number: 0, name: "", bytes: image)],
                       "a .bin is the image itself")
    }

    /// An nRF5340's package, as the nRF Connect SDK writes it: the network core's image listed
    /// first, its index as text. Each goes to its own image number, the application's first.
    func testAPackageForTwoCoresGivesEachImageItsNumber() throws {
        let app: [UInt8] = [0x3D, 0xB8, 0xF3, 0x96] + Array(repeating: 1, count: 40)
        let net: [UInt8] = [0x3D, 0xB8, 0xF3, 0x96] + Array(repeating: 2, count: 30)
        let manifest = #"""
        {"format-version": 1, "files": [
          {"type": "application", "board": "nrf5340dk_nrf5340_cpunet", "image_index": "1", "file": "net_core_app_update.bin"},
          {"type": "application", "board": "nrf5340dk_nrf5340_cpuapp", "image_index": "0", "file": "app_update.bin"}]}
        """#
        let package = zip([("manifest.json", Array(manifest.utf8)), ("net_core_app_update.bin", net), ("app_update.bin", app)])
        XCTAssertEqual(try FirmwarePackage.images(in: package, inflate: noInflate), [
            .init(number: 0, name: "app_update.bin", bytes: app), .init(number: 1, name: "net_core_app_update.bin", bytes: net),
        ])
        let numbered = #"{"files": [{"file": "app.bin", "image_index": 0}, {"file": "net.bin", "image_index": 1}]}"#
        XCTAssertEqual(try FirmwarePackage.images(in: zip([("manifest.json", Array(numbered.utf8)), ("app.bin", app), ("net.bin", net)]),
                                                  inflate: noInflate).map(\.number), [0, 1], "an index written as a number")
    }

    func testWhatCannotBeSentIsSaidInWords() {
        func problem(_ bytes: [UInt8]) -> String? {
            do { _ = try FirmwarePackage.images(in: bytes, inflate: noInflate); return nil } catch { return error.message }
        }
        XCTAssertEqual(problem(zip([("readme.txt", Array("hi".utf8))])),
                       "This ZIP file has no manifest.json, so it names no image: use the dfu_application.zip of an nRF Connect SDK build, or its .bin.")
        let twice = #"{"files": [{"file": "app.bin", "image_index": "0"}, {"file": "net.bin", "image_index": "0"}]}"#
        let numbers = "The package's manifest gives its images numbers no MCUboot device has: each image needs its own number, from 0 to 3."
        XCTAssertEqual(problem(zip([("manifest.json", Array(twice.utf8)), ("app.bin", [1]), ("net.bin", [2])])), numbers)
        let far = #"{"files": [{"file": "app.bin", "image_index": "9"}]}"#
        XCTAssertEqual(problem(zip([("manifest.json", Array(far.utf8)), ("app.bin", [1])])), numbers)
        let word = #"{"files": [{"file": "app.bin", "image_index": "net"}]}"#
        XCTAssertEqual(problem(zip([("manifest.json", Array(word.utf8)), ("app.bin", [1])])), numbers, "an index that is no number")
        let missing = #"{"files": [{"file": "app.bin"}]}"#
        XCTAssertEqual(problem(zip([("manifest.json", Array(missing.utf8))])),
                       "The package's manifest names \u{2068}app.bin\u{2069}, which the package does not hold.")
        var cut = zip([("manifest.json", Array(missing.utf8)), ("app.bin", [1, 2, 3])])
        cut.removeLast(30)
        XCTAssertNotNil(problem(cut), "a file cut short")
        XCTAssertTrue(problem(Array(cut.prefix(10)))?.hasPrefix("This is not a ZIP file FavBlue can read:") ?? false)
    }
}
