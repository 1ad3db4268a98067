// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

// # Views
//
// The GTK face of FavBlue, one file per screen or widget:
//
//     Views/
//       AppResources           finds the compiled resources, schema and translations
//       MainWindow(+Actions)   splash → page stack, toasts, window actions and shortcuts
//       Page                   the Page and Navigator protocols, PageFactory, PageFrame
//       SplashView             the brand-blue start screen
//       FavoritesPage, ScannerPage, DeviceDetailPage
//       DeviceRowView, SignalPlot, Banner, NoticeBar, PrimaryMenu   parts of pages
//       FavoriteDialogs        add, rename and remove a favorite: the one copy every page calls
//       ExportDialogs          Export Devices…, Export Signal History…, where a recording goes
//       PreferencesWindow, AboutWindow
//
// In: view models (state + intents). Out: GTK widgets, built only from GtkKit's typed
// wrappers. Views import GtkKit, ViewModels, Domain value types, Localization and
// Foundation, never a C module: GtkKit imports C internally and re-exports nothing. A view
// renders state and forwards user actions; it holds no business rules and never sees an adapter.

import GtkKit
import Domain
import ViewModels

/// Facts about this build shown in About and `--version`.
public enum AppInfo {
    /// The application ID, also the D-Bus name and the data files' stem.
    public static let id = "io.github.favblue.FavBlue"
    /// The release version.
    public static let version = Release.version
}
