// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import GtkKit
import Localization

/// Keyboard Shortcuts (Ctrl+?). GtkShortcutsWindow always sets its groups two columns to a
/// page, far wider than a phone; lists of rows, as in Preferences, fit a 360 px window.
@MainActor
enum ShortcutsWindow {
    /// What each group lists: (title, accelerators separated by spaces).
    private static var groups: [(String, [(String, String)])] {
        [
            (L10n.ctx("shortcut window", "General"), [
                (L10n.ctx("shortcut window", "Help"), "F1"),
                (L10n.ctx("shortcut window", "Keyboard Shortcuts"), "<Primary>question"),
                (L10n.ctx("shortcut window", "Preferences"), "<Primary>comma"),
                (L10n.ctx("shortcut window", "Main Menu"), "F10"),
                (L10n.ctx("shortcut window", "Close Window"), "<Primary>w"),
                (L10n.ctx("shortcut window", "Quit"), "<Primary>q"),
            ]),
            (L10n.ctx("shortcut window", "Navigation"), [
                (L10n.ctx("shortcut window", "Back"), "<Alt>Left Escape"),
                (L10n.ctx("shortcut window", "Add New Devices"), "<Primary>n"),
                (L10n.ctx("shortcut window", "Device Menu"), "Menu <Shift>F10"),
                (L10n.ctx("shortcut window", "Undo Remove or Hide"), "<Primary>z"),
            ]),
            (L10n.ctx("shortcut window", "Scanner"), [
                (L10n.ctx("shortcut window", "Search Devices"), "<Primary>f"),
                (L10n.ctx("shortcut window", "Scan Again"), "F5 <Primary>r"),
            ]),
            (L10n.ctx("shortcut window", "Favorites"), [
                (L10n.ctx("shortcut window", "Rename Favorite"), "F2"),
                (L10n.ctx("shortcut window", "Remove Favorite"), "Delete"),
            ]),
        ]
    }

    /// Opens the window over `parent`, no wider than it.
    static func present(parent: Window) {
        let window = PreferencesDialog(parent: parent, title: L10n.ctx("shortcut window", "Keyboard Shortcuts"))
        window.enableSearch()
        window.setDefaultSize(width: min(480, max(parent.allocatedWidth, 360)), height: 560)
        let page = PreferencesPage(title: L10n.ctx("shortcut window", "Keyboard Shortcuts"), icon: "preferences-desktop-keyboard-shortcuts-symbolic")
        for (title, shortcuts) in groups {
            page.add(PreferencesGroup(title: title, rows: shortcuts.map { name, keys in
                ActionRow(title: name, subtitle: "", control: ShortcutLabel(keys))
            }))
        }
        window.add(page)
        window.present()
    }
}
