// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

internal import CGtkShim

/// A context menu: a GtkPopoverMenu over a menu model, so it looks, reads and moves
/// by keyboard like every other GNOME menu. Items are detailed action names
/// (`favorites.rename::KEY`) that resolve from the widget the menu points at.
@MainActor
public final class ContextMenu {
    private let popover: Widget
    private var onClosed: (() -> Void)?
    /// The menu lives until it has closed and left the widget tree.
    private var keepAlive: ContextMenu?

    /// Opens `sections` (groups of label and detailed action, split by lines) pointing at
    /// (x, y) of `parent`; `onClosed` runs when it closes, chosen or dismissed.
    @discardableResult
    public init(on parent: Widget, x: Double, y: Double, sections: [[(String, String)]],
                onClosed: (() -> Void)? = nil) {
        let menu = menuModel(sections.map { (nil, $0) })
        popover = Widget(gtk_popover_menu_new_from_model(gcast(UnsafeMutableRawPointer(menu))))
        g_object_unref(UnsafeMutableRawPointer(menu))
        self.onClosed = onClosed
        gtk_widget_set_parent(popover.widget, parent.widget)
        var rect = GdkRectangle(x: Int32(x), y: Int32(y), width: 1, height: 1)
        gtk_popover_set_pointing_to(gcast(popover.object), &rect)
        gtk_popover_set_has_arrow(gcast(popover.object), 0)
        gtk_widget_set_halign(popover.widget, GTK_ALIGN_START)
        popover.connect("closed") { [weak self] _ in
            // GTK activates the chosen item after "closed": leave the tree on the next turn.
            Task { @MainActor in self?.finish() }
        }
        keepAlive = self
        gtk_popover_popup(gcast(popover.object))
    }

    private func finish() {
        gtk_widget_unparent(popover.widget)
        let closed = onClosed
        onClosed = nil
        keepAlive = nil
        closed?()
    }
}
