// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

internal import CGtkShim

/// An AdwPreferencesPage: one page of a PreferencesDialog, made of groups.
@MainActor
public final class PreferencesPage: Widget {
    private var groups: [PreferencesGroup] = []

    /// A page titled `title` with `icon` (shown when a dialog has several pages); `name` lets
    /// a dialog open on it.
    public init(title: String, icon: String, name: String? = nil) {
        super.init(adw_preferences_page_new())
        adw_preferences_page_set_title(gcast(object), title)
        adw_preferences_page_set_icon_name(gcast(object), icon)
        if let name { adw_preferences_page_set_name(gcast(object), name) }
    }

    /// Appends `group` under the others.
    public func add(_ group: PreferencesGroup) {
        adw_preferences_page_add(gcast(object), gcast(UnsafeMutableRawPointer(group.object)))
        groups.append(group)
    }
}

/// An AdwPreferencesGroup: a titled box of rows.
@MainActor
public final class PreferencesGroup: Widget {
    private var rows: [ActionRow] = []

    /// A group titled `title` holding `rows` in order.
    public init(title: String, rows: [ActionRow] = []) {
        super.init(adw_preferences_group_new())
        // libadwaita reads a group's title and description as markup.
        adw_preferences_group_set_title(gcast(object), Markup.escape(title))
        for row in rows { add(row) }
    }

    /// Appends `row`.
    public func add(_ row: ActionRow) {
        adw_preferences_group_add(gcast(object), row.widget)
        rows.append(row)
    }

    /// Takes `row` out of the group.
    public func remove(_ row: ActionRow) {
        guard let index = rows.firstIndex(where: { $0 === row }) else { return }
        adw_preferences_group_remove(gcast(object), row.widget)
        rows.remove(at: index)
    }

    /// The rows, in order.
    public var allRows: [ActionRow] { rows }

    /// A line under the title saying what the group is for.
    public var details: String {
        get { plainDetails }
        set {
            plainDetails = newValue
            adw_preferences_group_set_description(gcast(object), Markup.escape(newValue))
        }
    }

    private var plainDetails = ""
}

/// An AdwActionRow: a title and a subtitle with a control (a switch, a spin button) at the end.
@MainActor
public final class ActionRow: Widget {
    /// The control at the end, kept as long as the row.
    public let control: Widget

    /// A row with `control` at its end; `activates` lets a click anywhere on the row flip it.
    public init(title: String, subtitle: String, control: Widget, activates: Bool = false) {
        self.control = control
        super.init(adw_action_row_new())
        // A hidden device's row carries its name: plain text, never markup (title and subtitle).
        adw_preferences_row_set_use_markup(gcast(object), 0)
        adw_preferences_row_set_title(gcast(object), title)
        adw_action_row_set_subtitle(gcast(object), subtitle)
        adw_action_row_add_suffix(gcast(object), control.widget)
        if activates {
            adw_action_row_set_activatable_widget(gcast(object), control.widget)
            // libadwaita labels the control by the row's title too, and GTK 4.8 then says both,
            // its own name and the title ("Auto Scan Auto Scan"): its own name is said once.
            gtk_accessible_reset_relation(OpaquePointer(control.object), GTK_ACCESSIBLE_RELATION_LABELLED_BY)
        }
    }

    /// The title.
    public var title: String {
        get { String(cString: adw_preferences_row_get_title(gcast(object))) }
        set {
            guard newValue != title else { return }
            adw_preferences_row_set_title(gcast(object), newValue)
        }
    }

    /// The subtitle.
    public var subtitle: String {
        get { adw_action_row_get_subtitle(gcast(object)).map { String(cString: $0) } ?? "" }
        set {
            guard newValue != subtitle else { return }
            adw_action_row_set_subtitle(gcast(object), newValue)
        }
    }

    /// Adds `widget` after the control (an arrow that says the row opens a page).
    public func addSuffix(_ widget: Widget) {
        adw_action_row_add_suffix(gcast(object), widget.widget)
        suffixes.append(widget)
    }

    private var suffixes: [Widget] = []
}
