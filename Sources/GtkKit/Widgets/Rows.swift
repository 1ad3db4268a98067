// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

internal import CGtkShim
import Foundation

/// A list in libadwaita's boxed style that holds any rows (expander rows, say), replaced as a whole.
@MainActor
public final class BoxedList: Widget {
    private var rows: [Widget] = []

    /// An empty list, named `accessibleName` for screen readers.
    public init(accessibleName: String) {
        super.init(gtk_list_box_new())
        gtk_list_box_set_selection_mode(gcast(object), GTK_SELECTION_NONE)
        css("boxed-list")
        accessibleLabel(accessibleName)
    }

    /// Appends `row`.
    public func append(_ row: Widget) {
        gtk_list_box_append(gcast(object), row.widget)
        rows.append(row)
    }

    /// Takes `row` out.
    public func remove(_ row: Widget) {
        guard let index = rows.firstIndex(where: { $0 === row }) else { return }
        gtk_list_box_remove(gcast(object), row.widget)
        rows.remove(at: index)
    }

    /// Takes every row out.
    public func removeAll() {
        for row in rows { gtk_list_box_remove(gcast(object), row.widget) }
        rows = []
    }

    /// The rows, in order.
    public var allRows: [Widget] { rows }
}

/// An AdwExpanderRow: a title and subtitle that open onto rows of their own.
@MainActor
public final class ExpanderRow: Widget {
    private var children: [Widget] = []

    /// The header a click opens; it alone takes the focus and speaks for the row.
    private var header: Widget?
    private var headerActions: ActionGroup?

    /// A closed row titled `title` over `subtitle`, both plain text (a device's words can be in them).
    public init(title: String, subtitle: String = "") {
        super.init(adw_expander_row_new())
        adw_preferences_row_set_use_markup(gcast(object), 0)
        adw_preferences_row_set_title(gcast(object), title)
        adw_expander_row_set_subtitle(gcast(object), subtitle)
        // Assistive technology can only act on what offers an action: the header row gets
        // "activate" (open or close), and says whether the row is open, as GtkExpander does.
        if let row = cgtk_first_descendant(widget, gtk_list_box_row_get_type()) {
            let header = Widget(borrowing: row)
            self.header = header
            let actions = ActionGroup(on: header, prefix: "row")
            actions.add("activate") { [weak self] in self?.isExpanded.toggle() }
            headerActions = actions
            cgtk_accessible_set_expanded(header.accessible, 0)
            connect("notify::expanded") { [weak self] _ in
                guard let self, let header = self.header else { return }
                cgtk_accessible_set_expanded(header.accessible, self.isExpanded ? 1 : 0)
            }
        }
    }

    /// The title.
    public var title: String {
        get { String(cString: adw_preferences_row_get_title(gcast(object))) }
        set { adw_preferences_row_set_title(gcast(object), newValue) }
    }

    /// The subtitle.
    public var subtitle: String {
        get { adw_expander_row_get_subtitle(gcast(object)).map { String(cString: $0) } ?? "" }
        set { adw_expander_row_set_subtitle(gcast(object), newValue) }
    }

    /// Whether the rows inside show.
    public var isExpanded: Bool {
        get { adw_expander_row_get_expanded(gcast(object)) != 0 }
        set { adw_expander_row_set_expanded(gcast(object), newValue ? 1 : 0) }
    }

    /// Adds `row` inside, under the others.
    public func addRow(_ row: Widget) {
        adw_expander_row_add_row(gcast(object), row.widget)
        children.append(row)
    }

    /// Runs `handler` with the new state after the row opens or closes.
    public func onExpanded(_ handler: @escaping (Bool) -> Void) {
        connect("notify::expanded") { [weak self] _ in
            guard let self else { return }
            handler(self.isExpanded)
        }
    }
}

/// A list-box row holding any widget (a characteristic's value and controls), neither
/// activatable nor focusable, so Tab goes to the controls inside it.
@MainActor
public final class ContentRow: Widget {
    public let child: Widget

    /// A row around `child`, named `accessibleName`.
    public init(_ child: Widget, accessibleName: String) {
        self.child = child
        super.init(gtk_list_box_row_new())
        gtk_list_box_row_set_child(gcast(object), child.widget)
        gtk_list_box_row_set_activatable(gcast(object), 0)
        // Not a Tab stop itself: Tab goes straight to the controls inside.
        gtk_widget_set_focusable(widget, 0)
        accessibleLabel(accessibleName)
    }
}

