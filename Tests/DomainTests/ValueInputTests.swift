// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Localization
import XCTest

/// What the user types to write: checked at the entry, with nothing sent until it reads.
final class ValueInputTests: XCTestCase {
    private func problem(_ typed: String, _ format: ValueInputFormat) -> ValueInput.Problem? {
        do {
            _ = try ValueInput.bytes(typed, as: format)
            return nil
        } catch {
            return error
        }
    }

    func testTextIsItsUTF8() throws {
        XCTAssertEqual(try ValueInput.bytes("hé", as: .text), [0x68, 0xC3, 0xA9])
        XCTAssertEqual(problem("", .text), .empty)
        XCTAssertEqual(problem(String(repeating: "x", count: 513), .text)?.message, "An attribute holds at most 512 bytes.")
    }

    func testHexTakesSeparatorsAndAPrefixAndRefusesAnythingElse() throws {
        XCTAssertEqual(try ValueInput.bytes("0x01 ab:CD-ef", as: .hex), [0x01, 0xAB, 0xCD, 0xEF])
        XCTAssertEqual(problem("0g", .hex), .notHex("g"))
        XCTAssertEqual(problem("0g", .hex)?.message, "“g” is not a hex digit (0–9, A–F).")
        XCTAssertEqual(problem("abc", .hex)?.message, "Hex needs two digits for each byte.")
        XCTAssertEqual(problem("0x", .hex), .empty)
    }

    func testNumbersOfEachWidthSignAndByteOrder() throws {
        XCTAssertEqual(try ValueInput.bytes("258", as: .number(bytes: 2, signed: false, bigEndian: false)), [0x02, 0x01])
        XCTAssertEqual(try ValueInput.bytes("258", as: .number(bytes: 2, signed: false, bigEndian: true)), [0x01, 0x02])
        XCTAssertEqual(try ValueInput.bytes("-2", as: .number(bytes: 1, signed: true, bigEndian: false)), [0xFE])
        XCTAssertEqual(try ValueInput.bytes("\u{2212}2", as: .number(bytes: 2, signed: true, bigEndian: false)), [0xFE, 0xFF],
                       "the minus sign FavBlue shows is taken back")
        XCTAssertEqual(try ValueInput.bytes("18446744073709551615", as: .number(bytes: 8, signed: false, bigEndian: false)),
                       [UInt8](repeating: 0xFF, count: 8))
        XCTAssertEqual(problem("256", .number(bytes: 1, signed: false, bigEndian: false))?.message, "Type a number from 0 to 255.")
        XCTAssertEqual(problem("-129", .number(bytes: 1, signed: true, bigEndian: false))?.message,
                       "Type a number from \u{2212}128 to 127.")
        XCTAssertEqual(problem("-1", .number(bytes: 1, signed: false, bigEndian: false))?.message, "Type a number from 0 to 255.")
        XCTAssertEqual(problem("1.5", .number(bytes: 1, signed: false, bigEndian: false)), .notANumber)
        XCTAssertEqual(problem(" ", .number(bytes: 1, signed: false, bigEndian: false)), .empty)
    }

    func testThePresentationFormatChoosesTheDefault() {
        XCTAssertEqual(ValueInputFormat(presentation: PresentationFormat(format: 0x0E, exponent: -2, unit: 0x272F)),
                       .number(bytes: 2, signed: true, bigEndian: false))
        XCTAssertEqual(ValueInputFormat(presentation: PresentationFormat(format: 0x19, exponent: 0, unit: 0x2700)), .text)
        XCTAssertEqual(ValueInputFormat(presentation: PresentationFormat(format: 0x1B, exponent: 0, unit: 0x2700)), .hex)
        XCTAssertEqual(ValueInputFormat(presentation: nil), .text)
    }
}
