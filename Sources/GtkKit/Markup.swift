// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

internal import CGtkShim

/// Pango markup. Every String GtkKit takes is plain text; markup enters only through calls
/// named for it (`Label.setMarkup`, `StatusPage.setDetailsMarkup`), so device text cannot
/// style, blank or spoof a widget by accident.
enum Markup {
    /// `text` with `&`, `<`, `>`, quotes escaped, for widgets that read only markup.
    static func escape(_ text: String) -> String {
        guard let escaped = g_markup_escape_text(text, -1) else { return "" }
        defer { g_free(escaped) }
        return String(cString: escaped)
    }
}
