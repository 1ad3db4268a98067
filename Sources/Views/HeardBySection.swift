// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import GtkKit
import Localization
import ViewModels

/// Heard By on a device's page: each source that heard it (a room's gateway, this computer),
/// with its signal, how long ago, and a small plot of its last minutes; its room marked. Rows are
/// changed in place, and added when another source hears it. Hidden where one source alone is in use.
@MainActor
final class HeardBySection {
    let root = Box(vertical: true, spacing: 6)
    private let list = BoxedList(accessibleName: L10n.tr("Heard By"))
    /// The rows shown, by source, changed in place while the sources and their order stay.
    private var rows: [(name: String, room: Label, detail: Label, plot: ValuePlot, row: ContentRow)] = []

    init() {
        let heading = Label(L10n.tr("Heard By")).xalign(0)
        heading.css("heading")
        root.append(heading, list)
        root.isVisible = false
    }

    func show(_ hearings: [DeviceDetailViewModel.Hearing]) {
        root.isVisible = !hearings.isEmpty
        // Sources only join, in the order they first heard it: rows go only when the device moved to another.
        if !hearings.map(\.name).starts(with: rows.map(\.name)) { clear() }
        for name in hearings.map(\.name).dropFirst(rows.count) { add(name) }
        for (hearing, row) in zip(hearings, rows) {
            row.room.isVisible = hearing.isRoom
            row.detail.text = hearing.detail
            row.plot.show(hearing.readings, scale: nil, axis: hearing.axis, name: hearing.name, summary: hearing.detail)
            row.row.accessibleLabel(hearing.spoken)
        }
    }

    private func clear() {
        list.removeAll()
        rows = []
    }

    private func add(_ source: String) {
        let name = Label(source).xalign(0).wrap()
        name.expand(horizontal: true, vertical: false)
        let room = Label(L10n.tr("Its room")).css("caption", "accent")
        let top = Box(vertical: false, spacing: 6).append(name, room)
        let detail = Label().xalign(0).css("caption", "dim-text", "numeric")
        let plot = ValuePlot()
        let box = Box(vertical: true, spacing: 2).append(top, detail, plot.root)
        box.margins(10)
        let row = ContentRow(box, accessibleName: source)
        list.append(row)
        rows.append((source, room, detail, plot, row))
    }
}
