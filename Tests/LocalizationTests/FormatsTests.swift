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

    func testADecimalHasExactlyItsDigits() {
        let american = Locale(identifier: "en_US"), german = Locale(identifier: "de_DE")
        XCTAssertEqual(Formats.decimal(70.52, digits: 1, locale: american), "70.5")
        XCTAssertEqual(Formats.decimal(77.108, digits: 1, locale: american), "77.1")
        XCTAssertEqual(Formats.decimal(75.002, digits: 1, locale: american), "75.0")
        XCTAssertEqual(Formats.decimal(69.8, digits: 0, locale: american), "70")
        XCTAssertEqual(Formats.decimal(-4.55, digits: 1, locale: german), "\u{2212}4,6")
        XCTAssertEqual(Formats.decimal(21.4, digits: 2, locale: german), "21,40")
    }

    func testUSUnitsAreGlibcsAnswerForLCMeasurementNeverAGuessFromC() {
        XCTAssertFalse(Formats.measuresInUSUnits(environment: ["LANG": "C.UTF-8"]), "C measures in metric")
        XCTAssertFalse(Formats.measuresInUSUnits(environment: [:]))
        XCTAssertTrue(Formats.measuresInUSUnits(environment: ["LANG": "en_US.UTF-8"]))
        XCTAssertFalse(Formats.measuresInUSUnits(environment: ["LANG": "en_US.UTF-8", "LC_MEASUREMENT": "de_DE.UTF-8"]))
        XCTAssertTrue(Formats.measuresInUSUnits(environment: ["LC_ALL": "en_US.UTF-8", "LC_MEASUREMENT": "de_DE.UTF-8"]))
        XCTAssertTrue(Formats.measuresInUSUnits(environment: ["LC_ALL": "", "LANG": "en_US.UTF-8"]), "an empty variable is unset")
        XCTAssertFalse(Formats.measuresInUSUnits(environment: ["LANG": "xx_YY.UTF-8"]), "a locale glibc lacks is C to it")
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

    func testAFigureIsReadBackAsTypedWithOrWithoutTheLocalesGrouping() {
        let german = Locale(identifier: "de_DE"), american = Locale(identifier: "en_US")
        XCTAssertEqual(Formats.number(10_000, locale: german), "10.000")
        XCTAssertEqual(Formats.wholeNumber(in: "10.000", locale: german), 10_000)
        XCTAssertEqual(Formats.wholeNumber(in: "10000", locale: german), 10_000)
        XCTAssertEqual(Formats.wholeNumber(in: "10,000", locale: american), 10_000)
        XCTAssertEqual(Formats.wholeNumber(in: "\u{2212}1.234", locale: german), -1234)
        XCTAssertEqual(Formats.wholeNumber(in: " -85 ", locale: american), -85)
        XCTAssertNil(Formats.wholeNumber(in: "10.000", locale: american), "a point is no grouping in English")
        XCTAssertNil(Formats.wholeNumber(in: "zehn", locale: german))
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
