// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import GtkKit
import Localization
import ViewModels

/// Restart and Erase Spare Slot ask first, naming what goes; the keyboard comes back to the
/// button that asked.
extension DeviceManagerSection {
    func askRestart() {
        ask(L10n.tr("Restart the Device?"), L10n.tr("The connection ends while the device restarts. Connect again once it is back."),
            doing: L10n.tr("_Restart"), from: restart) { [weak self] in self?.model.restart() }
    }

    func askErase() {
        ask(L10n.tr("Erase the Spare Slot?"), L10n.tr("The image that does not run is removed from the device. The running one stays."),
            doing: L10n.tr("_Erase"), from: erase) { [weak self] in self?.model.eraseSpare() }
    }

    /// Asks `heading` with Cancel (the default) and the destructive `doing`; the keyboard goes back to `button`.
    private func ask(_ heading: String, _ body: String, doing: String, from button: Button, then act: @escaping () -> Void) {
        guard let navigator else { return }
        let dialog = MessageDialog(parent: navigator.parentWindow, heading: heading, body: body)
        dialog.addResponse("cancel", label: L10n.tr("_Cancel"))
        dialog.addResponse("do", label: doing, appearance: .destructive, handler: act)
        dialog.setDefault("cancel", close: "cancel")
        dialog.onClosed { [weak button] in button?.grabFocus() }
        dialog.present()
    }
}
