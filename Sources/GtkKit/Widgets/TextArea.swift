// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

internal import CGtkShim

/// A text field whose lines wrap instead of scrolling out of sight: bytes in hex that must be
/// seen whole in a narrow window. Tab leaves it, as it leaves an entry.
@MainActor
public final class TextArea: Widget {
    /// Creates an empty field; `accessibleName` is read by screen readers.
    public init(accessibleName: String) {
        super.init(gtk_text_view_new())
        let view: UnsafeMutablePointer<GtkTextView> = gcast(object)
        gtk_text_view_set_wrap_mode(view, GTK_WRAP_WORD_CHAR)
        gtk_text_view_set_accepts_tab(view, 0)
        gtk_text_view_set_monospace(view, 1)
        accessibleLabel(accessibleName)
    }

    private var buffer: UnsafeMutablePointer<GtkTextBuffer> { gtk_text_view_get_buffer(gcast(object)) }

    /// The current text.
    public var text: String {
        get {
            var start = GtkTextIter(), end = GtkTextIter()
            gtk_text_buffer_get_bounds(buffer, &start, &end)
            guard let chars = gtk_text_buffer_get_text(buffer, &start, &end, 0) else { return "" }
            defer { g_free(chars) }
            return String(cString: chars)
        }
        set { gtk_text_buffer_set_text(buffer, newValue, -1) }
    }

    /// Runs `handler` after every edit.
    public func onChanged(_ handler: @escaping (String) -> Void) {
        _ = Signals.connect(UnsafeMutableRawPointer(buffer), "changed") { [weak self] _ in
            guard let self else { return }
            handler(self.text)
        }
    }
}
