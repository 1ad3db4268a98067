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
        guard let navigator else { return }
        let dialog = MessageDialog(parent: navigator.parentWindow, heading: L10n.tr("Restart the Device?"),
                                   body: L10n.tr("The connection ends while the device restarts. Connect again once it is back."))
        dialog.addResponse("cancel", label: L10n.tr("_Cancel"))
        dialog.addResponse("restart", label: L10n.tr("_Restart"), appearance: .destructive) { [weak self] in self?.model.restart() }
        dialog.setDefault("cancel", close: "cancel")
        dialog.onClosed { [weak self] in self?.restart.grabFocus() }
        dialog.present()
    }

    func askErase() {
        guard let navigator else { return }
        let dialog = MessageDialog(parent: navigator.parentWindow, heading: L10n.tr("Erase the Spare Slot?"),
                                   body: L10n.tr("The image that does not run is removed from the device. The running one stays."))
        dialog.addResponse("cancel", label: L10n.tr("_Cancel"))
        dialog.addResponse("erase", label: L10n.tr("_Erase"), appearance: .destructive) { [weak self] in self?.model.eraseSpare() }
        dialog.setDefault("cancel", close: "cancel")
        dialog.onClosed { [weak self] in self?.erase.grabFocus() }
        dialog.present()
    }
}
