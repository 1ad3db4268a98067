// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import XCTest

/// The nRF Connect SDK's dfu_application.zip: its manifest names the image; what does not read
/// is refused in words before any byte is sent.
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
        XCTAssertEqual(try FirmwarePackage.image(in: package, inflate: noInflate), image)
        XCTAssertEqual(try FirmwarePackage.image(in: image, inflate: noInflate), image, "a .bin is the image itself")
    }

    func testWhatCannotBeSentIsSaidInWords() {
        func problem(_ bytes: [UInt8]) -> String? {
            do { _ = try FirmwarePackage.image(in: bytes, inflate: noInflate); return nil } catch { return error.message }
        }
        XCTAssertEqual(problem(zip([("readme.txt", Array("hi".utf8))])),
                       "This ZIP file has no manifest.json, so it names no image: use the dfu_application.zip of an nRF Connect SDK build, or its .bin.")
        let two = #"{"files": [{"file": "app.bin", "image_index": "0"}, {"file": "net.bin", "image_index": "1"}]}"#
        XCTAssertEqual(problem(zip([("manifest.json", Array(two.utf8)), ("app.bin", [1]), ("net.bin", [2])])),
                       "The package updates 2 cores at once, which FavBlue does not do yet: update each core with its own .bin.")
        let missing = #"{"files": [{"file": "app.bin"}]}"#
        XCTAssertEqual(problem(zip([("manifest.json", Array(missing.utf8))])),
                       "The package's manifest names \u{2068}app.bin\u{2069}, which the package does not hold.")
        var cut = zip([("manifest.json", Array(missing.utf8)), ("app.bin", [1, 2, 3])])
        cut.removeLast(30)
        XCTAssertNotNil(problem(cut), "a file cut short")
        XCTAssertTrue(problem(Array(cut.prefix(10)))?.hasPrefix("This is not a ZIP file FavBlue can read:") ?? false)
    }
}
