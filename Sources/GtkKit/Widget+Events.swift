// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

internal import CGtkShim

/// Input events and frame timing. Each handler is held by its signal connection, which
/// the widget's event controller owns, so it lives exactly as long as the widget.
extension Widget {
    /// Runs `handler` for key presses reaching this widget; return true when the key was handled.
    /// With `beforeChildren`, the widget sees keys before its children do (an entry's text would take Up).
    public func onKeyPressed(beforeChildren: Bool = false, _ handler: @escaping (Key, KeyModifiers) -> Bool) {
        let controller = gtk_event_controller_key_new()!
        if beforeChildren { gtk_event_controller_set_propagation_phase(controller, GTK_PHASE_CAPTURE) }
        Signals.connect(UnsafeMutableRawPointer(controller), "key-pressed") { args in
            args.setReturn(handler(Key(keyval: args.uint(1)), KeyModifiers(rawValue: args.flags(3))))
        }
        add(controller: controller)
    }

    /// Makes this widget (a list) one Tab stop: Tab and Shift+Tab leave it for the controls after
    /// and before it, while the arrows move inside. GTK 4.8's lists let Tab walk every row.
    public func tabLeavesAtOnce() {
        onKeyPressed(beforeChildren: true) { [weak self] key, modifiers in
            guard let self, Key.tabs.contains(key), modifiers.subtracting(.shift).isEmpty else { return false }
            return self.moveFocusPast(backward: key == .leftTab || modifiers.contains(.shift))
        }
    }

    /// Makes Shift+Tab from this widget go to `previous`, where GTK would pass over it.
    public func shiftTabFocuses(_ previous: Widget) {
        onKeyPressed { [weak previous] key, modifiers in
            guard let previous, Key.tabs.contains(key), key == .leftTab || modifiers.contains(.shift) else { return false }
            previous.grabFocus()
            return true
        }
    }

    /// Gives the focus to the first control after (or before) this widget, its siblings first and
    /// then its ancestors' siblings, as Tab would from its last (or first) control. Asking the
    /// window to move the focus with this widget closed to it lost the place: the focus went back
    /// to the window's first control, past whatever followed the list (a pill over it, a bar under it).
    private func moveFocusPast(backward: Bool) -> Bool {
        let direction = backward ? GTK_DIR_TAB_BACKWARD : GTK_DIR_TAB_FORWARD
        var current = widget
        while let parent = gtk_widget_get_parent(current) {
            var sibling = backward ? gtk_widget_get_prev_sibling(current) : gtk_widget_get_next_sibling(current)
            while let candidate = sibling {
                // A stack's hidden pages are visible widgets that are not mapped.
                if gtk_widget_get_mapped(candidate) != 0, gtk_widget_child_focus(candidate, direction) != 0 { return true }
                sibling = backward ? gtk_widget_get_prev_sibling(candidate) : gtk_widget_get_next_sibling(candidate)
            }
            current = parent
        }
        // Past the window's last control: round again from its start, as GTK does.
        canFocus = false
        let moved = gtk_widget_child_focus(current, direction)
        canFocus = true
        return moved != 0
    }

    /// Runs `handler` with the point of a secondary (right) click, in this widget's coordinates.
    public func onSecondaryClick(_ handler: @escaping (Double, Double) -> Void) {
        let click = gtk_gesture_click_new()!
        gtk_gesture_single_set_button(gcast(UnsafeMutableRawPointer(click)), 3)
        Signals.connect(UnsafeMutableRawPointer(click), "pressed") { args in
            handler(args.double(2), args.double(3))
        }
        add(controller: click)
    }

    /// Runs `handler` when a primary click on this widget is released.
    public func onClickReleased(_ handler: @escaping () -> Void) {
        let click = gtk_gesture_click_new()!
        Signals.connect(UnsafeMutableRawPointer(click), "released") { _ in handler() }
        add(controller: click)
    }

    /// Runs `handler` with true when the pointer enters this widget and false when it leaves.
    public func onPointerInside(_ handler: @escaping (Bool) -> Void) {
        let motion = gtk_event_controller_motion_new()!
        Signals.connect(UnsafeMutableRawPointer(motion), "enter") { _ in handler(true) }
        Signals.connect(UnsafeMutableRawPointer(motion), "leave") { _ in handler(false) }
        add(controller: motion)
    }

    /// Runs `handler` with true when keyboard focus moves into this widget (or a child)
    /// and false when it moves out.
    public func onFocusInside(_ handler: @escaping (Bool) -> Void) {
        let focus = gtk_event_controller_focus_new()!
        Signals.connect(UnsafeMutableRawPointer(focus), "enter") { _ in handler(true) }
        Signals.connect(UnsafeMutableRawPointer(focus), "leave") { _ in handler(false) }
        add(controller: focus)
    }

    /// Runs `handler` after every frame the widget's window paints, from the first one
    /// on (it waits for the widget to be mapped); return false to stop.
    public func onAfterPaint(_ handler: @escaping () -> Bool) {
        if let clock = gtk_widget_get_frame_clock(widget) {
            Self.connectAfterPaint(clock, handler)
            return
        }
        var mapID: UInt = 0
        mapID = connect("map") { [weak self] _ in
            guard let self, let clock = gtk_widget_get_frame_clock(self.widget) else { return }
            Signals.disconnect(self.object, mapID)
            Self.connectAfterPaint(clock, handler)
        }
    }

    /// Asks the frame clock for a frame every refresh (`on`) or only when something changed, so
    /// a benchmark's frame intervals show how long the main thread keeps a frame waiting.
    public func keepFrameClockRunning(_ on: Bool) {
        guard let clock = gtk_widget_get_frame_clock(widget) else { return }
        if on { gdk_frame_clock_begin_updating(clock) } else { gdk_frame_clock_end_updating(clock) }
    }

    /// The frame clock belongs to the window, which outlives the handler's use of it:
    /// the connection ends with the clock or when `handler` says so.
    private static func connectAfterPaint(_ clock: OpaquePointer, _ handler: @escaping () -> Bool) {
        let instance = UnsafeMutableRawPointer(clock)
        var id: UInt = 0
        id = Signals.connect(instance, "after-paint") { _ in
            if !handler() { Signals.disconnect(instance, id) }
        }
    }
}
