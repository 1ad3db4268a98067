// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import CAdwaita
@testable import GtkKit
import XCTest

/// A message that appears below the fold of a short window is scrolled into view.
final class ScrollIntoViewTests: GtkTestCase {
    func testAMessageShownBelowTheFoldIsScrolledIntoViewWholeAndKeptThere() {
        MainActor.assumeIsolated {
            let column = Box(vertical: true, spacing: 6)
            let filler = (0..<30).map { Label("Line \($0)") }
            let message = Label()
            for line in filler { column.append(line) }
            column.append(message)
            let scroller = ScrolledWindow(child: column)
            let window = gtk_window_new()!
            defer { gtk_window_destroy(gcast(window)) }
            gtk_window_set_default_size(gcast(window), 300, 200)
            gtk_window_set_child(gcast(window), scroller.widget)
            gtk_window_present(gcast(window))
            let adjustment = gtk_scrolled_window_get_vadjustment(gcast(scroller.widget))!
            XCTAssertTrue(MainLoop.iterate(until: { gtk_adjustment_get_upper(adjustment) > gtk_adjustment_get_page_size(adjustment) },
                                           timeout: 5), "the column is taller than the window")
            XCTAssertEqual(gtk_adjustment_get_value(adjustment), 0)

            message.text = "Key saved.\nA second line that must show too."
            message.scrollIntoView()
            @MainActor func shown() -> Bool {
                var bounds = graphene_rect_t()
                guard gtk_widget_compute_bounds(message.widget, scroller.widget, &bounds) != 0 else { return false }
                return bounds.size.height > 0 && bounds.origin.y >= 0
                    && Double(bounds.origin.y + bounds.size.height) <= gtk_adjustment_get_page_size(adjustment)
            }
            XCTAssertTrue(MainLoop.iterate(until: shown, timeout: 5), "the whole message is in view")
            XCTAssertEqual(gtk_adjustment_get_value(adjustment) + gtk_adjustment_get_page_size(adjustment),
                           gtk_adjustment_get_upper(adjustment), accuracy: 1, "it sits at the bottom, the last thing there")

            // Rows appearing above it a moment later (the page filling in) do not push it out.
            let oneLine = filler[20].allocatedHeight
            filler[20].text = (0..<8).map { "Added line \($0)" }.joined(separator: "\n")
            XCTAssertTrue(MainLoop.iterate(until: { filler[20].allocatedHeight > oneLine && shown() }, timeout: 5),
                          "the message is still in view after lines appeared above it")

            // Scrolled back up, the first line is brought into view the same way.
            filler[0].scrollIntoView()
            XCTAssertTrue(MainLoop.iterate(until: { gtk_adjustment_get_value(adjustment) == 0 }, timeout: 5),
                          "a widget above the view scrolls it up")
            MainLoop.iterate(until: { false }, timeout: 0.3)
            XCTAssertEqual(gtk_adjustment_get_value(adjustment), 0, "the message no longer pulls the view back once it moved")
        }
    }
}
