// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Localization

/// The unread badge on Open Chat.
public enum UnreadBadge {
    /// The badge's text for `count` unread messages: nil (no badge) for 0 or less, the number
    /// for 1–99, and "..." for 100 or more, so the badge never grows wider than two digits.
    public static func text(for count: Int) -> String? {
        switch count {
        case ...0: return nil
        case 1...99: return Formats.number(count)
        default: return "..."
        }
    }
}
