// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

internal import CGtkShim

/// The light/dark appearance, following the system through AdwStyleManager.
@MainActor
public enum Style {
    /// Whether dark colours are in use right now.
    public static var isDark: Bool {
        adw_style_manager_get_dark(adw_style_manager_get_default()) != 0
    }

    /// Forces light or dark (for screenshots and tests); nil follows the system.
    public static func force(dark: Bool?) {
        let scheme: AdwColorScheme
        switch dark {
        case .some(true): scheme = ADW_COLOR_SCHEME_FORCE_DARK
        case .some(false): scheme = ADW_COLOR_SCHEME_FORCE_LIGHT
        case .none: scheme = ADW_COLOR_SCHEME_DEFAULT
        }
        adw_style_manager_set_color_scheme(adw_style_manager_get_default(), scheme)
    }

    /// Registers a compiled GResource bundle so `resource://` paths and the app's
    /// automatic style.css / style-dark.css loading find our files.
    public static func registerResources(at path: String) -> Bool {
        var error: UnsafeMutablePointer<GError>?
        guard let resource = g_resource_load(path, &error) else {
            g_clear_error(&error)
            return false
        }
        g_resources_register(resource)
        g_resource_unref(resource)
        return true
    }

    /// Reads the icon theme on another thread while the first window is built (call once the
    /// display is open, after the application's own icon path is added at its start-up).
    public static func preloadIconTheme() {
        cgtk_icon_theme_preload()
    }
}
