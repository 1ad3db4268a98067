// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import CGtkShim

/// A GTK widget we own a reference to, with the settings every view needs.
@MainActor
open class Widget: GObjectRef {
    /// The widget pointer, for direct GTK calls.
    public var widget: UnsafeMutablePointer<GtkWidget> { gcast(object) }

    /// Wraps a new widget. A floating one is sunk and so owned here; a window is
    /// never floating (GTK's toplevel list owns it), so it gets a reference of our own.
    public init(_ pointer: UnsafeMutablePointer<GtkWidget>) {
        super.init(retaining: pointer)
    }

    /// Wraps a widget someone else owns, adding our own reference.
    public init(borrowing pointer: UnsafeMutablePointer<GtkWidget>) {
        super.init(retaining: pointer)
    }

    /// As a GtkAccessible, for the accessibility API.
    public var accessible: OpaquePointer { OpaquePointer(object) }

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

    /// Hides a purely visual widget from screen readers.
    @discardableResult
    public func accessibleHidden() -> Self {
        cgtk_accessible_set_hidden(accessible, 1)
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

    /// Sets all four margins, in pixels.
    @discardableResult
    public func margins(_ value: Int32) -> Self {
        gtk_widget_set_margin_top(widget, value)
        gtk_widget_set_margin_bottom(widget, value)
        gtk_widget_set_margin_start(widget, value)
        gtk_widget_set_margin_end(widget, value)
        return self
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
    public func align(_ horizontal: GtkAlign, _ vertical: GtkAlign) -> Self {
        gtk_widget_set_halign(widget, horizontal)
        gtk_widget_set_valign(widget, vertical)
        return self
    }

    /// Tooltip text; also read by screen readers as a description.
    @discardableResult
    public func tooltip(_ text: String) -> Self {
        // Setting a tooltip asks the X server where the pointer is (a round trip): skip no-ops.
        if let current = gtk_widget_get_tooltip_text(widget), String(cString: current) == text { return self }
        gtk_widget_set_tooltip_text(widget, text)
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

    /// Moves keyboard focus here.
    public func grabFocus() { _ = gtk_widget_grab_focus(widget) }

    /// Adds an event controller (keys, clicks, motion); the widget takes ownership.
    public func add(controller: OpaquePointer) {
        gtk_widget_add_controller(widget, controller)
    }
}

extension Widget {
    /// Runs `handler` for key presses reaching this widget (keyval, modifier state);
    /// return true when the key was handled.
    public func onKeyPressed(_ handler: @escaping (UInt32, UInt32) -> Bool) {
        let controller = gtk_event_controller_key_new()!
        Signals.connect(UnsafeMutableRawPointer(controller), "key-pressed") { args in
            args.setReturn(handler(args.uint(1), args.flags(3)))
        }
        add(controller: controller)
    }

    /// Runs `handler` with the point of a secondary (right) click.
    public func onSecondaryClick(_ handler: @escaping (Double, Double) -> Void) {
        let click = gtk_gesture_click_new()!
        gtk_gesture_single_set_button(gcast(UnsafeMutableRawPointer(click)), 3)
        Signals.connect(UnsafeMutableRawPointer(click), "pressed") { args in
            handler(args.double(2), args.double(3))
        }
        add(controller: click)
    }
}

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
            gtk_widget_set_halign(button.widget, GTK_ALIGN_FILL)
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
