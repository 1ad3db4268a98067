// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

internal import CGtkShim

/// A GtkMenuButton opening a menu of (label, detailed action) items.
@MainActor
public final class MenuButton: Widget {
    /// A menu button with `icon`, named `accessibleName` for screen readers; `sections` are
    /// groups of (label, action) separated by lines.
    public convenience init(icon: String, accessibleName: String, sections: [[(String, String)]]) {
        self.init(icon: icon, accessibleName: accessibleName, titledSections: sections.map { (nil, $0) })
    }

    /// As above, with a heading over each section ("Sort By").
    public init(icon: String, accessibleName: String, titledSections: [(String?, [(String, String)])]) {
        super.init(gtk_menu_button_new())
        gtk_menu_button_set_icon_name(gcast(object), icon)
        accessibleLabel(accessibleName)
        tooltip(accessibleName)
        // The popover and its item widgets are made on the first opening, not with the page:
        // a page's menu is rarely opened, and building it held every page's first frame.
        let menu = menuModel(titledSections)
        gtk_menu_button_set_create_popup_func(gcast(object), { button, menu in
            guard let button, gtk_menu_button_get_popover(button) == nil else { return }
            gtk_menu_button_set_menu_model(button, gcast(menu))
        }, UnsafeMutableRawPointer(menu), { menu in g_object_unref(menu) })
    }

    /// Marks this as the window's primary menu, so F10 opens it.
    public func makePrimary() {
        gtk_menu_button_set_primary(gcast(object), 1)
    }
}

/// A GMenu of sections (an optional heading, then label and detailed action pairs), split by
/// lines; the caller owns the returned reference.
@MainActor
func menuModel(_ sections: [(String?, [(String, String)])]) -> OpaquePointer {
    let menu = g_menu_new()!
    for (title, items) in sections {
        let section = g_menu_new()!
        for (label, action) in items { g_menu_append(section, label, action) }
        g_menu_append_section(menu, title, gcast(UnsafeMutableRawPointer(section)))
        g_object_unref(UnsafeMutableRawPointer(section))
    }
    return menu
}
