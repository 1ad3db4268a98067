// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

internal import CGtkShim
import Dispatch

/// An AdwMessageDialog: a heading, a body, optional extra content and response buttons.
@MainActor
public final class MessageDialog: Widget {
    /// How a response button looks.
    public enum Appearance { case normal, suggested, destructive }

    private var handlers: [String: () -> Void] = [:]
    private var closedHandlers: [() -> Void] = []
    /// The dialog outlives its creator's scope until it is answered.
    private var keepAlive: MessageDialog?
    private var dialog: UnsafeMutablePointer<AdwMessageDialog> { gcast(object) }

    /// Creates a dialog over `parent`.
    public init(parent: Window, heading: String, body: String) {
        super.init(adw_message_dialog_new(parent.window, nil, nil))
        // Both may name a device: plain text, never markup.
        adw_message_dialog_set_heading_use_markup(dialog, 0)
        adw_message_dialog_set_body_use_markup(dialog, 0)
        adw_message_dialog_set_heading(dialog, heading)
        adw_message_dialog_set_body(dialog, body)
        // "response" fires for buttons and for Escape ("close-response").
        connect("response") { [weak self] args in
            guard let self, let id = args.string(1) else { return }
            let handler = self.handlers[id]
            self.handlers = [:]
            handler?()
            let closed = self.closedHandlers
            self.closedHandlers = []
            for run in closed { run() }
            // Let go on the next turn of the loop: releasing now could finalize the dialog
            // while GTK is still inside the button activation that emitted "response".
            DispatchQueue.main.async { self.keepAlive = nil }
        }
    }

    /// Adds a response button `label` with id `id`; `handler` runs when chosen.
    public func addResponse(_ id: String, label: String, appearance: Appearance = .normal,
                            handler: (() -> Void)? = nil) {
        adw_message_dialog_add_response(dialog, id, label)
        nameResponseButtons(label)
        switch appearance {
        case .normal: break
        case .suggested: adw_message_dialog_set_response_appearance(dialog, id, ADW_RESPONSE_SUGGESTED)
        case .destructive: adw_message_dialog_set_response_appearance(dialog, id, ADW_RESPONSE_DESTRUCTIVE)
        }
        if let handler { handlers[id] = handler }
    }

    /// Names the buttons libadwaita made for the response `label` without its access-key mark:
    /// under GTK 4.8 they were named "_Cancel Cancel", as Orca read them.
    private func nameResponseButtons(_ label: String) {
        Mnemonic.nameButtons(in: widget) { text, _ in text == label }
    }

    /// The response Enter chooses, and the one Escape chooses.
    public func setDefault(_ id: String, close: String) {
        adw_message_dialog_set_default_response(dialog, id)
        adw_message_dialog_set_close_response(dialog, close)
    }

    /// Enables or disables a response button (Save while the input is invalid).
    public func setEnabled(_ id: String, _ enabled: Bool) {
        adw_message_dialog_set_response_enabled(dialog, id, enabled ? 1 : 0)
    }

    /// Replaces the body (plain text, never markup), as a question's figures change.
    public func setBody(_ body: String) {
        adw_message_dialog_set_body(dialog, body)
    }

    /// Closes the dialog as Escape would, choosing its close response.
    public func close() {
        gtk_window_close(gcast(object))
    }

    /// Places extra content (an entry) under the body.
    public func setExtraChild(_ child: Widget) {
        adw_message_dialog_set_extra_child(dialog, child.widget)
    }

    /// Runs `handler` once the dialog is answered or dismissed, after the response's own handler.
    public func onClosed(_ handler: @escaping () -> Void) {
        closedHandlers.append(handler)
    }

    /// Shows the dialog; it closes itself after any response.
    public func present() {
        keepAlive = self
        gtk_window_present(gcast(object))
    }

    /// Chooses a response as if its button was pressed.
    public func respond(_ id: String) {
        adw_message_dialog_response(dialog, id)
    }
}
