// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import GtkKit
import Localization
import ViewModels

/// The connected devices (centrals) on the Act as a Device page: one row each, opening onto its log. What a central
/// wrote shows as plain text, its control characters visible, never as markup.
@MainActor
final class PeripheralCentralsSection {
    let root = Box(vertical: true, spacing: 12)
    private let heading = Label(L10n.tr("Connected Devices")).xalign(0)
    private let empty = Label(L10n.tr("No device has connected yet.")).xalign(0).wrap()
    private let list = BoxedList(accessibleName: L10n.tr("Connected Devices"))
    private var rows: [String: (expander: ExpanderRow, log: Label)] = [:]
    private var order: [String] = []
    /// Each central's log lines as last given, shown when its row is open.
    private var shown: [String: [String]] = [:]

    init() {
        heading.css("heading")
        // Translators: for those who know Bluetooth's word for the device that connects.
        _ = heading.tooltip(L10n.tr("Centrals, in Bluetooth’s words: the phones and computers that connected to this device"))
        empty.css("dim-text")
        root.append(heading, empty, list)
    }

    func render(_ centrals: [PeripheralViewModel.CentralRow]) {
        empty.isVisible = centrals.isEmpty
        list.isVisible = !centrals.isEmpty
        for central in centrals {
            let row = rows[central.id] ?? make(central.id)
            row.expander.title = central.title
            row.expander.subtitle = central.subtitle
            shown[central.id] = central.lines
            // A closed row's log is laid out when it opens, not with every event.
            if row.expander.isExpanded { show(central.id) }
        }
        for central in centrals where !order.contains(central.id) {
            list.append(rows[central.id]!.expander)
            order.append(central.id)
        }
    }

    private func show(_ id: String) {
        guard let row = rows[id] else { return }
        let text = (shown[id] ?? []).joined(separator: "\n")
        if row.log.text != text { row.log.text = text }
    }

    private func make(_ id: String) -> (ExpanderRow, Label) {
        let expander = ExpanderRow(title: "")
        let log = Label().xalign(0).wrap()
        log.css("monospace", "caption")
        log.isSelectable = true
        log.margins(12)
        expander.addRow(ContentRow(log, accessibleName: L10n.tr("What it did")))
        rows[id] = (expander, log)
        expander.onExpanded { [weak self] open in if open { self?.show(id) } }
        return (expander, log)
    }
}
