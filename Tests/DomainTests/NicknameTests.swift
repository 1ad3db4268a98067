// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import XCTest

final class NicknameTests: XCTestCase {
    func testNicknamesAreTrimmed() throws {
        XCTAssertEqual(try Nickname.validate("  Kitchen  "), "Kitchen")
    }

    func testEmptyMeansNoNickname() throws {
        XCTAssertNil(try Nickname.validate(""))
        XCTAssertNil(try Nickname.validate("   \n "))
    }

    func testSixtyFourCharactersAreAllowedAndSixtyFiveAreNot() throws {
        XCTAssertNotNil(try Nickname.validate(String(repeating: "a", count: 64)))
        XCTAssertThrowsError(try Nickname.validate(String(repeating: "a", count: 65))) { error in
            XCTAssertEqual(error as? NicknameError, .tooLong(65))
        }
        XCTAssertTrue(Nickname.problem(with: String(repeating: "b", count: 70))?.contains("64") ?? false)
    }

    func testLengthCountsWhatTheUserSeesNotBytes() throws {
        // 64 family emoji, each many scalars joined by zero-width joiners.
        let family = String(repeating: "👨‍👩‍👧‍👦", count: 64)
        XCTAssertEqual(try Nickname.validate(family), family)
    }

    func testControlCharactersAreRejectedWithAMessage() {
        XCTAssertThrowsError(try Nickname.validate("Tab\there")) { error in
            XCTAssertEqual(error as? NicknameError, .controlCharacter)
        }
        XCTAssertThrowsError(try Nickname.validate("line\u{2028}break"))
        XCTAssertNotNil(Nickname.problem(with: "bell\u{07}"))
    }

    func testEmojiCombiningMarksAndRightToLeftTextAreKeptExactly() throws {
        for text in ["Büro 🎧", "e\u{0301}cole", "\u{05D4}\u{05D0}\u{05D5}\u{05D6}\u{05E0}\u{05D9}\u{05D5}\u{05EA} שלי",
                     "سماعات \u{200F}أحمد", "🏳️‍🌈 flag"] {
            XCTAssertEqual(try Nickname.validate(text), text)
        }
    }
}
