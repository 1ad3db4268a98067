// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

internal import CGtkShim

/// A one-line text entry.
@MainActor
public final class Entry: Widget {
    /// Creates an entry; `accessibleName` is read by screen readers.
    public init(accessibleName: String) {
        super.init(gtk_entry_new())
        accessibleLabel(accessibleName)
    }

    /// The current text.
    public var text: String {
        get { String(cString: gtk_editable_get_text(gcast(object))) }
        set { gtk_editable_set_text(gcast(object), newValue) }
    }

    /// Grey hint text shown while empty.
    /// Asks for room for `count` characters, no more: a short field (a UUID, a type) beside a long one.
    public func widthChars(_ count: Int32) {
        gtk_editable_set_width_chars(gcast(object), count)
        gtk_editable_set_max_width_chars(gcast(object), count)
    }

    public func placeholder(_ text: String) {
        gtk_entry_set_placeholder_text(gcast(object), text)
    }

    /// Shows dots for what is typed, and tells input methods it is a password.
    public func hidesText() {
        gtk_entry_set_visibility(gcast(object), 0)
        gtk_entry_set_input_purpose(gcast(object), GTK_INPUT_PURPOSE_PASSWORD)
    }

    /// Lets Enter activate the dialog's default response.
    public func activatesDefault() {
        gtk_entry_set_activates_default(gcast(object), 1)
    }

    /// Runs `handler` after every edit.
    public func onChanged(_ handler: @escaping (String) -> Void) {
        connect("changed") { [weak self] _ in
            guard let self else { return }
            handler(self.text)
        }
    }

    /// Runs `handler` when Enter is pressed in the entry.
    public func onActivate(_ handler: @escaping () -> Void) {
        connect("activate") { _ in handler() }
    }

    /// Puts the cursor after the last character.
    public func moveCursorToEnd() {
        gtk_editable_set_position(gcast(object), -1)
    }
}
