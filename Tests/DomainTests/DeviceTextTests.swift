// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import XCTest

/// What a device's text looks like on screen: every character accounted for, none active.
final class DeviceTextTests: XCTestCase {
    func testControlCharactersBecomeVisibleSymbols() {
        XCTAssertEqual(DeviceText.shown("Lamp\nKitchen"), "Lamp\u{240A}Kitchen", "a newline cannot make a row two lines tall")
        XCTAssertEqual(DeviceText.shown("\u{07}bell\u{1B}[31m"), "\u{2407}bell\u{241B}[31m")
        XCTAssertEqual(DeviceText.shown("tab\there"), "tab\u{2409}here")
        XCTAssertEqual(DeviceText.shown("del\u{7F}"), "del\u{2421}")
        XCTAssertEqual(DeviceText.shown("c1\u{85}\u{9B}"), "c1\u{FFFD}\u{FFFD}", "C1 controls have no symbol of their own")
        XCTAssertEqual(DeviceText.shown("R&D <Lab> 🎧 שלום"), "R&D <Lab> 🎧 שלום", "everything else is kept exactly")
    }

    func testBytesAreShownAsSpacedUppercaseHex() {
        XCTAssertEqual(Hex.spaced([0x0A, 0xFF, 0x3C, 0x00]), "0A FF 3C 00")
        XCTAssertEqual(Hex.spaced([]), "")
    }

    func testInvalidUTF8IsReplacedAndKeptInHex() {
        XCTAssertEqual(DeviceText.shown(bytes: [0x52, 0xFF, 0x44, 0x00, 0x00]), "R\u{FFFD}D", "zero padding ends the text")
        XCTAssertEqual(DeviceText.invalidBytes([0x52, 0xFF, 0x44]), "52 FF 44")
        XCTAssertNil(DeviceText.invalidBytes(Array("Kitchen".utf8)))
    }

    func testANameInsideASentenceIsIsolated() {
        let override = "\u{202E}exe.live"
        let isolated = DeviceText.isolated(override)
        XCTAssertEqual(isolated, "\u{2068}\u{202E}exe.live\u{2069}",
                       "an override without its closing PDF ends at the isolate, so the words after it keep their order")
        XCTAssertEqual(DeviceText.isolated("a\nb"), "\u{2068}a\u{240A}b\u{2069}", "isolated text is shown text too")
    }

    func testATerminalCellEscapesEveryControlAndIsolatesRightToLeftText() {
        XCTAssertEqual(DeviceText.terminal("Two\nlines\r\tx"), "Two\\nlines\\r\\tx")
        XCTAssertEqual(DeviceText.terminal("\u{07}ring\u{1B}[2J"), "\\x07ring\\x1b[2J", "no bell, no cleared screen")
        XCTAssertEqual(DeviceText.terminal("back\\slash"), "back\\\\slash", "an escape cannot be forged")
        XCTAssertEqual(DeviceText.terminal("\u{202E}exe.live"), "\\u{202e}exe.live", "a bidi override is written out")
        XCTAssertEqual(DeviceText.terminal("c1\u{9B}"), "c1\\x9b")
        XCTAssertEqual(DeviceText.terminal("מדחום"), "\u{2068}מדחום\u{2069}")
        XCTAssertEqual(DeviceText.terminal("Lamp 🎧"), "Lamp 🎧")
    }
}
