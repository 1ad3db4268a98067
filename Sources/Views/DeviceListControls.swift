// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import GtkKit

/// What a device list does with the keyboard and the secondary click: each row is a
/// focus stop named after its device, its context menu opens on right click, Menu or
/// Shift+F10, and focus goes back to where it came from when a menu or dialog closes.
@MainActor
final class DeviceListControls {
    private let list: KeyedListView<DeviceRowView>
    private let pool: DeviceButtonPool
    /// The menu of a device: sections of (label, detailed action naming the device).
    private let menu: (String) -> [[(String, String)]]

    init(list: KeyedListView<DeviceRowView>, pool: DeviceButtonPool, menu: @escaping (String) -> [[(String, String)]]) {
        self.list = list
        self.pool = pool
        self.menu = menu
        list.list.onSecondaryClick { [weak self] x, y in
            guard let self, let key = self.list.key(atX: x, y: y) else { return }
            self.openMenu(for: key, listX: x, listY: y)
        }
        list.list.onKeyPressed { [weak self] key, modifiers in
            guard let self, key == .menu || (key == .f10 && modifiers.contains(.shift)),
                  let device = self.list.focusedKey else { return false }
            self.openMenu(for: device, listX: nil, listY: nil)
            return true
        }
    }

    /// Opens `key`'s menu at the click, or under the start of its name for the keyboard.
    func openMenu(for key: String, listX: Double?, listY: Double?) {
        guard let row = list.row(showing: key) else { return }
        var point = (x: 24.0, y: Double(row.root.allocatedHeight) / 2)
        if let listX, let listY, let inRow = list.list.translate(x: listX, y: listY, to: row.root) { point = inRow }
        ContextMenu(on: row.root, x: point.x, y: point.y, sections: menu(key),
                    onClosed: { [weak self] in self?.focusRow(key) })
    }

    /// Gives focus to `key`'s row, scrolling it into view.
    func focusRow(_ key: String) {
        list.reveal(key) { $0.root.grabFocusVisibly() }
    }

    /// Gives focus back to `key`'s heart if it is still shown, else to its row, else to the list.
    func returnFocusToHeart(of key: String) {
        if let heart = pool.heart(of: key), heart.isShownInWindow {
            heart.grabFocus()
        } else if list.currentKeys.contains(key) {
            focusRow(key)
        } else {
            list.list.grabFocus()
        }
    }
}
