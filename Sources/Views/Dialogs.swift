// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import GtkKit
import Localization

/// The dialogs device pages share: a nickname prompt and a removal confirmation.
@MainActor
enum Dialogs {
    /// Asks for a nickname. Confirm stays disabled while `validate` returns a reason,
    /// which is shown under the entry. Enter confirms, Escape cancels.
    @discardableResult
    static func nickname(parent: UnsafeMutablePointer<GtkWindow>, heading: String, body: String,
                         initial: String, confirm: String, validate: @escaping (String) -> String?,
                         onConfirm: @escaping (String) -> Void) -> MessageDialog {
        let dialog = MessageDialog(parent: parent, heading: heading, body: body)
        let entry = Entry(accessibleName: L10n.tr("Nickname"))
        entry.placeholder(L10n.tr("Nickname (optional)"))
        entry.text = initial
        entry.activatesDefault()
        let reason = Label().xalign(0).wrap()
        reason.css("caption", "error")
        let box = Box(vertical: true, spacing: 6).append(entry, reason)
        dialog.setExtraChild(box)
        dialog.addResponse("cancel", label: L10n.tr("_Cancel"))
        dialog.addResponse("confirm", label: confirm, appearance: .suggested) { onConfirm(entry.text) }
        dialog.setDefault("confirm", close: "cancel")
        let check = { [weak dialog] (text: String) in
            let problem = validate(text)
            reason.text = problem ?? ""
            reason.isVisible = problem != nil
            dialog?.setEnabled("confirm", problem == nil)
        }
        entry.onChanged(check)
        check(initial)
        dialog.present()
        entry.grabFocus()
        return dialog
    }

    /// Asks before removing; the Remove button is marked destructive.
    @discardableResult
    static func confirmRemoval(parent: UnsafeMutablePointer<GtkWindow>, heading: String,
                               onRemove: @escaping () -> Void) -> MessageDialog {
        let dialog = MessageDialog(parent: parent, heading: heading,
                                   body: L10n.tr("You can add it again from the scanner."))
        dialog.addResponse("cancel", label: L10n.tr("_Cancel"))
        dialog.addResponse("remove", label: L10n.tr("_Remove"), appearance: .destructive, handler: onRemove)
        dialog.setDefault("cancel", close: "cancel")
        dialog.present()
        return dialog
    }
}
