// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import GtkKit
import Localization

/// The About window: version, licence and credits.
@MainActor
enum AboutWindow {
    static func present(parent: Window) {
        let about = AboutDialog(parent: parent)
            .applicationName(L10n.tr("FavBlue"))
            .applicationIcon(AppInfo.id)
            .version(AppInfo.version)
            .developerName(L10n.tr("The FavBlue authors"))
            .comments(L10n.tr("Find the Bluetooth devices around you and keep your favorites."))
            .licenseGPL3()
            .copyright(L10n.tr("© The FavBlue authors"))
        // Translators: put your names here, one per line; they are shown in About.
        let credits = L10n.tr("translator-credits")
        if credits != "translator-credits" { about.translatorCredits(credits) }
        about.releaseNotes("<p>" + L10n.tr("First release: the app shell, splash, navigation and translations.") + "</p>",
                           version: AppInfo.version)
        about.developers([L10n.tr("The FavBlue authors")])
        // GTK's window list keeps the window until it is closed; closing destroys it.
        about.present()
    }
}
