// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import GtkKit
import Localization

/// The header bar's main menu: Export Devices, Preferences, Keyboard Shortcuts and About.
@MainActor
enum PrimaryMenu {
    static func make() -> MenuButton {
        let button = MenuButton(icon: "open-menu-symbolic", accessibleName: L10n.tr("Main Menu"), sections: [
            [(L10n.tr("_Export Devices…"), "win.export-devices")],
            [(L10n.tr("_Preferences"), "win.preferences"),
             (L10n.tr("_Keyboard Shortcuts"), "win.show-help-overlay"),
             (L10n.tr("_About FavBlue"), "win.about")],
        ])
        button.makePrimary()
        return button
    }
}
