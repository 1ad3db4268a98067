// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

internal import CGtkShim

/// A GtkBox laying children out in a row or a column.
@MainActor
public final class Box: Widget {
    /// A box with `spacing` pixels between children.
    public init(vertical: Bool, spacing: Int32 = 0) {
        super.init(gtk_box_new(vertical ? GTK_ORIENTATION_VERTICAL : GTK_ORIENTATION_HORIZONTAL, spacing))
    }

    /// Appends children in order.
    @discardableResult
    public func append(_ children: Widget...) -> Self {
        for child in children { gtk_box_append(gcast(object), child.widget) }
        return self
    }

    /// Appends a raw child widget.
    func append(raw child: UnsafeMutablePointer<GtkWidget>) {
        gtk_box_append(gcast(object), child)
    }

    /// Removes a child.
    public func remove(_ child: Widget) {
        gtk_box_remove(gcast(object), child.widget)
    }
}
