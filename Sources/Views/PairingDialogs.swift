// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import GtkKit
import Localization
import ViewModels

/// Shows the one pairing question there is, as a dialog naming the device: confirm a number,
/// type six digits or a PIN, or type a code on the device. A repeated display (a key typed on
/// the device) updates the dialog in place; a question taken back closes it, and the reason
/// is said in a notice.
@MainActor
public final class PairingDialogs {
    private let model: PairingPromptViewModel
    private weak var navigator: Navigator?
    private var token: ObservationToken?
    private var shown: (id: Int, dialog: MessageDialog, progress: Label)?

    public init(model: PairingPromptViewModel, navigator: Navigator) {
        self.model = model
        self.navigator = navigator
        token = model.observe { [weak self] in self?.render() }
    }

    /// Asks before Forget, saying what goes and what stays; `forget` runs on yes, `closed` either way.
    static func confirmForget(parent: Window, question: (heading: String, body: String),
                              forget: @escaping () -> Void, closed: @escaping () -> Void) {
        let dialog = MessageDialog(parent: parent, heading: question.heading, body: question.body)
        dialog.addResponse("cancel", label: L10n.tr("_Cancel"))
        dialog.addResponse("forget", label: L10n.tr("_Forget"), appearance: .destructive, handler: forget)
        dialog.setDefault("cancel", close: "cancel")
        dialog.onClosed(closed)
        dialog.present()
    }

    private func render() {
        let wanted = model.dialog
        if let shown, shown.id != wanted?.id {
            self.shown = nil
            shown.dialog.close()
        }
        guard let wanted else { return }
        if let shown, shown.id == wanted.id {
            shown.dialog.setBody(wanted.body)
            shown.progress.text = wanted.progress ?? ""
            shown.progress.isVisible = wanted.progress != nil
            return
        }
        present(wanted)
    }

    private func present(_ question: PairingPromptViewModel.Dialog) {
        guard let parent = navigator?.parentWindow else { return }
        let id = question.id
        let dialog = MessageDialog(parent: parent, heading: question.heading, body: question.body)
        let progress = Label(question.progress ?? "").xalign(0.5)
        progress.css("dim-text", "numeric")
        progress.isVisible = question.progress != nil
        dialog.addResponse("cancel", label: question.kind == .request ? L10n.tr("_Not Now") : L10n.tr("_Cancel")) { [weak model] in
            model?.decline(id)
        }
        var focus: Widget?
        switch question.kind {
        case .request:
            dialog.addResponse("pair", label: L10n.tr("_Pair"), appearance: .suggested) { [weak model] in model?.confirm(id) }
            dialog.setDefault("pair", close: "cancel")
        case .confirm:
            dialog.addResponse("confirm", label: L10n.tr("C_onfirm"), appearance: .suggested) { [weak model] in model?.confirm(id) }
            dialog.setDefault("confirm", close: "cancel")
            dialog.setExtraChild(progress)
        case .passkey, .pin:
            let kind = question.kind
            let entry = Entry(accessibleName: kind == .passkey ? L10n.tr("Passkey") : L10n.tr("PIN"))
            entry.placeholder(kind == .passkey ? L10n.tr("Six digits") : L10n.tr("PIN"))
            entry.activatesDefault()
            let reason = Label().xalign(0).wrap()
            reason.css("caption", "dim-text")
            dialog.setExtraChild(Box(vertical: true, spacing: 6).append(entry, reason))
            dialog.addResponse("pair", label: L10n.tr("_Pair"), appearance: .suggested) { [weak model] in
                model?.submit(entry.text, kind: kind, to: id)
            }
            dialog.setDefault("pair", close: "cancel")
            let check = { [weak dialog, weak model] (text: String) in
                let problem = model?.problem(text, kind: kind)
                // Said as typed, but not before the first key: an empty entry is no mistake yet.
                reason.text = text.isEmpty ? "" : problem ?? ""
                reason.isVisible = !text.isEmpty && problem != nil
                dialog?.setEnabled("pair", problem == nil)
            }
            entry.onChanged(check)
            check("")
            focus = entry
        case .display:
            dialog.setDefault("cancel", close: "cancel")
            dialog.setExtraChild(progress)
        }
        dialog.onClosed { [weak self] in
            guard let self, self.shown?.id == id else { return }
            self.shown = nil
        }
        shown = (id, dialog, progress)
        dialog.present()
        focus?.grabFocus()
    }
}

/// Pair or Forget from a device list's row menu, the same on every list page.
@MainActor
enum PairingRowActions {
    static func run(_ id: DeviceID, key: String, pairing: PairingActionsViewModel, navigator: Navigator,
                    returnFocus: @escaping () -> Void) {
        if pairing.isPaired(id) {
            PairingDialogs.confirmForget(parent: navigator.parentWindow, question: pairing.forgetQuestion(for: id),
                                         forget: { pairing.forget(id) }, closed: returnFocus)
        } else {
            pairing.pair(id) { [weak navigator] text in navigator?.toast(text, button: nil, action: nil) }
        }
    }
}
