// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation
@testable import Localization
import XCTest

/// Dates and numbers follow the user's POSIX locale, which Foundation on Linux ignores.
final class FormatsTests: XCTestCase {
    private let moment = Date(timeIntervalSince1970: 1_795_443_000)  // 2026-11-23 14:10 UTC
    private let utc = TimeZone(identifier: "UTC")!

    func testGermanDatesReadTheGermanWay() {
        let german = Formats.locale(for: "LC_TIME", environment: ["LANG": "de_DE.UTF-8"])
        XCTAssertEqual(Formats.dateTime(moment, locale: german, timeZone: utc), "23.11.2026, 14:10")
    }

    func testAmericanDatesReadTheAmericanWay() {
        let american = Formats.locale(for: "LC_TIME", environment: ["LANG": "en_US.UTF-8"])
        XCTAssertEqual(Formats.dateTime(moment, locale: american, timeZone: utc), "Nov 23, 2026 at 2:10\u{202F}PM", "ICU puts a narrow no-break space before PM")
    }

    func testTheVariablesArePrecedentAsInGlibc() {
        XCTAssertEqual(Formats.locale(for: "LC_TIME", environment: ["LC_ALL": "de_DE.UTF-8", "LANG": "en_US.UTF-8"]).identifier, "de_DE")
        XCTAssertEqual(Formats.locale(for: "LC_TIME", environment: ["LC_TIME": "de_DE.utf8", "LANG": "en_US.UTF-8"]).identifier, "de_DE")
        XCTAssertEqual(Formats.locale(for: "LC_TIME", environment: ["LANG": "de_AT.UTF-8@euro"]).identifier, "de_AT")
    }

    func testAnInterfaceInGermanUnderTheCLocaleGetsGermanDates() {
        let locale = Formats.locale(for: "LC_TIME", environment: ["LANG": "C.UTF-8", "LANGUAGE": "de:en"])
        XCTAssertEqual(locale.identifier, "de")
        XCTAssertEqual(Formats.dateTime(moment, locale: locale, timeZone: utc), "23.11.2026, 14:10")
        XCTAssertEqual(Formats.locale(for: "LC_TIME", environment: [:]).identifier, "en_US")
    }

    func testNumbersGroupByLocaleWithATrueMinusSign() {
        XCTAssertEqual(Formats.number(-1234, locale: Locale(identifier: "de_DE")), "\u{2212}1.234")
        XCTAssertEqual(Formats.number(-1234, locale: Locale(identifier: "en_US")), "\u{2212}1,234")
        XCTAssertEqual(Formats.number(42, locale: Locale(identifier: "de_DE")), "42")
    }

    func testAgesAreShortAndWhole() {
        XCTAssertEqual(Formats.age(seconds: 40.7), "40 s")
        XCTAssertEqual(Formats.age(seconds: 130), "2 min")
        XCTAssertEqual(Formats.age(seconds: 3 * 3600 + 5), "3 h")
        XCTAssertEqual(Formats.age(seconds: 86_400), "1 day")
        XCTAssertEqual(Formats.age(seconds: 3 * 86_400), "3 days")
        XCTAssertEqual(Formats.age(seconds: -5), "0 s", "a clock that went back never shows a negative age")
    }
}
