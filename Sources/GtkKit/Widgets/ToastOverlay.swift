// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import CGtkShim

/// An AdwToastOverlay: short notices over its child, optionally with one action (Undo).
@MainActor
public final class ToastOverlay: Widget {
    /// Wraps `child`.
    public init(child: Widget) {
        super.init(adw_toast_overlay_new())
        adw_toast_overlay_set_child(gcast(object), child.widget)
    }

    /// Shows `text`; with `button`, a click on it runs `action`.
    public func show(_ text: String, button: String? = nil, timeoutSeconds: UInt32 = 5,
                     action: (() -> Void)? = nil) {
        let toast = adw_toast_new(text)!
        adw_toast_set_timeout(toast, timeoutSeconds)
        if let button, let action {
            adw_toast_set_button_label(toast, button)
            Signals.connect(UnsafeMutableRawPointer(toast), "button-clicked") { _ in action() }
        }
        // adw_toast_overlay_add_toast takes ownership of the toast.
        adw_toast_overlay_add_toast(gcast(object), toast)
    }
}
