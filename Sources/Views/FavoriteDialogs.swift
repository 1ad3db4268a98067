// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import GtkKit
import Localization
import ViewModels

/// The favorite dialogs, written once for every page that offers them: add with an
/// optional nickname, rename, and remove after a confirmation. The Scanner, Favorites and
/// Detail pages all call these, so the wording, the checks and the keys are the same everywhere.
///
/// The Undo toast after a removal is not shown here: FavoritesViewModel raises it and the
/// Favorites page, which lives under every other page, shows it.
@MainActor
enum FavoriteDialogs {
    /// Asks for an optional nickname, then adds `id` to the favorites.
    /// `title` names the device in the question; `advertisedName` is stored as its last known name.
    @discardableResult
    static func add(_ id: DeviceID, title: String, advertisedName: String?, parent: Window,
                    favorites: FavoritesViewModel) -> MessageDialog {
        nickname(parent: parent, heading: L10n.tr("Add to Favorites"),
                 body: L10n.format("Add “{}” to your favorites. You can give it a nickname.", DeviceText.isolated(title)),
                 initial: "", confirm: L10n.tr("_Add"),
                 validate: { [weak favorites] in favorites?.nicknameProblem($0) },
                 onConfirm: { [weak favorites] text in
                     guard let favorites else { return }
                     Task { await favorites.add(id, name: advertisedName, nickname: text) }
                 })
    }

    /// Asks for a new nickname for the favorite `id`, shown as `name`; empty goes back to its own name.
    @discardableResult
    static func rename(_ id: DeviceID, name: String, parent: Window, favorites: FavoritesViewModel) -> MessageDialog {
        nickname(parent: parent, heading: L10n.tr("Rename Favorite"),
                 body: L10n.format("Choose a nickname for “{}”. Leave it empty to use the device’s own name.", DeviceText.isolated(name)),
                 initial: favorites.currentNickname(id), confirm: L10n.tr("_Save"),
                 validate: { [weak favorites] in favorites?.nicknameProblem($0) },
                 onConfirm: { [weak favorites] text in
                     guard let favorites else { return }
                     Task { await favorites.rename(id, to: text) }
                 })
    }

    /// Asks before removing the favorite `id`; `name` stands in the question when the
    /// favorite has no display name of its own.
    @discardableResult
    static func remove(_ id: DeviceID, name: String? = nil, parent: Window, favorites: FavoritesViewModel) -> MessageDialog {
        let dialog = MessageDialog(parent: parent, heading: favorites.removalQuestion(id, name: name),
                                   body: L10n.tr("You can add it again from the scanner."))
        dialog.addResponse("cancel", label: L10n.tr("_Cancel"))
        dialog.addResponse("remove", label: L10n.tr("_Remove"), appearance: .destructive) { [weak favorites] in
            guard let favorites else { return }
            Task { await favorites.remove(id) }
        }
        dialog.setDefault("cancel", close: "cancel")
        dialog.present()
        return dialog
    }

    /// Asks for a nickname. Confirm stays disabled while `validate` returns a reason,
    /// which is shown under the entry. Enter confirms, Escape cancels.
    private static func nickname(parent: Window, heading: String, body: String, initial: String, confirm: String,
                                 validate: @escaping (String) -> String?,
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
}
