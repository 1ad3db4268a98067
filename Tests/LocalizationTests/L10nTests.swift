// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

@testable import Localization
import XCTest

final class L10nTests: XCTestCase {
    func testPlaceholdersAreFilledInOrder() {
        XCTAssertEqual(L10n.fill("{} of {}", [1, 2]), "1 of 2")
        XCTAssertEqual(L10n.plural("Found {} device", "Found {} devices", 3), "Found 3 devices")
        XCTAssertEqual(L10n.plural("Found {} device", "Found {} devices", 1), "Found 1 device")
    }
}
