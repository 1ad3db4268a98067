// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

internal import CGtkShim

/// A GTK widget we own a reference to, with the settings every view needs.
@MainActor
open class Widget: GObjectRef {
    /// The widget pointer, for the GTK calls inside GtkKit.
    var widget: UnsafeMutablePointer<GtkWidget> { gcast(object) }

    /// Wraps a new widget. A floating one is sunk and so owned here; a window is
    /// never floating (GTK's toplevel list owns it), so it gets a reference of our own.
    init(_ pointer: UnsafeMutablePointer<GtkWidget>) {
        super.init(retaining: pointer)
    }

    /// Wraps a widget someone else owns, adding our own reference.
    init(borrowing pointer: UnsafeMutablePointer<GtkWidget>) {
        super.init(retaining: pointer)
    }

    /// As a GtkAccessible, for the accessibility API.
    var accessible: OpaquePointer { OpaquePointer(object) }

    /// The name screen readers and AT-SPI automation use for this widget.
    @discardableResult
    public func accessibleLabel(_ label: String) -> Self {
        cgtk_accessible_set_label(accessible, label)
        return self
    }

    /// A longer accessible description (what a plot shows, say).
    @discardableResult
    public func accessibleDescription(_ text: String) -> Self {
        cgtk_accessible_set_description(accessible, text)
        return self
    }

    /// Marks the widget as holding what does not read, for screen readers and the eye alike
    /// (the error style and the accessible invalid state).
    public func markInvalid(_ invalid: Bool) {
        if invalid { gtk_widget_add_css_class(widget, "error") } else { gtk_widget_remove_css_class(widget, "error") }
        cgtk_widget_set_invalid(widget, invalid ? 1 : 0)
    }

    /// Hides a purely visual widget from screen readers.
    @discardableResult
    public func accessibleHidden() -> Self {
        cgtk_accessible_set_hidden(accessible, 1)
        return self
    }

    /// Says that `label` names this widget, for screen readers.
    @discardableResult
    public func accessibleLabelled(by label: Widget) -> Self {
        cgtk_accessible_set_labelled_by(accessible, label.widget)
        return self
    }

    /// Adds CSS style classes.
    @discardableResult
    public func css(_ classes: String...) -> Self {
        for name in classes { gtk_widget_add_css_class(widget, name) }
        return self
    }

    /// Removes a CSS style class.
    public func removeCSS(_ name: String) {
        gtk_widget_remove_css_class(widget, name)
    }

    /// Whether the widget has the CSS style class `name`.
    public func hasCSS(_ name: String) -> Bool {
        gtk_widget_has_css_class(widget, name) != 0
    }

    /// Sets all four margins, in pixels.
    @discardableResult
    public func margins(_ value: Int32) -> Self {
        gtk_widget_set_margin_top(widget, value)
        gtk_widget_set_margin_bottom(widget, value)
        gtk_widget_set_margin_start(widget, value)
        gtk_widget_set_margin_end(widget, value)
        return self
    }

    /// The room under it, in pixels.
    public var marginBottom: Int32 {
        get { gtk_widget_get_margin_bottom(widget) }
        set { gtk_widget_set_margin_bottom(widget, newValue) }
    }

    /// Lets the widget take spare room.
    @discardableResult
    public func expand(horizontal: Bool = true, vertical: Bool = true) -> Self {
        gtk_widget_set_hexpand(widget, horizontal ? 1 : 0)
        gtk_widget_set_vexpand(widget, vertical ? 1 : 0)
        return self
    }

    /// Alignment within the allocated space.
    @discardableResult
    public func align(_ horizontal: Align, _ vertical: Align) -> Self {
        gtk_widget_set_halign(widget, horizontal.gtk)
        gtk_widget_set_valign(widget, vertical.gtk)
        return self
    }

    /// The smallest size the widget may get, in pixels (-1 leaves a side to the content).
    @discardableResult
    public func sizeRequest(width: Int32, height: Int32) -> Self {
        gtk_widget_set_size_request(widget, width, height)
        return self
    }

    /// Tooltip text; also read by screen readers as a description.
    @discardableResult
    public func tooltip(_ text: String) -> Self {
        // Setting a tooltip on a visible widget asks the X server where the pointer is (GTK's
        // tooltip query: about three round trips, five buttons' worth held the first window
        // back): skip no-ops, and set it on a widget placed nowhere yet while it is hidden,
        // which skips the query. Such a widget cannot be under the pointer.
        if let current = gtk_widget_get_tooltip_text(widget), String(cString: current) == text { return self }
        if gtk_widget_get_parent(widget) == nil, gtk_widget_get_root(widget) == nil, gtk_widget_get_visible(widget) != 0 {
            gtk_widget_set_visible(widget, 0)
            gtk_widget_set_tooltip_text(widget, text)
            gtk_widget_set_visible(widget, 1)
        } else {
            gtk_widget_set_tooltip_text(widget, text)
        }
        return self
    }

