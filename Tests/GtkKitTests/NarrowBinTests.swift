// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import CAdwaita
@testable import GtkKit
import XCTest

final class NarrowBinTests: GtkTestCase {
    func testAWidthTurnsNarrowBelowTheThresholdAndWideOnlyPastTheMargin() {
        let threshold = NarrowThreshold(narrowBelow: 500, margin: 40)
        XCTAssertFalse(threshold.isNarrow(width: 720, wasNarrow: false))
        XCTAssertTrue(threshold.isNarrow(width: 499, wasNarrow: false))
        XCTAssertTrue(threshold.isNarrow(width: 520, wasNarrow: true), "a few pixels wider does not flip it back")
        XCTAssertFalse(threshold.isNarrow(width: 520, wasNarrow: false), "nor does it flip a wide window")
        XCTAssertFalse(threshold.isNarrow(width: 540, wasNarrow: true))
    }

    func testABinInAResizedWindowReportsEachCrossingOnceAndGivesItsChildAllItsRoom() {
        MainActor.assumeIsolated {
            let label = Label("Scanner")
            let bin = NarrowBin(child: label, threshold: NarrowThreshold(narrowBelow: 500, margin: 40))
            var reports: [Bool] = []
            bin.onNarrowChanged { reports.append($0) }
            let window = gtk_window_new()!
            gtk_window_set_child(gcast(window), bin.widget)
            defer { gtk_window_destroy(gcast(window)) }

            @MainActor func resize(_ width: Int32) {
                gtk_window_set_default_size(gcast(window), width, 200)
                gtk_window_present(gcast(window))
                XCTAssertTrue(MainLoop.iterate(until: { bin.width == width }, timeout: 5), "laid out at \(width) px")
                MainLoop.iterate(until: { false }, timeout: 0.1)
            }
            resize(360)
            XCTAssertTrue(bin.isNarrow)
            XCTAssertEqual(label.allocatedWidth, 360, "the child fills the bin")
            resize(520)
            resize(380)
            resize(600)
            resize(620)
            XCTAssertEqual(reports, [true, false], "narrow once, wide once: no flapping between 500 and 540 px")
        }
    }
}
