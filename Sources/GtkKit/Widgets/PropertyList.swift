// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

internal import CGtkShim

/// A short, fixed list of labelled properties in libadwaita's boxed style: one row a
/// property, its name as the title and its value as the subtitle.
@MainActor
public final class PropertyList: Widget {
    private var rows: [PropertyRow] = []

    /// An empty list, named `accessibleName` for screen readers.
    public init(accessibleName: String) {
        super.init(gtk_list_box_new())
        gtk_list_box_set_selection_mode(gcast(object), GTK_SELECTION_NONE)
        css("boxed-list", "property-list")
        accessibleLabel(accessibleName)
    }

    /// Appends `row`.
    public func append(_ row: PropertyRow) {
        gtk_list_box_append(gcast(object), row.widget)
        rows.append(row)
        row.list = self
        updateEntry()
    }

    /// Takes every row out (a list whose rows come and go with what they show).
    public func removeAll() {
        for row in rows { gtk_list_box_remove(gcast(object), row.widget) }
        rows = []
        updateEntry()
    }

    /// Rows are no Tab stops of their own, only their buttons are. GTK 4.8's list box tries
    /// one row when Tab enters it (the first going forward, the last going back, the selected
    /// one either way), so where read-only rows sit around a row with a button, that row is the
    /// selected one (drawn as any other): Tab and Shift+Tab then both reach its button.
    func updateEntry() {
        let entry = rows.first { $0.hasControls }
        guard let entry, rows.contains(where: { !$0.hasControls }) else {
            gtk_list_box_set_selection_mode(gcast(object), GTK_SELECTION_NONE)
            return
        }
        gtk_list_box_set_selection_mode(gcast(object), GTK_SELECTION_SINGLE)
        for row in rows { gtk_list_box_row_set_selectable(gcast(row.object), row === entry ? 1 : 0) }
        gtk_list_box_select_row(gcast(object), gcast(entry.object))
    }

    /// Appends a row with a control (a switch).
    public func append(_ row: ActionRow) {
        gtk_list_box_append(gcast(object), row.widget)
        controlRows.append(row)
    }

    private var controlRows: [ActionRow] = []
}

/// One property: a name, a value that can change, and optional buttons at the end.
@MainActor
public final class PropertyRow: Widget {
    private var suffixes: [Widget] = []
    /// The list it is in, told when a button is added.
    weak var list: PropertyList?

    /// Whether it holds a control (a button at its end).
    var hasControls: Bool { !suffixes.isEmpty }

    /// A row named `title`; neither activatable nor focusable, so it is no Tab stop of its own.
    public init(title: String) {
        super.init(adw_action_row_new())
        // The value is often a device's name: plain text, never markup (it covers title and subtitle).
        adw_preferences_row_set_use_markup(gcast(object), 0)
        adw_preferences_row_set_title(gcast(object), title)
        gtk_list_box_row_set_activatable(gcast(object), 0)
        // A row with nothing to do is no Tab stop of its own; a button in it (Copy) still is.
        gtk_widget_set_focusable(widget, 0)
        // The value is what a reader of the list wants first, so it is the subtitle, made prominent.
        gtk_widget_add_css_class(widget, "property")
    }

    /// The property's name.
    public var title: String { String(cString: adw_preferences_row_get_title(gcast(object))) }

    /// The property's value.
    public var value: String {
        get { adw_action_row_get_subtitle(gcast(object)).map { String(cString: $0) } ?? "" }
        set {
            guard newValue != value else { return }
            adw_action_row_set_subtitle(gcast(object), newValue)
        }
    }

    /// Puts `widget` (a Copy button, say) at the row's end.
    public func addSuffix(_ widget: Widget) {
        adw_action_row_add_suffix(gcast(object), widget.widget)
        suffixes.append(widget)
        list?.updateEntry()
    }
}

extension Widget {
    /// Puts `text` on the clipboard of this widget's display.
    public func copyToClipboard(_ text: String) {
        gdk_clipboard_set_text(gtk_widget_get_clipboard(widget), text)
    }
}
