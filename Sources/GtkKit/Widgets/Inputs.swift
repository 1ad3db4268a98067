// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

internal import CGtkShim

/// An icon-only GtkToggleButton (a search toggle, say).
@MainActor
public final class ToggleButton: Widget {
    /// `accessibleName` is what screen readers say and the tooltip shows.
    public init(icon: String, accessibleName: String) {
        super.init(gtk_toggle_button_new())
        gtk_button_set_icon_name(gcast(object), icon)
        accessibleLabel(accessibleName)
        tooltip(accessibleName)
    }

    /// Whether the button is pressed in.
    public var isActive: Bool {
        get { gtk_toggle_button_get_active(gcast(object)) != 0 }
        set { gtk_toggle_button_set_active(gcast(object), newValue ? 1 : 0) }
    }
}

/// A GtkSearchBar holding a GtkSearchEntry; Escape in the entry closes it.
@MainActor
public final class SearchBar: Widget {
    /// The entry, for focus and tests.
    public let entry: Widget

    /// A hidden search bar whose entry is named `accessibleName` and shows `placeholder`.
    public init(accessibleName: String, placeholder: String) {
        entry = Widget(gtk_search_entry_new())
        super.init(gtk_search_bar_new())
        entry.accessibleLabel(accessibleName)
        entry.setProperty("placeholder-text", string: placeholder)
        gtk_widget_set_hexpand(entry.widget, 1)
        let clamp = adw_clamp_new()!
        adw_clamp_set_maximum_size(gcast(UnsafeMutableRawPointer(clamp)), 500)
        adw_clamp_set_child(gcast(UnsafeMutableRawPointer(clamp)), entry.widget)
        gtk_search_bar_set_child(gcast(object), clamp)
        gtk_search_bar_connect_entry(gcast(object), gcast(entry.object))
    }

    /// Whether the bar is open.
    public var isSearching: Bool {
        get { gtk_search_bar_get_search_mode(gcast(object)) != 0 }
        set { gtk_search_bar_set_search_mode(gcast(object), newValue ? 1 : 0) }
    }

    /// The search text.
    public var text: String {
        get { String(cString: gtk_editable_get_text(gcast(entry.object))) }
        set { gtk_editable_set_text(gcast(entry.object), newValue) }
    }

    /// Keeps `toggle` pressed exactly while the bar is open, both ways.
    public func bind(toggle: ToggleButton) {
        g_object_bind_property(object, "search-mode-enabled", toggle.object, "active",
                               GBindingFlags(rawValue: G_BINDING_BIDIRECTIONAL.rawValue | G_BINDING_SYNC_CREATE.rawValue))
    }

    /// Typing anywhere in `widget` opens the bar and types into it; nil stops that.
    public func captureKeys(from widget: Widget?) {
        let current = gtk_search_bar_get_key_capture_widget(gcast(object))
        guard current != widget?.widget else { return }
        gtk_search_bar_set_key_capture_widget(gcast(object), widget?.widget)
    }

    /// Runs `handler` with the text after each (debounced) change.
    public func onSearchChanged(_ handler: @escaping (String) -> Void) {
        Signals.connect(UnsafeMutableRawPointer(entry.object), "search-changed") { [weak self] _ in
            guard let self else { return }
            handler(self.text)
        }
    }

    /// Runs `handler` when the bar opens or closes.
    public func onModeChanged(_ handler: @escaping (Bool) -> Void) {
        connect("notify::search-mode-enabled") { [weak self] _ in
            guard let self else { return }
            handler(self.isSearching)
        }
    }
}

/// A numeric GtkSpinButton.
@MainActor
public final class SpinButton: Widget {
    /// Whole numbers from `min` to `max`, stepping by `step`.
    public init(min: Double, max: Double, step: Double, accessibleName: String) {
        super.init(gtk_spin_button_new_with_range(min, max, step))
        gtk_spin_button_set_numeric(gcast(object), 1)
        align(.fill, .center)
        accessibleLabel(accessibleName)
    }

    /// The current value.
    public var value: Int {
        get { Int(gtk_spin_button_get_value_as_int(gcast(object))) }
        set { gtk_spin_button_set_value(gcast(object), Double(newValue)) }
    }

    /// Writes its value with `format` (the locale's grouping, "10.000", and a true minus sign)
    /// and reads typed text back with `parse`. GTK's numeric mode would refuse the separators
    /// and the sign as typed text, so it is turned off here and `parse` does the checking.
    public func writesNumbers(_ format: @escaping (Int) -> String, reading parse: @escaping (String) -> Int?, widest: Int) {
        gtk_spin_button_set_numeric(gcast(object), 0)
        // Room for the widest figure with its separators, which GTK does not count.
        gtk_editable_set_width_chars(gcast(object), Int32(format(widest).count))
        connect("output") { [weak self] args in
            guard let self else { return }
            let text = format(self.value)
            if String(cString: gtk_editable_get_text(gcast(self.object))) != text { gtk_editable_set_text(gcast(self.object), text) }
            args.setReturn(true)
        }
        connect("input") { [weak self] args in
            guard let self, let out = args.pointer(1) else { return }
            let text = String(cString: gtk_editable_get_text(gcast(self.object)))
            // Text that is no number keeps the value it had (GTK would otherwise take 0).
            out.assumingMemoryBound(to: Double.self).pointee = Double(parse(text) ?? self.value)
            args.setReturnInt(1)
        }
        gtk_spin_button_update(gcast(object))
    }

    /// Runs `handler` with the new value after each change.
    public func onChanged(_ handler: @escaping (Int) -> Void) {
        connect("value-changed") { [weak self] _ in
            guard let self else { return }
            handler(self.value)
        }
    }
}

/// A GtkSwitch.
@MainActor
public final class Switch: Widget {
    /// A switch named `accessibleName` for screen readers.
    public init(accessibleName: String) {
        super.init(gtk_switch_new())
        align(.fill, .center)
        accessibleLabel(accessibleName)
    }

    /// Whether the switch is on.
    public var isOn: Bool {
        get { gtk_switch_get_active(gcast(object)) != 0 }
        set { gtk_switch_set_active(gcast(object), newValue ? 1 : 0) }
    }

    /// Runs `handler` with the new position after each change.
    public func onToggled(_ handler: @escaping (Bool) -> Void) {
        connect("notify::active") { [weak self] _ in
            guard let self else { return }
            handler(self.isOn)
        }
    }
}
