// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import XCTest

final class BluetoothTestsPlaceholder: XCTestCase {
    func testModuleLinks() {}
}
