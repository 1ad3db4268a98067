// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import CGtkShim

/// A virtualized GtkListView over string keys; Swift looks up what each key shows.
///
/// Only the rows on screen exist, so hundreds of devices cost what a screenful
/// costs. Each key is a GtkStringObject in a GtkStringList; the model changes only
/// when rows come, go or move, and changed content is rebound in place.
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
    /// The row showing each key right now, so content changes rebind in place.
    private var rowOfKey: [String: Row] = [:]

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
            guard let self, let item = args.object(1), let row = self.rows[item],
                  let object = gtk_list_item_get_item(gcast(item)) else { return }
            let key = String(cString: gtk_string_object_get_string(gcast(UnsafeMutableRawPointer(object))))
            if let child = gtk_list_item_get_child(gcast(item)) { self.keyOfRowWidget[UnsafeMutableRawPointer(child)] = key }
            self.rowOfKey[key] = row
            self.bind(row, key)
        }
        Signals.connect(UnsafeMutableRawPointer(factory), "unbind") { [weak self] args in
            guard let self, let item = args.object(1), let row = self.rows[item] else { return }
            self.rowOfKey = self.rowOfKey.filter { $0.value !== row }
        }
        Signals.connect(UnsafeMutableRawPointer(factory), "teardown") { [weak self] args in
            guard let item = args.object(1) else { return }
            if let child = gtk_list_item_get_child(gcast(item)) { self?.keyOfRowWidget[UnsafeMutableRawPointer(child)] = nil }
            self?.rows[item] = nil
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

    /// Shows `newKeys` in order, touching only the rows that changed position or content.
    /// `changed` names keys whose content changed and must be rebound.
    public func update(_ newKeys: [String], changed: Set<String> = []) {
        if newKeys == keys {
            for (index, key) in keys.enumerated() where changed.contains(key) { replace(at: index, with: key) }
            return
        }
        // Keep the common prefix and suffix; splice the middle in one step.
        var start = 0
        while start < keys.count, start < newKeys.count, keys[start] == newKeys[start] { start += 1 }
        var oldEnd = keys.count
        var newEnd = newKeys.count
        while oldEnd > start, newEnd > start, keys[oldEnd - 1] == newKeys[newEnd - 1] { oldEnd -= 1; newEnd -= 1 }
        let inserted = Array(newKeys[start..<newEnd])
        withCStringArray(inserted) { array in
            gtk_string_list_splice(model, UInt32(start), UInt32(oldEnd - start), array)
        }
        keys = newKeys
        for index in 0..<start where changed.contains(keys[index]) { replace(at: index, with: keys[index]) }
        for index in newEnd..<keys.count where changed.contains(keys[index]) { replace(at: index, with: keys[index]) }
    }

    /// Shows new content for `key` in the row that displays it, without touching the model:
    /// replacing the item would recreate the row widget, several times a second.
    private func replace(at index: Int, with key: String) {
        if let row = rowOfKey[key] { bind(row, key) }
    }
}

/// Calls `body` with a NULL-terminated array of C strings.
func withCStringArray<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
    var pointers: [UnsafePointer<CChar>?] = strings.map { UnsafePointer(strdup($0)) } + [nil]
    defer { pointers.forEach { free(UnsafeMutablePointer(mutating: $0)) } }
    return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
}
