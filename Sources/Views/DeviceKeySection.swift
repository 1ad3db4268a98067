// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import GtkKit
import Localization
import ViewModels

/// A favorite's Identity Resolving Key, for a device bonded elsewhere (a phone's key, say):
/// typed or pasted in hex, it lets FavBlue recognise the device whatever private address it
/// uses. The key itself is never shown again once saved.
@MainActor
final class DeviceKeySection {
    // MARK: Widgets
    let root = Box(vertical: true, spacing: 6)
    private let list = PropertyList(accessibleName: L10n.tr("Recognition"))
    private let row = PropertyRow(title: L10n.tr("Identity Resolving Key"))
    private let remove = Button(label: L10n.tr("_Remove Key"), mnemonic: true)
    private let entryLine = Box(vertical: false, spacing: 6)
    private let entry = Entry(accessibleName: L10n.tr("Identity Resolving Key"))
    private let use = Button(label: L10n.tr("_Use Key"), mnemonic: true)
    private let message = Label()

    // MARK: Borrowed
    private let model: DeviceDetailViewModel

    init(model: DeviceDetailViewModel) {
        self.model = model
        let heading = Label(L10n.tr("Recognition")).xalign(0)
        heading.css("heading")
        remove.css("flat")
        remove.align(.center, .center)
        row.addSuffix(remove)
        list.append(row)
        entry.placeholder(L10n.tr("32 hex digits"))
        entry.expand(horizontal: true, vertical: false)
        entryLine.append(entry, use)
        message.xalign(0).wrap()
        message.css("dim-text")
        root.append(heading, list, entryLine, message)
        use.onClicked { [weak self] in self?.useKey() }
        entry.onActivate { [weak self] in self?.useKey() }
        remove.onClicked { [weak self] in self?.removeKey() }
        render()
    }

    /// Shows the section for an LE favorite, with the entry while no key is set.
    func render() {
        root.isVisible = model.canHoldKey
        let has = model.hasKey
        row.value = has ? L10n.tr("Set. FavBlue recognises this device when its address changes.")
                        : L10n.tr("Not set. Paste the key of a device bonded elsewhere to follow it when its address changes.")
        remove.isVisible = has
        entryLine.isVisible = !has
    }

    private func useKey() {
        let text = entry.text
        use.isSensitive = false
        Task { [weak self] in
            guard let self else { return }
            let result = await self.model.useKey(text)
            self.use.isSensitive = true
            self.message.text = result.message
            if result.kept {
                self.entry.text = ""
                self.render()
                // The entry hides with the key set: the focus goes to what replaces it.
                self.remove.grabFocus()
            } else {
                self.entry.grabFocus()
            }
            // On a short window the words would be below the fold, under the focused control.
            self.message.scrollIntoView()
        }
    }

    private func removeKey() {
        Task { [weak self] in
            guard let self else { return }
            self.message.text = await self.model.removeKey() ?? L10n.tr("Key removed.")
            self.render()
            self.entry.grabFocus()
            self.message.scrollIntoView()
        }
    }
}
