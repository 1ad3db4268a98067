// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

internal import CGtkShim

/// An AdwStatusPage: an icon, a title, a description and an optional action.
@MainActor
public final class StatusPage: Widget {
    /// Creates a status page.
    public init(icon: String, title: String, description: String = "") {
        super.init(adw_status_page_new())
        scroller = cgtk_first_descendant(widget, gtk_scrolled_window_get_type())
        takesFocus(false)
        adw_status_page_set_icon_name(gcast(object), icon)
        self.title = title
        self.details = description
    }

    /// The headline.
    public var title: String {
        get { String(cString: adw_status_page_get_title(gcast(object))) }
        set { adw_status_page_set_title(gcast(object), newValue) }
    }

    /// The explanation under the headline, as plain text.
    public var details: String {
        get { plainDetails }
        set {
            plainDetails = newValue
            // libadwaita always reads the description as markup, and it may name a device.
            adw_status_page_set_description(gcast(object), newValue.isEmpty ? nil : Markup.escape(newValue))
        }
    }

    private var plainDetails = ""

    /// Sets the explanation from markup written by FavBlue itself, never from device text.
    public func setDetailsMarkup(_ markup: String) {
        plainDetails = ""
        adw_status_page_set_description(gcast(object), markup)
    }

    /// Changes the icon.
    public func setIcon(_ name: String) { adw_status_page_set_icon_name(gcast(object), name) }

    /// Places `child` (usually a button) under the description.
    public func setChild(_ child: Widget?) {
        adw_status_page_set_child(gcast(object), child?.widget)
        takesFocus(child != nil)
    }

    private var scroller: UnsafeMutablePointer<GtkWidget>?

    /// With nothing to act on, its scrolled window would be a Tab stop of its own, an unnamed
    /// "scroll pane"; and one made merely unfocusable still claims the Tab and keeps the focus
    /// where it was (GTK 4.8). With a child, the child is the stop and the window is not.
    private func takesFocus(_ takes: Bool) {
        if let scroller { gtk_widget_set_can_focus(scroller, takes ? 1 : 0) }
    }
}
