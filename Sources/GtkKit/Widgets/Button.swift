// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

internal import CGtkShim

/// A GtkButton with a label or an icon.
@MainActor
public final class Button: Widget {
    /// A button with a text label; `mnemonic` lets Alt+letter press it.
    public init(label: String, mnemonic: Bool = false) {
        super.init(mnemonic ? gtk_button_new_with_mnemonic(label) : gtk_button_new_with_label(label))
    }

    /// An icon-only button; `accessibleName` is what screen readers say and the tooltip shows.
    public init(icon: String, accessibleName: String) {
        super.init(gtk_button_new_from_icon_name(icon))
        accessibleLabel(accessibleName)
        tooltip(accessibleName)
    }

    /// A button with an icon and a label (AdwButtonContent).
    public init(icon: String, label: String) {
        super.init(gtk_button_new())
        let content = adw_button_content_new()!
        adw_button_content_set_icon_name(gcast(content), icon)
        adw_button_content_set_label(gcast(content), label)
        adw_button_content_set_use_underline(gcast(content), 1)
        gtk_button_set_child(gcast(object), content)
    }

    /// A button showing `child` (a label with a badge, say); name it with `accessibleLabel`.
    public init(child: Widget) {
        super.init(gtk_button_new())
        gtk_button_set_child(gcast(object), child.widget)
    }

    /// Runs `handler` when the button is clicked or activated with the keyboard.
    public func onClicked(_ handler: @escaping () -> Void) {
        connect("clicked") { _ in handler() }
    }

    /// Activates a GAction (`win.back`, `app.quit`) instead of a handler.
    @discardableResult
    public func action(_ name: String) -> Self {
        gtk_actionable_set_action_name(OpaquePointer(object), name)
        return self
    }

    /// Changes the icon.
    public func setIcon(_ name: String) {
        gtk_button_set_icon_name(gcast(object), name)
    }

    /// Changes the text label.
    public func setLabel(_ text: String) {
        gtk_button_set_label(gcast(object), text)
    }
}
