// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

internal import CGtkShim

/// A popover with a column of flat buttons, for context menus.
@MainActor
public final class ActionPopover {
    private let popover: Widget

    /// Shows `items` (label, action) pointing at (x, y) of `parent`.
    @discardableResult
    public init(parent: Widget, x: Double, y: Double, items: [(String, () -> Void)]) {
        popover = Widget(gtk_popover_new())
        let box = Box(vertical: true, spacing: 0)
        for (label, action) in items {
            let button = Button(label: label, mnemonic: true)
            button.css("flat")
            button.align(.fill, .fill)
            button.onClicked { [weak self] in
                self?.popdown()
                action()
            }
            box.append(button)
        }
        gtk_popover_set_child(gcast(popover.object), box.widget)
        gtk_widget_set_parent(popover.widget, parent.widget)
        var rect = GdkRectangle(x: Int32(x), y: Int32(y), width: 1, height: 1)
        gtk_popover_set_pointing_to(gcast(popover.object), &rect)
        gtk_popover_set_has_arrow(gcast(popover.object), 0)
        popover.connect("closed") { [weak self] _ in
            // Unparent after closing, so the popover does not linger in the widget tree.
            Task { @MainActor in self?.unparent() }
        }
        keepAlive = self
        gtk_popover_popup(gcast(popover.object))
    }

    private var keepAlive: ActionPopover?

    private func popdown() { gtk_popover_popdown(gcast(popover.object)) }

    private func unparent() {
        gtk_widget_unparent(popover.widget)
        keepAlive = nil
    }
}
