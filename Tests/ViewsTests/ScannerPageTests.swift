// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import GtkKit
import TestSupport
import Views
import XCTest

final class ScannerPageTests: XCTestCase {
    /// Runs `body` on the Scanner of a real window fed by a fake scanner.
    private func onScanner(_ body: @escaping @MainActor (MainWindow, ScannerPage, FakeScanner) async throws -> Void) {
        MainActor.assumeIsolated {
            let scanner = FakeScanner()
            WindowHarness.run(splashMs: 0, scanner: scanner) { window in
                window.showScanner()
                try await body(window, try XCTUnwrap(window.visiblePage as? ScannerPage), scanner)
            }
        }
    }

    func testADeniedAdapterSaysSoAndHowToGrantRawHCIAccess() {
        onScanner { _, page, scanner in
            scanner.set(.failed(.permissionDenied("hci0: Operation not permitted")))
            let shown = await WindowHarness.wait(5) { page.visibleContent == "problem" }
            XCTAssertTrue(shown, "the problem page replaces the empty list")
            XCTAssertTrue(page.problemText.contains("Access to the Bluetooth adapter was denied"), page.problemText)
            XCTAssertTrue(page.problemText.contains("setcap cap_net_raw,cap_net_admin+eip"), "how to grant access: \(page.problemText)")
        }
    }

    func testTheSpinnerTurnsOnlyUntilTheFirstDeviceIsListedAndAQuietListDrawsNoFrames() {
        onScanner { window, page, scanner in
            scanner.set(.scanning)
            let turning = await WindowHarness.wait(5) { page.spinnerTurns }
            XCTAssertTrue(turning, "while nothing is listed, the spinner says the scan is on")
            scanner.feed(Observation(id: TestDevices.id(1, kind: .leRandom), timestamp: Date(), rssi: -60, name: "Kitchen"))
            let listed = await WindowHarness.wait(5) { page.visibleContent == "list" && !page.spinnerTurns }
            XCTAssertTrue(listed, "once a device is listed, the spinner is gone")
            // Nothing heard: the window is not drawn again and again (the spinner drew ~60 frames a
            // second). The frames are counted over a window of time, so this one waits on the clock.
            var frames = 0
            var counting = true
            window.window.onAfterPaint {
                if counting { frames += 1 }
                return counting
            }
            try? await Task.sleep(nanoseconds: 2_000_000_000)
            counting = false
            XCTAssertLessThan(frames, 20, "frames drawn in 2 s of a quiet list")
        }
    }
}
