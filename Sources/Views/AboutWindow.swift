// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import GtkKit
import Localization

/// The About window: version, licence and credits.
@MainActor
enum AboutWindow {
    static func present(parent: UnsafeMutablePointer<GtkWindow>) {
        let about = adw_about_window_new()!
        let window: OpaquePointer = gcast(UnsafeMutableRawPointer(about))
        gtk_window_set_transient_for(gcast(UnsafeMutableRawPointer(about)), parent)
        adw_about_window_set_application_name(window, L10n.tr("FavBlue"))
        adw_about_window_set_application_icon(window, AppInfo.id)
        adw_about_window_set_version(window, AppInfo.version)
        adw_about_window_set_developer_name(window, L10n.tr("The FavBlue authors"))
        adw_about_window_set_comments(window, L10n.tr("Find the Bluetooth devices around you and keep your favorites."))
        adw_about_window_set_license_type(window, GTK_LICENSE_GPL_3_0)
        adw_about_window_set_copyright(window, L10n.tr("© The FavBlue authors"))
        // Translators: put your names here, one per line; they are shown in About.
        let credits = L10n.tr("translator-credits")
        if credits != "translator-credits" { adw_about_window_set_translator_credits(window, credits) }
        adw_about_window_set_release_notes_version(window, AppInfo.version)
        adw_about_window_set_release_notes(window, "<p>" + L10n.tr("First release: the app shell, splash, navigation and translations.") + "</p>")
        let developers = [L10n.tr("The FavBlue authors")]
        withCStrings(developers) { adw_about_window_set_developers(window, $0) }
        gtk_window_present(gcast(UnsafeMutableRawPointer(about)))
    }

    private static func withCStrings(_ strings: [String], _ body: (UnsafeMutablePointer<UnsafePointer<CChar>?>) -> Void) {
        var pointers: [UnsafePointer<CChar>?] = strings.map { UnsafePointer(strdup($0)) } + [nil]
        defer { pointers.forEach { free(UnsafeMutablePointer(mutating: $0)) } }
        pointers.withUnsafeMutableBufferPointer { body($0.baseAddress!) }
    }
}