/// A GtkDropDown over fixed choices.
@MainActor
public final class DropDown: Widget {
    /// The choices.
    public let choices: [String]

    /// A drop-down of `choices`, the first chosen, named `accessibleName`.
    public init(_ choices: [String], accessibleName: String) {
        self.choices = choices
        let copies = choices.map { strdup($0) }
        defer { for copy in copies { free(copy) } }
        var array: [UnsafePointer<CChar>?] = copies.map { UnsafePointer($0) } + [nil]
        let made = array.withUnsafeMutableBufferPointer { gtk_drop_down_new_from_strings($0.baseAddress) }
        super.init(made!)
        accessibleLabel(accessibleName)
        // The button inside is what takes the focus, and GTK 4.8 names it by its type
        // ("GtkToggleButton"): it gets the drop-down's name, with the choice made as its description.
        if let button = cgtk_first_descendant(widget, gtk_toggle_button_get_type()) {
            let inner = Widget(borrowing: button)
            toggle = inner
            inner.accessibleLabel(accessibleName)
            inner.accessibleDescription(choices.first ?? "")
            connect("notify::selected") { [weak self] _ in
                guard let self else { return }
                self.toggle?.accessibleDescription(self.choices.indices.contains(self.selected) ? self.choices[self.selected] : "")
            }
        }
    }

    /// The button inside, which the keyboard and screen readers meet.
    private var toggle: Widget?

    /// The index of the choice made.
    public var selected: Int {
        get { Int(gtk_drop_down_get_selected(gcast(object))) }
        set { gtk_drop_down_set_selected(gcast(object), UInt32(max(0, min(newValue, choices.count - 1)))) }
    }

    /// Runs `handler` with the index after each choice.
    public func onSelected(_ handler: @escaping (Int) -> Void) {
        connect("notify::selected") { [weak self] _ in
            guard let self else { return }
            handler(self.selected)
        }
    }
}

/// An AdwEntryRow: a title over text the user edits in place, in a boxed list. Its text is the
/// user's, never markup.
@MainActor
public final class EntryRow: Widget {
    /// A row titled `title` holding `text`.
    public init(title: String, text: String = "") {
        super.init(adw_entry_row_new())
        adw_preferences_row_set_use_markup(gcast(object), 0)
        adw_preferences_row_set_title(gcast(object), title)
        gtk_editable_set_text(gcast(object), text)
    }

    /// The text in the row.
    public var text: String {
        get { String(cString: gtk_editable_get_text(gcast(object))) }
        set {
            guard newValue != text else { return }
            gtk_editable_set_text(gcast(object), newValue)
        }
    }

    /// Runs `handler` with the text after each edit.
    public func onChanged(_ handler: @escaping (String) -> Void) {
        connect("changed") { [weak self] _ in
            guard let self else { return }
            handler(self.text)
        }
    }

    /// Marks the row as holding what does not read (libadwaita's error style), or not.
    /// Runs `handler` when Enter is pressed in the entry.
    public func onSubmitted(_ handler: @escaping () -> Void) {
        // AdwEntryRow says "entry-activated" only with activates-default off, its default.
        connect("entry-activated") { _ in handler() }
    }

    public func setInvalid(_ invalid: Bool) { markInvalid(invalid) }

    /// Adds `widget` at the row's end (a unit, a Copy button).
    public func addSuffix(_ widget: Widget) {
        adw_entry_row_add_suffix(gcast(object), widget.widget)
        suffixes.append(widget)
    }

    private var suffixes: [Widget] = []
}

extension ActionRow {
    /// Makes a click or Enter on the row (not on its control) run `handler`: a row that opens a page.
    public func onActivated(_ handler: @escaping () -> Void) {
        gtk_list_box_row_set_activatable(gcast(object), 1)
        connect("activated") { _ in handler() }
    }
}

extension DropDown {
    /// Lets the user type to find a choice among many (a company's name among thousands).
    public func searchable() {
        let expression = gtk_property_expression_new(gtk_string_object_get_type(), nil, "string")
        gtk_drop_down_set_expression(gcast(object), expression)
        gtk_expression_unref(expression)
        gtk_drop_down_set_enable_search(gcast(object), 1)
    }
}
