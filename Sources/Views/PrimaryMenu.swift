// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import GtkKit
import Localization

/// The header bar's main menu, on every page, so F10 always opens it: Act as a Device,
/// Connect to a Network Device…, Preferences, Keyboard Shortcuts, Help and About, after the page's own export where it has one (Favorites: "Export
/// Favorites…"; the Scanner keeps Export Devices… in its View Options).
@MainActor
enum PrimaryMenu {
    /// Act as a Device, Preferences, Keyboard Shortcuts, Help and About: the part every page's menu ends with.
    static var common: [(String, String)] {
        [(L10n.tr("_Act as a Device"), "win.peripheral"),
         (L10n.tr("Connect to a _Network Device…"), "win.network-device"),
         (L10n.tr("_Preferences"), "win.preferences"),
         (L10n.tr("_Keyboard Shortcuts"), "win.show-help-overlay"),
         (L10n.tr("_Help"), "win.help"),
         (L10n.tr("_About FavBlue"), "win.about")]
    }

    /// `page` is the page's own section, first (Act as a Device's Import… and Export…): one
    /// button fewer in the header bar, so a narrow window keeps the page's title whole.
    static func make(export: String? = nil, page: [(String, String)] = []) -> MenuButton {
        let own = (export.map { [($0, "win.export-devices")] } ?? []) + page
        let button = MenuButton(icon: "open-menu-symbolic", accessibleName: L10n.tr("Main Menu"),
                                sections: (own.isEmpty ? [] : [own]) + [Self.common])
        button.makePrimary()
        return button
    }
}
