// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import CAdwaita
@testable import GtkKit
import XCTest

/// Initializes GTK once on a real display (the test command runs under Xvfb).
class GtkTestCase: XCTestCase {
    nonisolated(unsafe) static var initialized = false

    override func setUp() {
        super.setUp()
        if !Self.initialized {
            XCTAssertNotNil(ProcessInfo.processInfo.environment["DISPLAY"], "GTK tests need a display: run them under Xvfb")
            adw_init()
            MainActor.assumeIsolated { MainLoop.install() }
            Self.initialized = true
        }
    }
}
