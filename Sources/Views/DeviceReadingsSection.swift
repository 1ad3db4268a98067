// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import GtkKit
import Localization
import ViewModels

/// A sensor's readings on its page: the maker and model, then each quantity as a small
/// caption over a large figure with its unit, and how old they are. Tiles are kept per reading
/// and only their text changes, so the focus and the reader's place stay put.
@MainActor
final class DeviceReadingsSection {
    // MARK: Widgets
    let root = Box(vertical: true, spacing: 6)
    private let model = Label()
    private let tiles = FlowBox(maxPerLine: 6, columnSpacing: 18, rowSpacing: 6)
    private let note = Label()
    private let age = Label()

    // MARK: Owned
    private var shown: [String: (box: Box, caption: Label, value: Label)] = [:]
    private var order: [String] = []

    init() {
        let heading = Label(L10n.tr("Readings")).xalign(0)
        heading.css("heading")
        model.xalign(0).wrap()
        model.css("dim-text")
        note.xalign(0).wrap()
        age.xalign(0)
        age.css("caption", "dim-text")
        tiles.canFocus = false
        tiles.accessibleLabel(L10n.tr("Readings"))
        root.append(heading, model, tiles, note, age)
        root.isVisible = false
    }

    /// Shows `readings` (hides the section for none), heard `heard` ("Last heard just now").
    func show(_ readings: DeviceDetailViewModel.Readings?, heard: String) {
        root.isVisible = readings != nil
        guard let readings else { return }
        model.text = readings.model ?? ""
        model.isVisible = readings.model != nil
        note.text = readings.note ?? ""
        note.isVisible = readings.note != nil
        age.text = heard
        age.isVisible = !readings.items.isEmpty
        let keys = readings.items.map(\.key)
        if keys != order {
            tiles.removeAll()
            shown = [:]
            for item in readings.items {
                let caption = Label(item.caption)
                caption.css("caption", "dim-text")
                let value = Label(item.value)
                value.css("reading-value", "numeric")
                let box = Box(vertical: true, spacing: 2).append(caption, value)
                box.margins(6)
                tiles.append(box)
                shown[item.key] = (box, caption, value)
            }
            order = keys
        }
        for item in readings.items {
            guard let tile = shown[item.key] else { continue }
            if tile.caption.text != item.caption { tile.caption.text = item.caption }
            if tile.value.text != item.value { tile.value.text = item.value }
            tile.box.accessibleLabel(L10n.format("{}: {}", item.caption, item.value))
        }
    }
}
