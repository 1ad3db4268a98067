// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation

/// Where the user's files go, as GLib's `g_get_user_data_dir()` and `g_get_user_cache_dir()`
/// say: the XDG variable when it holds an absolute path, else under `$HOME`, and the password
/// file's home only when `HOME` is unset. A `HOME` pointed elsewhere is obeyed, as every GNOME app does.
/// The caller reads the environment (`variable`): Domain reads none.
public enum UserDirectories {
    /// `$XDG_DATA_HOME`, or `$HOME/.local/share`.
    public static func data(_ variable: (String) -> String?) -> String {
        absolute(variable("XDG_DATA_HOME")) ?? home(variable) + "/.local/share"
    }

    /// `$XDG_CACHE_HOME`, or `$HOME/.cache`.
    public static func cache(_ variable: (String) -> String?) -> String {
        absolute(variable("XDG_CACHE_HOME")) ?? home(variable) + "/.cache"
    }

    private static func home(_ variable: (String) -> String?) -> String {
        absolute(variable("HOME")) ?? NSHomeDirectory()
    }

    private static func absolute(_ path: String?) -> String? { path.flatMap { $0.hasPrefix("/") ? $0 : nil } }
}
