// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import CAdwaita
@testable import GtkKit
import XCTest

/// A virtualized list in a real window: rows stay with their key when the order changes.
final class KeyedListViewTests: GtkTestCase {
    @MainActor
    final class Row {
        let label = Label()
        var key: String?
        var binds = 0
    }

    @MainActor
    private func makeList(_ keys: [String], before: Widget? = nil,
                          made: @escaping () -> Void) -> (KeyedListView<Row>, OpaquePointer) {
        let list = KeyedListView<Row>(
            accessibleName: "Devices",
            makeRow: {
                made()
                let row = Row()
                row.label.isFocusable = true
                return (row, row.label)
            },
            bind: { row, key in
                row.key = key
                row.binds += 1
                row.label.text = key
            },
            activate: { _ in })
        let window = gtk_window_new()!
        gtk_window_set_default_size(gcast(window), 300, 400)
        if let before {
            let box = Box(vertical: true, spacing: 0)
            box.append(before, list.root)
            gtk_window_set_child(gcast(window), box.widget)
        } else {
            gtk_window_set_child(gcast(window), list.root.widget)
        }
        gtk_window_present(gcast(window))
        list.update(keys)
        XCTAssertTrue(MainLoop.iterate(until: { list.row(showing: keys[0]) != nil }, timeout: 5), "the first row is shown")
        MainLoop.iterate(until: { false }, timeout: 0.1)
        return (list, OpaquePointer(window))
    }

    func testARowMovesWithItsKeyWhenTheOrderChangesAndTheViewStaysAtTheTop() {
        MainActor.assumeIsolated {
            let keys = (0..<200).map { String(format: "device-%03d", $0) }
            var made = 0
            let (list, window) = makeList(keys, made: { made += 1 })
            defer { gtk_window_destroy(gcast(UnsafeMutableRawPointer(window))) }
            let shown = keys.prefix(6).map { list.row(showing: $0) }
            XCTAssertTrue(shown.allSatisfy { $0 != nil }, "the first rows are on screen")
            let madeBefore = made

            // Neighbours swap places, as a busy room re-sorts by signal.
            var resorted = keys
            for i in stride(from: 0, to: 6, by: 2) { resorted.swapAt(i, i + 1) }
            list.update(resorted)
            MainLoop.iterate(until: { false }, timeout: 0.2)

            for (key, row) in zip(keys.prefix(6), shown) {
                XCTAssertTrue(list.row(showing: key) === row, "\(key) keeps its row")
                XCTAssertEqual(row?.key, key, "\(key)'s row still shows it")
            }
            XCTAssertEqual(made, madeBefore, "moving rows makes none")
            XCTAssertEqual(list.currentKeys, resorted)
            let adjustment = gtk_scrolled_window_get_vadjustment(gcast(UnsafeMutableRawPointer(list.root.widget)))
            XCTAssertEqual(gtk_adjustment_get_value(adjustment), 0, "the view stayed at the top, not with the row that moved down")
        }
    }

    func testRemovedKeysLeaveAndAKeyListedAgainIsShown() {
        MainActor.assumeIsolated {
            let keys = (0..<10).map { "k\($0)" }
            let (list, window) = makeList(keys, made: {})
            defer { gtk_window_destroy(gcast(UnsafeMutableRawPointer(window))) }
            list.update(["k9", "k0", "k5"])
            MainLoop.iterate(until: { false }, timeout: 0.2)
            XCTAssertEqual(list.count, 3)
            XCTAssertNil(list.row(showing: "k1"), "a removed key has no row")
            XCTAssertEqual(list.row(showing: "k9")?.label.text, "k9")
            list.update(["k1", "k9"])
            MainLoop.iterate(until: { false }, timeout: 0.2)
            XCTAssertEqual(list.row(showing: "k1")?.label.text, "k1", "a key listed again is shown again")
            XCTAssertNil(list.row(showing: "k0"))
            list.update([])
            MainLoop.iterate(until: { false }, timeout: 0.2)
            XCTAssertEqual(list.count, 0)
            XCTAssertNil(list.row(showing: "k9"))
        }
    }

