// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation
import Localization
import XCTest

/// The one moment rule, in the words the app ships (issue 36, item 4).
final class MomentTests: XCTestCase {
    func testASightingASecondOldIsJustNowInEnglishAndGerman() throws {
        MainActor.assumeIsolated { WindowHarness.setUp() }
        let now = Date()
        XCTAssertEqual(Formats.moment(now.addingTimeInterval(-1), now: now), "Just now")
        XCTAssertEqual(Formats.moment(now.addingTimeInterval(-59), now: now), "Just now")
        XCTAssertEqual(Formats.moment(now.addingTimeInterval(-61), now: now), "1 min ago", "then the rule as before")
        // German for this test alone: the messages' locale, as LANG=de_DE.UTF-8 would set it.
        let previous = String(cString: setlocale(LC_MESSAGES, nil))
        defer { setlocale(LC_MESSAGES, previous) }
        try XCTSkipIf(setlocale(LC_MESSAGES, "de_DE.UTF-8") == nil, "no de_DE.UTF-8 locale (meson-helpers/bootstrap makes it)")
        XCTAssertEqual(Formats.moment(now.addingTimeInterval(-1), now: now), "Gerade eben")
    }
}
