// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import DeviceLinks
import XCTest

/// A ZIP member's raw deflate, unpacked by GIO: whole, or not at all.
final class InflateTests: XCTestCase {
    /// zlib.compressobj(9, DEFLATED, -15) of "hello hello hello hello, MCUboot!" three times.
    private let packed: [UInt8] = [203, 72, 205, 201, 201, 87, 200, 64, 39, 117, 20, 124, 157, 67, 147, 242, 243, 75, 20, 51, 40, 86, 0, 0]

    func testRawDeflateUnpacksToItsSize() {
        let text = String(repeating: "hello hello hello hello, MCUboot!", count: 3)
        XCTAssertEqual(Inflate.raw(packed, size: 99), Array(text.utf8))
    }

    func testASizeThatLiesOrDamagedDataGivesNothing() {
        XCTAssertNil(Inflate.raw(packed, size: 98), "more than the size said")
        XCTAssertNil(Inflate.raw(packed, size: 120), "less than the size said")
        XCTAssertNil(Inflate.raw([0xFF, 0xFF, 0xFF, 0x00], size: 10), "not deflate")
        XCTAssertNil(Inflate.raw(Array(packed.prefix(8)), size: 99), "cut short")
    }
}
