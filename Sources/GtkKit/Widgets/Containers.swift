// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

internal import CGtkShim

/// A GtkGrid placing children in rows and columns.
@MainActor
public final class Grid: Widget {
    /// A grid with `columnSpacing` and `rowSpacing` pixels between cells.
    public init(columnSpacing: UInt32 = 0, rowSpacing: UInt32 = 0) {
        super.init(gtk_grid_new())
        gtk_grid_set_column_spacing(gcast(object), columnSpacing)
        gtk_grid_set_row_spacing(gcast(object), rowSpacing)
    }

    /// Places `child` at (`column`, `row`), spanning `width` columns and `height` rows.
    public func attach(_ child: Widget, column: Int32, row: Int32, width: Int32 = 1, height: Int32 = 1) {
        gtk_grid_attach(gcast(object), child.widget, column, row, width, height)
    }
}

/// A GtkFlowBox that wraps its children onto new lines, like words; nothing is selectable,
/// and the children are not Tab stops (screen readers still read them in order).
@MainActor
public final class FlowBox: Widget {
    /// Children currently shown, kept so their wrappers live as long as they are shown.
    private var children: [Widget] = []

    /// A flow box with at most `maxPerLine` children on a line and the given gaps in pixels.
    public init(maxPerLine: UInt32, columnSpacing: UInt32, rowSpacing: UInt32) {
        super.init(gtk_flow_box_new())
        gtk_flow_box_set_selection_mode(gcast(object), GTK_SELECTION_NONE)
        gtk_flow_box_set_max_children_per_line(gcast(object), maxPerLine)
        gtk_flow_box_set_column_spacing(gcast(object), columnSpacing)
        gtk_flow_box_set_row_spacing(gcast(object), rowSpacing)
    }

    /// Appends `child` after the others.
    public func append(_ child: Widget) {
        gtk_flow_box_append(gcast(object), child.widget)
        // The box wraps each child in a GtkFlowBoxChild, which takes focus unless told not to.
        if let wrapper = gtk_widget_get_parent(child.widget) {
            gtk_widget_set_focusable(wrapper, 0)
            // GTK 4.8's flow box moves Tab to the next child that is sensitive itself: a wrapper
            // around a greyed-out button kept the focus where it was, and Tab went nowhere.
            let mirror = { [weak self, weak child] in
                // Only while the child is still in this box: a removed child's wrapper is gone.
                guard let self, let child, let wrapper = gtk_widget_get_parent(child.widget),
                      gtk_widget_get_parent(wrapper) == self.widget else { return }
                gtk_widget_set_sensitive(wrapper, gtk_widget_get_sensitive(child.widget))
            }
            mirror()
            child.connect("notify::sensitive") { _ in mirror() }
        }
        children.append(child)
    }

    /// Shows or hides `child` with its place: a hidden child leaves no gap in its line.
    public func setVisible(_ child: Widget, _ visible: Bool) {
        child.isVisible = visible
        if let wrapper = gtk_widget_get_parent(child.widget) { gtk_widget_set_visible(wrapper, visible ? 1 : 0) }
    }

    /// How many children are shown.
    public var count: Int { children.count }

    /// Removes every child.
    public func removeAll() {
        // GTK 4.8 has no gtk_flow_box_remove_all, so the children go one by one.
        while let child = gtk_widget_get_first_child(widget) {
            gtk_flow_box_remove(gcast(object), child)
        }
        children = []
    }
}

/// An AdwClamp: keeps its child at most so wide, centred in wider space.
@MainActor
public final class Clamp: Widget {
    private let child: Widget

    /// Holds `child` to at most `maximumSize` pixels wide.
    public init(maximumSize: Int32, child: Widget) {
        self.child = child
        super.init(adw_clamp_new())
        adw_clamp_set_maximum_size(gcast(object), maximumSize)
        adw_clamp_set_child(gcast(object), child.widget)
    }
}

