// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

internal import CGtkShim

/// How a widget sits in space larger than it needs.
public enum Align: Sendable {
    /// Takes the whole space.
    case fill
    /// At the start (left in left-to-right locales, top).
    case start
    /// At the end.
    case end
    /// In the middle.
    case center

    var gtk: GtkAlign {
        switch self {
        case .fill: return GTK_ALIGN_FILL
        case .start: return GTK_ALIGN_START
        case .end: return GTK_ALIGN_END
        case .center: return GTK_ALIGN_CENTER
        }
    }
}
