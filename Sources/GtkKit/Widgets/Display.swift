// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

internal import CGtkShim

/// A GtkSpinner: shows that something is under way.
@MainActor
public final class Spinner: Widget {
    /// A spinner, still until `isSpinning` is set.
    public init() {
        super.init(gtk_spinner_new())
    }

    /// Whether it turns.
    public var isSpinning: Bool {
        get { gtk_spinner_get_spinning(gcast(object)) != 0 }
        set { gtk_spinner_set_spinning(gcast(object), newValue ? 1 : 0) }
    }
}

/// A GtkImage showing a themed icon.
@MainActor
public final class Image: Widget {
    /// An image, empty until `iconName` is set.
    public init() {
        super.init(gtk_image_new())
    }

    /// The icon shown, by name in the icon theme.
    public var iconName: String? {
        get { gtk_image_get_icon_name(gcast(object)).map { String(cString: $0) } }
        set { gtk_image_set_from_icon_name(gcast(object), newValue) }
    }
}

/// A GtkShortcutLabel: key caps for an accelerator ("<Primary>f"; several separated by spaces).
@MainActor
public final class ShortcutLabel: Widget {
    /// Shows `accelerator` as key caps.
    public init(_ accelerator: String) {
        super.init(gtk_shortcut_label_new(accelerator))
        align(.end, .center)
    }
}

/// A GtkProgressBar: how far something is, with its own words for screen readers.
@MainActor
public final class ProgressBar: Widget {
    /// An empty bar named `accessibleName`.
    public init(accessibleName: String) {
        super.init(gtk_progress_bar_new())
        accessibleLabel(accessibleName)
    }

    /// How far, from 0 to 1.
    public var fraction: Double {
        get { gtk_progress_bar_get_fraction(gcast(object)) }
        set { gtk_progress_bar_set_fraction(gcast(object), min(max(newValue, 0), 1)) }
    }

    /// Moves the bar back and forth while there is no fraction to show.
    public func pulse() { gtk_progress_bar_pulse(gcast(object)) }
}