/// A GtkScrolledWindow that scrolls its child vertically and never horizontally.
@MainActor
public final class ScrolledWindow: Widget {
    private let child: Widget

    /// Scrolls `child` up and down when it is taller than the space given.
    public init(child: Widget) {
        self.child = child
        super.init(gtk_scrolled_window_new())
        gtk_scrolled_window_set_policy(gcast(object), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_scrolled_window_set_child(gcast(object), child.widget)
    }
}

extension Widget {
    /// Scrolls the scrolled window around this widget so the widget shows whole (with `margin`
    /// pixels around it): a message that appears under the control that caused it would
    /// otherwise be below the fold, where focus alone does not bring it. For `seconds` after, it
    /// is kept in view while rows above it appear (a page filling in what the action changed),
    /// unless the reader scrolls first.
    public func scrollIntoView(margin: Double = 12, for seconds: Double = 2) {
        let until = g_get_monotonic_time() + gint64(seconds * 1_000_000)
        var placed: Double?
        onAfterPaint { [weak self] in
            guard let self, let scrolled = gtk_widget_get_ancestor(self.widget, gtk_scrolled_window_get_type()),
                  let adjustment = gtk_scrolled_window_get_vadjustment(gcast(scrolled)) else { return false }
            // The reader scrolled since: the view stays where they put it.
            if let placed, gtk_adjustment_get_value(adjustment) != placed { return false }
            placed = self.scrollIntoViewNow(in: scrolled, adjustment, margin: margin)
            return g_get_monotonic_time() < until
        }
    }

    /// Moves the view just enough to show the widget whole; returns the view's position after.
    private func scrollIntoViewNow(in scrolled: UnsafeMutablePointer<GtkWidget>, _ adjustment: UnsafeMutablePointer<GtkAdjustment>,
                                   margin: Double) -> Double {
        let value = gtk_adjustment_get_value(adjustment)
        var bounds = graphene_rect_t()
        // In the scrolled window's own coordinates: 0 is the top of what shows.
        guard gtk_widget_compute_bounds(widget, scrolled, &bounds) != 0 else { return value }
        let top = Double(bounds.origin.y) - margin
        let bottom = Double(bounds.origin.y + bounds.size.height) + margin
        let page = gtk_adjustment_get_page_size(adjustment)
        // Its top wins over its bottom when the widget is taller than the view.
        let shift = bottom > page ? min(bottom - page, top) : min(top, 0)
        if shift != 0 { gtk_adjustment_set_value(adjustment, value + shift) }
        return gtk_adjustment_get_value(adjustment)
    }
}

/// A GtkExpander: a labelled disclosure that shows its child when opened (technical detail
/// under a plain sentence, say).
@MainActor
public final class Expander: Widget {
    private var child: Widget?

    /// A closed expander with `label` (mnemonic: an underscore marks the access key).
    public init(label: String) {
        super.init(gtk_expander_new_with_mnemonic(label))
        Mnemonic.name(self, label)
    }

    /// The widget shown while open.
    public func setChild(_ widget: Widget) {
        child = widget
        gtk_expander_set_child(gcast(object), widget.widget)
    }

    /// Whether the child shows.
    public var isExpanded: Bool {
        get { gtk_expander_get_expanded(gcast(object)) != 0 }
        set { gtk_expander_set_expanded(gcast(object), newValue ? 1 : 0) }
    }
}

/// A GtkOverlay: widgets over a main child (a pill over a list, say).
@MainActor
public final class Overlay: Widget {
    private let child: Widget
    private var overlays: [Widget] = []

    /// Shows `child`, with what `add` places over it.
    public init(child: Widget) {
        self.child = child
        super.init(gtk_overlay_new())
        gtk_overlay_set_child(gcast(object), child.widget)
    }

    /// Places `widget` over the child, where its alignment and margins put it.
    public func add(_ widget: Widget) {
        gtk_overlay_add_overlay(gcast(object), widget.widget)
        overlays.append(widget)
    }
}