    /// Whether the widget is shown.
    public var isVisible: Bool {
        get { gtk_widget_get_visible(widget) != 0 }
        set { gtk_widget_set_visible(widget, newValue ? 1 : 0) }
    }

    /// Whether the widget reacts to input.
    public var isSensitive: Bool {
        get { gtk_widget_get_sensitive(widget) != 0 }
        set { gtk_widget_set_sensitive(widget, newValue ? 1 : 0) }
    }

    /// The width GTK gave the widget at the last layout, in pixels.
    public var allocatedWidth: Int32 { gtk_widget_get_allocated_width(widget) }

    /// The height GTK gave the widget at the last layout, in pixels.
    public var allocatedHeight: Int32 { gtk_widget_get_allocated_height(widget) }

    /// Keeps `object` (an observation token, say) alive as long as the GTK widget lives,
    /// even after this Swift wrapper is gone.
    public func keep(_ object: AnyObject) {
        connect("destroy") { _ in withExtendedLifetime(object) {} }
    }

    /// Moves keyboard focus here.
    public func grabFocus() { _ = gtk_widget_grab_focus(widget) }

    /// Moves the keyboard focus here and draws its ring, as after a dialog answered with the
    /// keyboard: GTK draws rings only once a key was pressed in this window, and that key was
    /// pressed in the dialog.
    public func grabFocusVisibly() {
        grabFocus()
        guard let root = gtk_widget_get_root(widget) else { return }
        gtk_window_set_focus_visible(UnsafeMutableRawPointer(root).assumingMemoryBound(to: GtkWindow.self), 1)
    }

    /// Moves the keyboard focus to the first control inside, in Tab order; false when there is none.
    @discardableResult
    public func focusFirst() -> Bool { gtk_widget_child_focus(widget, GTK_DIR_TAB_FORWARD) != 0 }

    /// Whether the window's focus is on this widget or inside it (an entry's focus is on its text).
    public var holdsFocus: Bool {
        guard let focus = gtk_root_get_focus(gtk_widget_get_root(widget)) else { return false }
        return focus == widget || gtk_widget_is_ancestor(focus, widget) != 0
    }

    /// Sounds the desktop's error bell (or flashes, as the user chose): input refused here.
    public func errorBell() { gtk_widget_error_bell(widget) }

    /// Whether this widget holds the keyboard focus of its window.
    public var hasFocus: Bool { gtk_widget_has_focus(widget) != 0 }

    /// Whether the focus may go to this widget or anything inside it: false takes a whole
    /// subtree of things to read, not to operate, out of the Tab order.
    public var canFocus: Bool {
        get { gtk_widget_get_can_focus(widget) != 0 }
        set { gtk_widget_set_can_focus(widget, newValue ? 1 : 0) }
    }

    /// Whether Tab and a click can give this widget the keyboard focus.
    public var isFocusable: Bool {
        get { gtk_widget_get_focusable(widget) != 0 }
        set { gtk_widget_set_focusable(widget, newValue ? 1 : 0) }
    }

    /// The point (x, y) of this widget in `other`'s coordinates; nil if they share no window.
    public func translate(x: Double, y: Double, to other: Widget) -> (x: Double, y: Double)? {
        var outX = 0.0, outY = 0.0
        guard gtk_widget_translate_coordinates(widget, other.widget, x, y, &outX, &outY) != 0 else { return nil }
        return (outX, outY)
    }

    /// Whether the widget is in a window and on screen, so focus can be given back to it.
    public var isShownInWindow: Bool {
        gtk_widget_get_root(widget) != nil && gtk_widget_get_mapped(widget) != 0
    }

    /// Activates a GAction by its detailed name (`win.back`), looked up from here up to
    /// the window and the application, as a shortcut or a button would; false if none.
    @discardableResult
    public func activateAction(_ name: String) -> Bool {
        gtk_widget_activate_action_variant(widget, name, nil) != 0
    }

    /// Adds an event controller (keys, clicks, motion); the widget takes ownership.
    func add(controller: OpaquePointer) {
        gtk_widget_add_controller(widget, controller)
    }
}
