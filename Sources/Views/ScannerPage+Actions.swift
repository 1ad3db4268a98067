// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import GtkKit
import Localization
import ViewModels

/// What the Scanner does for the user: add or remove a favorite, hide, open details, record.
extension ScannerPage {
    // MARK: Recording

    /// The Record check follows the model, and a recording that ended says where it went.
    func renderRecording() {
        recordAction?.setState(model.recordingPath != nil)
        recordAction?.isEnabled = model.canRecord
        guard let end = model.takeRecordingEnd(), let navigator else { return }
        if let failure = end.failure {
            ExportDialogs.showFailure(heading: L10n.tr("Recording Stopped"), message: failure.message, parent: navigator.parentWindow)
        } else {
            navigator.toast(L10n.format("Recording saved to “{}”", (end.path as NSString).lastPathComponent), button: nil, action: nil)
        }
    }

    /// Record on asks for a file first; cancelling leaves it off.
    func record(_ on: Bool) {
        guard let navigator else { return }
        guard on else {
            model.stopRecording()
            return
        }
        // Unchecked until a file is chosen.
        recordAction?.setState(false)
        ExportDialogs.chooseRecording(navigator: navigator) { [weak self] path in
            guard let self, let path, let navigator = self.navigator else { return }
            if let failure = self.model.startRecording(to: path) {
                ExportDialogs.showFailure(heading: L10n.tr("Recording Failed"), message: failure.message,
                                          parent: navigator.parentWindow)
            }
            self.render()
        }
    }

    // MARK: Actions

    /// Adds or removes `key`; focus then goes back to its heart or its row, whichever opened the dialog.
    func toggleFavorite(key: String) {
        guard let id = try? DeviceID(storageKey: key), let navigator else { return }
        let name = shown[key]?.title ?? id.address
        let dialog: MessageDialog
        if favorites.isFavorite(id) {
            dialog = FavoriteDialogs.remove(id, name: name, parent: navigator.parentWindow, favorites: favorites)
        } else {
            dialog = FavoriteDialogs.add(id, title: name, advertisedName: model.name(of: id), parent: navigator.parentWindow,
                                         favorites: favorites)
        }
        dialog.onClosed { [weak self] in
            self?.controls.focusRow(key)
        }
    }

    /// Hides `key` at once, with Undo on the toast.
    func hideDevice(key: String) {
        guard let id = try? DeviceID(storageKey: key), let row = shown[key] else { return }
        guard hidden.hide(id, name: row.isUnnamed ? nil : row.title, title: row.title,
                          toast: { [weak navigator] text, undo in navigator?.toast(text, undo: undo) }) else { return }
        list.list.grabFocus()
    }

    /// A time today ("14:09"), else a date and time.
    static func moment(_ date: Date) -> String {
        Calendar.current.isDateInToday(date) ? Formats.time(date) : Formats.dateTime(date)
    }

    /// Pair from a row's menu; Forget after asking. The focus goes back to the row.
    func pairOrForget(key: String) {
        guard let id = try? DeviceID(storageKey: key), let pairing = pairingActions, let navigator else { return }
        PairingRowActions.run(id, key: key, pairing: pairing, navigator: navigator) { [weak self] in self?.controls.focusRow(key) }
    }

    func showDetails(key: String) {
        guard let id = try? DeviceID(storageKey: key) else { return }
        navigator?.showDetail(of: id)
    }
}
