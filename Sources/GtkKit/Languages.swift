// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

internal import CGtkShim

/// The user's languages, as GLib reads them from LANGUAGE, LC_ALL, LC_MESSAGES and LANG.
public enum Languages {
    /// Most wanted first, with the variants GLib derives ("de_DE.UTF-8", "de_DE", "de"), ending in "C".
    public static var preferred: [String] {
        var names: [String] = []
        guard let list = g_get_language_names() else { return ["C"] }
        var index = 0
        while let name = list[index] {
            names.append(String(cString: name))
            index += 1
        }
        return names
    }
}