    func testAChangedKeyIsRefreshedInPlace() {
        MainActor.assumeIsolated {
            let keys = ["a", "b", "c"]
            let (list, window) = makeList(keys, made: {})
            defer { gtk_window_destroy(gcast(UnsafeMutableRawPointer(window))) }
            let row = list.row(showing: "b")
            let binds = row?.binds ?? 0
            list.update(keys, changed: ["b"])
            XCTAssertEqual(row?.binds, binds + 1, "the changed row is bound again")
            XCTAssertTrue(list.row(showing: "b") === row)
        }
    }

    func testTabIntoTheListAfterAReSortLandsOnTheTopRow() {
        MainActor.assumeIsolated {
            let keys = (0..<20).map { "row-\($0)" }
            let search = Button(label: "Search")
            let (list, window) = makeList(keys, before: search, made: {})
            defer { gtk_window_destroy(gcast(UnsafeMutableRawPointer(window))) }
            // The first key sinks to the middle, as the device heard first fades.
            list.update(Array(keys.dropFirst()) + ["row-0"])
            list.update(Array(keys[1..<10]) + ["row-0"] + Array(keys[10...]))
            MainLoop.iterate(until: { false }, timeout: 0.2)
            search.grabFocus()
            gtk_widget_child_focus(gcast(UnsafeMutableRawPointer(window)), GTK_DIR_TAB_FORWARD)
            MainLoop.iterate(until: { false }, timeout: 0.1)
            XCTAssertEqual(list.focusedKey, "row-1", "Tab enters the list at its top row, not where the first key went")
        }
    }

    /// A chat's list: rows arriving faster than they are laid out, rows taller than estimated
    /// and a note shown under the list never leave the newest row out of view, until the reader
    /// scrolls up; scrolling back down follows again.
    func testAFollowingListKeepsItsLastRowInViewUntilTheReaderScrollsAway() {
        MainActor.assumeIsolated {
            // Every seventh row is four lines tall: GTK estimates heights from the rows it measured.
            func key(_ i: Int) -> String { i % 7 == 3 ? "m\(i)\nsecond\nthird\nfourth" : "m\(i)" }
            var keys = (0..<40).map(key)
            let note = Label("A note\nthat takes\nthree lines")
            note.isVisible = false
            let (list, window) = makeList(keys, before: note, made: {})
            defer { gtk_window_destroy(gcast(UnsafeMutableRawPointer(window))) }
            list.followEnd()
            list.scrollToEnd()
            let adjustment = gtk_scrolled_window_get_vadjustment(gcast(UnsafeMutableRawPointer(list.root.widget)))!
            XCTAssertTrue(MainLoop.iterate(until: { list.row(showing: keys.last!) != nil && list.isAtEnd(slack: 1) }, timeout: 5),
                          "the newest row is shown at first")

            // Bursts of rows, several per layout, with no scrolling asked for.
            for burst in 0..<12 {
                keys += (0..<5).map { key(40 + burst * 5 + $0) }
                list.update(keys)
                MainLoop.iterate(until: { false }, timeout: 0.02)
            }
            note.isVisible = true
            XCTAssertTrue(MainLoop.iterate(until: { list.row(showing: keys.last!) != nil && list.isAtEnd(slack: 1) }, timeout: 5),
                          "the newest row is in view after the bursts and the note")
            XCTAssertTrue(list.isFollowingEnd)

            // The reader scrolls to the top: new rows no longer move the view.
            gtk_adjustment_set_value(adjustment, 0)
            MainLoop.iterate(until: { false }, timeout: 0.1)
            XCTAssertFalse(list.isFollowingEnd, "scrolling away stops following")
            keys += (100..<110).map(key)
            list.update(keys)
            MainLoop.iterate(until: { false }, timeout: 0.3)
            XCTAssertNotNil(list.row(showing: keys[0]), "the reader's place is kept: the first rows are still shown")
            XCTAssertFalse(list.isAtEnd(), "the view did not jump to the new rows")

            // Back at the end, it follows again.
            gtk_adjustment_set_value(adjustment, gtk_adjustment_get_upper(adjustment) - gtk_adjustment_get_page_size(adjustment))
            MainLoop.iterate(until: { false }, timeout: 0.1)
            XCTAssertTrue(list.isFollowingEnd, "scrolling back to the end follows again")
            keys += (110..<120).map(key)
            list.update(keys)
            XCTAssertTrue(MainLoop.iterate(until: { list.row(showing: keys.last!) != nil && list.isAtEnd(slack: 1) }, timeout: 5),
                          "new rows scroll in again")
        }
    }
}
