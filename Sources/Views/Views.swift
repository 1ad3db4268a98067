// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

// # Views
//
// The GTK face of FavBlue, one file per screen or widget:
//
//     Views/
//       AppResources           finds the compiled resources, schema and translations
//       MainWindow(+Actions)   splash → page stack, toasts, window actions and shortcuts
//       SplashView             the brand-blue start screen
//       FavoritesPage, ScannerPage, DeviceDetailPage
//       AboutWindow
//
// In: view models (state + intents). Out: GTK widgets. A view renders state and
// forwards user actions; it holds no business rules and never sees an adapter.

import GtkKit
import ViewModels

/// Facts about this build shown in About and `--version`.
public enum AppInfo {
    /// The application ID, also the D-Bus name and the data files' stem.
    public static let id = "io.github.favblue.FavBlue"
    /// The release version.
    public static let version = "0.1.0"
}
