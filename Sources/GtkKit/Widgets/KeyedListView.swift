// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

internal import CGtkShim

/// A virtualized GtkListView over string keys; Swift looks up what each key shows.
///
/// Only the rows on screen exist, so thousands of devices cost what a screenful
/// costs. The GTK model holds one item per key, the same object for as long as the
/// key is listed: when the order changes, GTK moves the row widgets on screen to
/// their new places instead of rebinding them. A row, its buttons and their
/// accessible objects therefore stay with their device, so an assistive tool that
/// read a button a moment ago still acts on the device it named.
@MainActor
public final class KeyedListView<Row: AnyObject> {
    // MARK: Widgets
    /// The scrolled list, to place in a page.
    public let root: Widget
    /// The list view itself (for focus and accessibility).
    public let list: Widget

    // MARK: Owned
    private let model: OpaquePointer
    private var keys: [String] = []
    /// One GtkStringObject per listed key (a reference of ours), so GTK recognises a moved key.
    private var items: [String: UnsafeMutableRawPointer] = [:]
    private var rows: [UnsafeMutableRawPointer: Row] = [:]
    /// The key each row widget shows, for keyboard and context-menu actions.
    private var keyOfRowWidget: [UnsafeMutableRawPointer: String] = [:]
    /// The list items bound right now (the rows on screen, give or take), with the key each shows.
    private var bound: [UnsafeMutableRawPointer: String] = [:]

    // MARK: Borrowed
    private let bind: (Row, String) -> Void

