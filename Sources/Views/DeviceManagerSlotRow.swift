// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import GtkKit
import Localization
import ViewModels

/// One image slot's row: its version and state, and its hash to copy.
@MainActor
final class SlotRow {
    let title: String
    let row: PropertyRow
    private let copy: Button
    private var hash = ""

    init(title: String, navigator: Navigator?) {
        self.title = title
        row = PropertyRow(title: title)
        copy = Button(label: "")
        copy.css("flat", "monospace")
        copy.align(.center, .center)
        copy.accessibleLabel(L10n.format("Copy the hash of {}", title))
        copy.tooltip(L10n.tr("Copy Hash"))
        copy.onClicked { [weak self, weak navigator] in
            guard let self else { return }
            self.copy.copyToClipboard(self.hash)
            navigator?.toast(L10n.tr("Hash copied"), button: nil, action: nil)
        }
        row.addSuffix(copy)
    }

    var hasFocus: Bool { copy.hasFocus }
    func focus() { copy.grabFocus() }

    func show(_ slot: DeviceManagerViewModel.Slot) {
        row.value = slot.value
        hash = slot.hash
        copy.setLabel(slot.shortHash)
        // Setting the label names the button again.
        copy.accessibleLabel(L10n.format("Copy the hash of {}", title))
    }
}
