// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import CGtkShim
@testable import GtkKit
import XCTest

private final class Witness {}

final class SignalTests: GtkTestCase {
    func testClosureBoxIsReleasedWhenTheWidgetIsDestroyed() {
        MainActor.assumeIsolated {
            weak var witness: Witness?
            let before = Signals.liveHandlers
            var clicks = 0
            do {
                let captured = Witness()
                witness = captured
                let window = gtk_window_new()!
                let button = Button(label: "Press")
                gtk_window_set_child(gcast(window), button.widget)
                button.onClicked { _ = captured; clicks += 1 }
                XCTAssertEqual(Signals.liveHandlers, before + 1)
                Signals.emit(UnsafeMutableRawPointer(button.widget), "clicked")
                XCTAssertEqual(clicks, 1, "the handler runs on emission")
                gtk_window_destroy(gcast(window))
            }
            // The Swift wrapper held the last reference; dropping it finalizes the widget.
            XCTAssertEqual(Signals.liveHandlers, before, "the box is released in the finalize notify")
            XCTAssertNil(witness, "whatever the closure captured is freed with it")
        }
    }

    func testFloatingWidgetIsSunkAndOwnedByItsWrapper() {
        MainActor.assumeIsolated {
            let raw = gtk_label_new("x")!
            XCTAssertNotEqual(g_object_is_floating(UnsafeMutableRawPointer(raw)), 0)
            var wrapper: Widget? = Widget(raw)
            XCTAssertEqual(g_object_is_floating(UnsafeMutableRawPointer(raw)), 0, "the wrapper sank the floating reference")
            g_object_ref(UnsafeMutableRawPointer(raw))
            wrapper = nil
            _ = wrapper
            XCTAssertEqual(raw.pointee.parent_instance.ref_count, 1, "the wrapper dropped exactly its own reference")
            g_object_unref(UnsafeMutableRawPointer(raw))
        }
    }

    func testDisconnectingReleasesTheBox() {
        MainActor.assumeIsolated {
            let before = Signals.liveHandlers
            let button = Button(label: "Press")
            let id = button.connect("clicked") { _ in }
            XCTAssertEqual(Signals.liveHandlers, before + 1)
            Signals.disconnect(UnsafeMutableRawPointer(button.widget), id)
            XCTAssertEqual(Signals.liveHandlers, before)
        }
    }
}

final class WindowOwnershipTests: GtkTestCase {
    func testAWindowWrapperTakesItsOwnReference() {
        MainActor.assumeIsolated {
            let raw = gtk_window_new()!
            let before = raw.pointee.parent_instance.ref_count
            var wrapper: Widget? = Widget(raw)
            XCTAssertEqual(raw.pointee.parent_instance.ref_count, before + 1, "windows are not floating: we add a reference")
            wrapper = nil
            _ = wrapper
            XCTAssertEqual(raw.pointee.parent_instance.ref_count, before, "and drop only that one")
            gtk_window_destroy(gcast(raw))
        }
    }
}
