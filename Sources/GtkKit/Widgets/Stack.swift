// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import CGtkShim

/// A GtkStack showing one named child at a time, with an animated transition.
@MainActor
public final class Stack: Widget {
    /// A stack using `transition` over `durationMs` milliseconds.
    public init(transition: GtkStackTransitionType, durationMs: UInt32 = 250) {
        super.init(gtk_stack_new())
        gtk_stack_set_transition_type(stack, transition)
        gtk_stack_set_transition_duration(stack, durationMs)
    }

    private var stack: OpaquePointer { gcast(object) }
    private var children: [String: Widget] = [:]

    /// Adds `child` under `name`; it stays hidden until shown.
    public func add(_ child: Widget, name: String) {
        gtk_stack_add_named(stack, child.widget, name)
        children[name] = child
        if gtk_stack_get_visible_child(stack) != child.widget { child.isVisible = false }
    }

    /// Removes `child`.
    public func remove(_ child: Widget) {
        gtk_stack_remove(stack, child.widget)
        children = children.filter { $0.value !== child }
    }

    /// Shows the child named `name`, optionally with another transition this time.
    /// The others are hidden, not just covered, so screen readers skip them.
    public func show(_ name: String, transition: GtkStackTransitionType? = nil) {
        children[name]?.isVisible = true
        defer {
            for (other, child) in children where other != name { child.isVisible = false }
        }
        if let transition {
            gtk_stack_set_visible_child_full(stack, name, transition)
        } else {
            gtk_stack_set_visible_child_name(stack, name)
        }
    }

    /// The name of the child on show.
    public var visibleName: String? {
        gtk_stack_get_visible_child_name(stack).map { String(cString: $0) }
    }
}
