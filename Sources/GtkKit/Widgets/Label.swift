// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

internal import CGtkShim

/// A GtkLabel.
@MainActor
public final class Label: Widget {
    /// Creates a label showing `text`.
    public init(_ text: String = "") {
        super.init(gtk_label_new(text))
    }

    private var label: OpaquePointer { gcast(object) }

    /// The shown text.
    public var text: String {
        get { String(cString: gtk_label_get_text(label)) }
        set { gtk_label_set_text(label, newValue) }
    }

    /// Shows `markup` written by FavBlue itself (never device text, which goes through `text`).
    public func setMarkup(_ markup: String) {
        gtk_label_set_markup(label, markup)
    }

    /// Shortens long text with an ellipsis (at the end, or in the middle) instead of widening the window.
    @discardableResult
    public func ellipsize(middle: Bool = false) -> Self {
        if middle {
            gtk_label_set_ellipsize(label, PANGO_ELLIPSIZE_MIDDLE)
            return self
        }
        gtk_label_set_ellipsize(label, PANGO_ELLIPSIZE_END)
        return self
    }

    /// Whether the text can be selected and copied (an error's detail, say).
    public var isSelectable: Bool {
        get { gtk_label_get_selectable(gcast(object)) != 0 }
        set { gtk_label_set_selectable(gcast(object), newValue ? 1 : 0) }
    }

    /// Wraps long text onto several lines.
    @discardableResult
    public func wrap() -> Self {
        gtk_label_set_wrap(label, 1)
        gtk_label_set_wrap_mode(label, PANGO_WRAP_WORD_CHAR)
        return self
    }

    /// Horizontal alignment of the text, 0 = start, 1 = end.
    @discardableResult
    public func xalign(_ value: Float) -> Self {
        gtk_label_set_xalign(label, value)
        return self
    }

    /// Centres wrapped lines.
    @discardableResult
    public func justifyCenter() -> Self {
        gtk_label_set_justify(label, GTK_JUSTIFY_CENTER)
        return self
    }
}