    /// Creates the list; `makeRow` builds a row and its widget once per visible slot,
    /// `bind` fills a row for a key, and `activate` runs on click or Enter (on Enter and a
    /// double click alone without `singleClick`).
    public init(accessibleName: String, makeRow: @escaping () -> (Row, Widget),
                bind: @escaping (Row, String) -> Void, activate: @escaping (String) -> Void, singleClick: Bool = true) {
        self.bind = bind
        model = g_list_store_new(gtk_string_object_get_type())!
        let factory = gtk_signal_list_item_factory_new()!
        let selection = gtk_no_selection_new(gcast(UnsafeMutableRawPointer(g_object_ref(UnsafeMutableRawPointer(model)))))!
        let view = gtk_list_view_new(gcast(UnsafeMutableRawPointer(selection)), factory)!
        list = Widget(view)
        gtk_list_view_set_single_click_activate(gcast(list.object), singleClick ? 1 : 0)
        list.css("navigation-sidebar", "favblue-list")
        list.accessibleLabel(accessibleName)
        let scroller = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_child(gcast(UnsafeMutableRawPointer(scroller)), view)
        gtk_scrolled_window_set_policy(gcast(UnsafeMutableRawPointer(scroller)), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        root = Widget(scroller)
        root.expand()

        Signals.connect(UnsafeMutableRawPointer(factory), "setup") { [weak self] args in
            guard let self, let item = args.object(1) else { return }
            let (row, widget) = makeRow()
            gtk_list_item_set_child(gcast(item), widget.widget)
            self.rows[item] = row
        }
        Signals.connect(UnsafeMutableRawPointer(factory), "bind") { [weak self] args in
            guard let self, let item = args.object(1) else { return }
            let position = Int(gtk_list_item_get_position(gcast(item)))
            guard position < self.keys.count else { return }
            self.show(item: item, key: self.keys[position])
        }
        Signals.connect(UnsafeMutableRawPointer(factory), "unbind") { [weak self] args in
            guard let self, let item = args.object(1) else { return }
            self.bound[item] = nil
        }
        Signals.connect(UnsafeMutableRawPointer(factory), "teardown") { [weak self] args in
            guard let item = args.object(1) else { return }
            if let child = gtk_list_item_get_child(gcast(item)) { self?.keyOfRowWidget[UnsafeMutableRawPointer(child)] = nil }
            self?.rows[item] = nil
            self?.bound[item] = nil
        }
        Signals.connect(UnsafeMutableRawPointer(view), "activate") { [weak self] args in
            guard let self else { return }
            let position = Int(args.uint(1))
            if position < self.keys.count { activate(self.keys[position]) }
        }
        // gtk_list_view_new took ownership of the factory and the selection model.
    }

    deinit {
        for item in items.values { g_object_unref(item) }
        g_object_unref(UnsafeMutableRawPointer(model))
    }

    /// The key of the row holding keyboard focus, if any.
    public var focusedKey: String? {
        var widget = gtk_root_get_focus(gtk_widget_get_root(list.widget)).map { UnsafeMutableRawPointer($0) }
        while let current = widget {
            if let key = keyOfRowWidget[current] { return key }
            if let child = gtk_widget_get_first_child(current.assumingMemoryBound(to: GtkWidget.self)),
               let key = keyOfRowWidget[UnsafeMutableRawPointer(child)] { return key }
            widget = gtk_widget_get_parent(current.assumingMemoryBound(to: GtkWidget.self)).map { UnsafeMutableRawPointer($0) }
        }
        return nil
    }

    /// The key of the row under the point (x, y) in the list's coordinates.
    public func key(atX x: Double, y: Double) -> String? {
        var widget = gtk_widget_pick(list.widget, x, y, GTK_PICK_DEFAULT).map { UnsafeMutableRawPointer($0) }
        while let current = widget, current != UnsafeMutableRawPointer(list.widget) {
            if let key = keyOfRowWidget[current] { return key }
            widget = gtk_widget_get_parent(current.assumingMemoryBound(to: GtkWidget.self)).map { UnsafeMutableRawPointer($0) }
        }
        return nil
    }

    /// Whether a list scrolled to its very start stays there as rows come in front (a device
    /// list read from the top); off for a list that grows at its start as it is read (older chat
    /// messages), where the rows on screen must stay put.
    public var keepsStartInView = true

    /// Calls `handler` whenever the view comes within `distance` pixels of the first row, as a
    /// list that reads older rows on demand needs.
    public func onNearStart(within distance: Double, _ handler: @escaping () -> Void) {
        guard let adjustment = vadjustment else { return }
        Signals.connect(UnsafeMutableRawPointer(adjustment), "value-changed") { _ in
            if gtk_adjustment_get_value(adjustment) <= distance { handler() }
        }
    }

    // MARK: Following the last row

    /// Whether the view keeps its last row in view (see `followEnd`).
    public private(set) var isFollowingEnd = false
    /// The range and page seen last: a move of the value alone is the reader's scrolling.
    private var seenUpper = 0.0
    private var seenPage = 0.0
    /// A layout change is being followed by a settle at the end.
    private var settlePending = false

    /// Keeps the last row in view (a chat) until the reader scrolls away from the end, and again
    /// once they scroll back to within `slack` pixels of it. Rows measured taller than estimated,
    /// or the view getting shorter (a note shown under it), keep the end in view too: asking
    /// "is the view at the end?" only when rows arrive fails as soon as one layout change moved
    /// the end further than the slack, and the list would never follow again.
    public func followEnd(slack: Double = 48) {
        guard let adjustment = vadjustment else { return }
        isFollowingEnd = true
        seenUpper = gtk_adjustment_get_upper(adjustment)
        seenPage = gtk_adjustment_get_page_size(adjustment)
        Signals.connect(UnsafeMutableRawPointer(adjustment), "changed") { [weak self] _ in
            guard let self else { return }
            self.seenUpper = gtk_adjustment_get_upper(adjustment)
            self.seenPage = gtk_adjustment_get_page_size(adjustment)
            guard self.isFollowingEnd, !self.settlePending else { return }
            // Not inside GTK's own allocation: once it is done.
            self.settlePending = true
            Task { @MainActor [weak self] in
                guard let self else { return }
                self.settlePending = false
                if self.isFollowingEnd { Self.settleAtEnd(adjustment) }
            }
        }
        Signals.connect(UnsafeMutableRawPointer(adjustment), "value-changed") { [weak self] _ in
            guard let self else { return }
            let upper = gtk_adjustment_get_upper(adjustment), page = gtk_adjustment_get_page_size(adjustment)
            if !self.settlePending, upper == self.seenUpper, page == self.seenPage {
                self.isFollowingEnd = self.isAtEnd(slack: slack)
            }
            self.seenUpper = upper
            self.seenPage = page
        }
    }

    /// Number of rows.
    public var count: Int { keys.count }

    /// The keys in display order.
    public var currentKeys: [String] { keys }

    /// Shows `newKeys` (each once) in order. Rows on screen move with their key; those
    /// whose content changed (`changed`) are bound again.
    public func update(_ newKeys: [String], changed: Set<String> = []) {
        update(newKeys, isChanged: { changed.contains($0) })
    }

    /// As above, asking `isChanged` only about the keys on screen: cheaper than a set of
    /// every changed key when thousands of rows change and a dozen are shown.
    public func update(_ newKeys: [String], isChanged: (String) -> Bool) {
        let oldKeys = keys
        // Only the stretch between the first and the last difference is replaced, in one
        // change, so GTK can move the rows inside it that are still listed.
        var start = 0
        while start < oldKeys.count, start < newKeys.count, oldKeys[start] == newKeys[start] { start += 1 }
        var oldEnd = oldKeys.count, newEnd = newKeys.count
        while oldEnd > start, newEnd > start, oldKeys[oldEnd - 1] == newKeys[newEnd - 1] {
            oldEnd -= 1
            newEnd -= 1
        }
        keys = newKeys
        if start < oldEnd || start < newEnd {
            let focusOutside = gtk_widget_get_focus_child(list.widget) == nil
            let added = newKeys[start..<newEnd].map { key -> UnsafeMutableRawPointer? in
                if let item = items[key] { return item }
                let item = UnsafeMutableRawPointer(gtk_string_object_new(key))!
                items[key] = item
                return item
            }
            let atTop = keepsStartInView && (vadjustment.map { gtk_adjustment_get_value($0) <= 0 } ?? true)
            added.withUnsafeBufferPointer { buffer in
                g_list_store_splice(model, UInt32(start), UInt32(oldEnd - start),
                                    UnsafeMutablePointer(mutating: buffer.baseAddress), UInt32(added.count))
            }
            // GTK keeps the row at the top of the view in view wherever it moved; a list read
            // from its start must stay at its start.
            if atTop, !newKeys.isEmpty {
                // Tab into the list goes to the item GTK remembers, and that memory moves with its
                // key: at first the key listed first, wherever it went. GTK takes it from the focus
                // child when it scrolls, so the top row stands in as focus child for that moment.
                let top = focusOutside && start == 0 ? topItemWidget() : nil
                if let top { gtk_widget_set_focus_child(list.widget, top) }
                scroll(to: 0)
                if top != nil { gtk_widget_set_focus_child(list.widget, nil) }
            }
            let listed = Set(newKeys[start..<newEnd])
            for key in oldKeys[start..<oldEnd] where !listed.contains(key) {
                if let item = items.removeValue(forKey: key) { g_object_unref(item) }
            }
        }
        // Rows GTK kept show the same key; those whose content changed are refreshed.
        for (item, shownKey) in bound where isChanged(shownKey) { show(item: item, key: shownKey) }
    }

    /// Asks the list view to bring row `position` into view. GTK 4.8 does not take the floating
    /// argument of a widget class's action (it leaked one for every message a chat scrolled to),
    /// so the reference is ours to drop.
    private func scroll(to position: Int) {
        let argument = g_variant_ref_sink(g_variant_new_uint32(UInt32(position)))
        gtk_widget_activate_action_variant(list.widget, "list.scroll-to-item", argument)
        g_variant_unref(argument)
    }

    /// The scroller's vertical adjustment.
    private var vadjustment: UnsafeMutablePointer<GtkAdjustment>? {
        gtk_scrolled_window_get_vadjustment(gcast(UnsafeMutableRawPointer(root.widget)))
    }

    /// GTK's widget for the item at the top, if it is bound.
    private func topItemWidget() -> UnsafeMutablePointer<GtkWidget>? {
        guard let item = bound.keys.first(where: { gtk_list_item_get_position(gcast($0)) == 0 }),
              let child = gtk_list_item_get_child(gcast(item)) else { return nil }
        return gtk_widget_get_parent(child)
    }

    /// The row on screen showing `key`, if any.
    public func row(showing key: String) -> Row? {
        bound.first { $0.value == key }.flatMap { rows[$0.key] }
    }

    /// Scrolls `key`'s row into view, then runs `then` with it once it is bound
    /// (at once when it is on screen already); nothing runs if the key is gone.
    public func reveal(_ key: String, then: @escaping (Row) -> Void) {
        if let row = row(showing: key) {
            then(row)
            return
        }
        guard let position = keys.firstIndex(of: key) else { return }
        scroll(to: position)
        // The row is bound at the next layout.
        Task { @MainActor [weak self] in
            if let row = self?.row(showing: key) { then(row) }
        }
    }

    /// Scrolls to the first row.
    public func scrollToStart() {
        guard !keys.isEmpty else { return }
        scroll(to: 0)
    }

    /// Scrolls to the last row (a chat's newest message), now and once the layout has caught up.
    public func scrollToEnd() {
        guard !keys.isEmpty else { return }
        scroll(to: keys.count - 1)
        let settle: () -> Void = { [weak self] in
            if let adjustment = self?.vadjustment { Self.settleAtEnd(adjustment) }
        }
        settle()
        // Rows of differing heights are measured as they are bound: settle again after layout.
        Task { @MainActor in
            settle()
            try? await Task.sleep(nanoseconds: 50_000_000)
            settle()
        }
    }

    /// Puts the view at the very end of its range.
    private static func settleAtEnd(_ adjustment: UnsafeMutablePointer<GtkAdjustment>) {
        gtk_adjustment_set_value(adjustment, gtk_adjustment_get_upper(adjustment) - gtk_adjustment_get_page_size(adjustment))
    }

    /// Scrolls by `delta` pixels (negative: towards the start), as a wheel or touchpad would.
    public func scroll(by delta: Double) {
        guard let adjustment = vadjustment else { return }
        gtk_adjustment_set_value(adjustment, gtk_adjustment_get_value(adjustment) + delta)
    }

    /// Whether the view shows the last rows (within `slack` pixels), so new ones should scroll in.
    public func isAtEnd(slack: Double = 48) -> Bool {
        guard let adjustment = vadjustment else { return true }
        return gtk_adjustment_get_value(adjustment) + gtk_adjustment_get_page_size(adjustment)
            >= gtk_adjustment_get_upper(adjustment) - slack
    }

    /// Keeps the keyboard with its device: when the focus comes back into the list (Shift+Tab)
    /// on another device's row than the one it left, because the rows were reordered while it
    /// was away, `focus` is asked to put it on the one it left. GTK returns to the place, not the
    /// device. Not when `unless` says so (a click, which chose its row).
    public func keepFocusWithItsKey(unless: @escaping () -> Bool, focus: @escaping (String) -> Void) {
        var window: UnsafeMutableRawPointer?
        var handler: UInt = 0
        var left: String?, inside = false
        list.connect("map") { [weak self] _ in
            guard let self, let root = gtk_widget_get_root(self.list.widget) else { return }
            window = UnsafeMutableRawPointer(root)
            // Read after each change, once GTK has set the new focus widget.
            handler = Signals.connect(UnsafeMutableRawPointer(root), "notify::focus-widget") { [weak self] _ in
                guard let self else { return }
                let now = self.focusedKey
                let entering = now != nil && !inside
                inside = now != nil
                guard let now else { return }
                if entering, let last = left, last != now, self.keys.contains(last), !unless() {
                    focus(last) // its own change comes back here and records `last`
                    return
                }
                left = now
            }
        }
        list.connect("unmap") { _ in
            if let window, handler != 0 { Signals.disconnect(window, handler) }
            (window, handler) = (nil, 0)
        }
    }

    /// Binds the row of list item `item` to `key`.
    private func show(item: UnsafeMutableRawPointer, key: String) {
        guard let row = rows[item] else { return }
        if let child = gtk_list_item_get_child(gcast(item)) { keyOfRowWidget[UnsafeMutableRawPointer(child)] = key }
        bound[item] = key
        bind(row, key)
    }
}
