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

    /// Whether it lays its children out in a column (else a row).
    public var isVertical: Bool {
        get { gtk_orientable_get_orientation(gcast(object)) == GTK_ORIENTATION_VERTICAL }
        set { gtk_orientable_set_orientation(gcast(object), newValue ? GTK_ORIENTATION_VERTICAL : GTK_ORIENTATION_HORIZONTAL) }
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
