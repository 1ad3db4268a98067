// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import GtkKit
import TestSupport
import Views
import XCTest

final class ScannerPageTests: XCTestCase {
    func testADeniedAdapterSaysSoAndHowToGrantRawHCIAccess() {
        MainActor.assumeIsolated {
            let scanner = FakeScanner()
            WindowHarness.run(splashMs: 0, scanner: scanner) { window in
                window.showScanner()
                let page = try XCTUnwrap(window.visiblePage as? ScannerPage)
                scanner.set(.failed(.permissionDenied("hci0: Operation not permitted")))
                let shown = await WindowHarness.wait(5) { page.visibleContent == "problem" }
                XCTAssertTrue(shown, "the problem page replaces the empty list")
                XCTAssertTrue(page.problemText.contains("Access to the Bluetooth adapter was denied"), page.problemText)
                XCTAssertTrue(page.problemText.contains("setcap cap_net_raw,cap_net_admin+eip"), "how to grant access: \(page.problemText)")
            }
        }
    }
}
