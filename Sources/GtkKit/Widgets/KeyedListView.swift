// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

internal import CGtkShim

/// A virtualized GtkListView over string keys; Swift looks up what each key shows.
///
/// Only the rows on screen exist, so thousands of devices cost what a screenful
/// costs. The GTK model holds one item per position, not per key: when the order
/// changes, the rows on screen are rebound in place, and the model only grows or
/// shrinks at its end. Re-sorting a long list therefore never creates widgets.
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
    private var rows: [UnsafeMutableRawPointer: Row] = [:]
    /// The key each row widget shows, for keyboard and context-menu actions.
    private var keyOfRowWidget: [UnsafeMutableRawPointer: String] = [:]
    /// The list items bound right now (the rows on screen, give or take), with the key each shows.
    private var bound: [UnsafeMutableRawPointer: String] = [:]

    // MARK: Borrowed
    private let bind: (Row, String) -> Void

    /// Creates the list; `makeRow` builds a row and its widget once per visible slot,
    /// `bind` fills a row for a key, and `activate` runs on click or Enter.
    public init(accessibleName: String, makeRow: @escaping () -> (Row, Widget),
                bind: @escaping (Row, String) -> Void, activate: @escaping (String) -> Void) {
        self.bind = bind
        model = gtk_string_list_new(nil)
        let factory = gtk_signal_list_item_factory_new()!
        let selection = gtk_no_selection_new(gcast(UnsafeMutableRawPointer(g_object_ref(UnsafeMutableRawPointer(model)))))!
        let view = gtk_list_view_new(gcast(UnsafeMutableRawPointer(selection)), factory)!
        list = Widget(view)
        gtk_list_view_set_single_click_activate(gcast(list.object), 1)
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

    /// Number of rows.
    public var count: Int { keys.count }

    /// The keys in display order.
    public var currentKeys: [String] { keys }

    /// Shows `newKeys` in order. Rows on screen whose key or content changed (`changed`)
    /// are rebound in place; the model itself changes only when the count does.
    public func update(_ newKeys: [String], changed: Set<String> = []) {
        update(newKeys, isChanged: { changed.contains($0) })
    }

    /// As above, asking `isChanged` only about the keys on screen: cheaper than a set of
    /// every changed key when thousands of rows change and a dozen are shown.
    public func update(_ newKeys: [String], isChanged: (String) -> Bool) {
        let oldCount = keys.count
        keys = newKeys
        for (item, shownKey) in bound {
            let position = Int(gtk_list_item_get_position(gcast(item)))
            guard position < newKeys.count else { continue }
            let key = newKeys[position]
            if key != shownKey || isChanged(key) { show(item: item, key: key) }
        }
        if newKeys.count > oldCount {
            let slots = [String](repeating: "", count: newKeys.count - oldCount)
            withCStringArray(slots) { gtk_string_list_splice(model, UInt32(oldCount), 0, $0) }
        } else if newKeys.count < oldCount {
            gtk_string_list_splice(model, UInt32(newKeys.count), UInt32(oldCount - newKeys.count), nil)
        }
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
        gtk_widget_activate_action_variant(list.widget, "list.scroll-to-item", g_variant_new_uint32(UInt32(position)))
        // The row is bound at the next layout.
        Task { @MainActor [weak self] in
            if let row = self?.row(showing: key) { then(row) }
        }
    }

    /// Scrolls to the last row (a chat's newest message), now and once the layout has caught up.
    public func scrollToEnd() {
        guard !keys.isEmpty else { return }
        gtk_widget_activate_action_variant(list.widget, "list.scroll-to-item", g_variant_new_uint32(UInt32(keys.count - 1)))
        let scroller = root.widget
        let settle: () -> Void = {
            guard let adjustment = gtk_scrolled_window_get_vadjustment(gcast(UnsafeMutableRawPointer(scroller))) else { return }
            gtk_adjustment_set_value(adjustment, gtk_adjustment_get_upper(adjustment) - gtk_adjustment_get_page_size(adjustment))
        }
        settle()
        // Rows of differing heights are measured as they are bound: settle again after layout.
        Task { @MainActor in
            settle()
            try? await Task.sleep(nanoseconds: 50_000_000)
            settle()
        }
    }

    /// Scrolls by `delta` pixels (negative: towards the start), as a wheel or touchpad would.
    public func scroll(by delta: Double) {
        guard let adjustment = gtk_scrolled_window_get_vadjustment(gcast(UnsafeMutableRawPointer(root.widget))) else { return }
        gtk_adjustment_set_value(adjustment, gtk_adjustment_get_value(adjustment) + delta)
    }

    /// Whether the view shows the last rows (within `slack` pixels), so new ones should scroll in.
    public func isAtEnd(slack: Double = 48) -> Bool {
        guard let adjustment = gtk_scrolled_window_get_vadjustment(gcast(UnsafeMutableRawPointer(root.widget))) else { return true }
        return gtk_adjustment_get_value(adjustment) + gtk_adjustment_get_page_size(adjustment)
            >= gtk_adjustment_get_upper(adjustment) - slack
    }

    /// Binds the row of list item `item` to `key`.
    private func show(item: UnsafeMutableRawPointer, key: String) {
        guard let row = rows[item] else { return }
        if let child = gtk_list_item_get_child(gcast(item)) { keyOfRowWidget[UnsafeMutableRawPointer(child)] = key }
        bound[item] = key
        bind(row, key)
    }
}
