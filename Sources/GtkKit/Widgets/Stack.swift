// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

internal import CGtkShim

/// A GtkStack showing one named child at a time, with an animated transition.
@MainActor
public final class Stack: Widget {
    /// A stack using `transition` over `durationMs` milliseconds.
    public init(transition: StackTransition, durationMs: UInt32 = 250) {
        super.init(gtk_stack_new())
        gtk_stack_set_transition_type(stack, transition.gtk)
        gtk_stack_set_transition_duration(stack, durationMs)
        connect("notify::transition-running") { [weak self] _ in
            guard let self, gtk_stack_get_transition_running(self.stack) == 0 else { return }
            self.hideCovered()
        }
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
    /// The others are hidden, not just covered, so screen readers skip them: once the
    /// transition is over, when GTK has already unmapped the one it faded out. Hiding a child
    /// that is still mapped runs GTK 4.8's crossing code while a menu's click is being handled,
    /// and that crashed on a pointer target the list had dropped (View Options → a filter).
    public func show(_ name: String, transition: StackTransition? = nil) {
        children[name]?.isVisible = true
        if let transition {
            gtk_stack_set_visible_child_full(stack, name, transition.gtk)
        } else {
            gtk_stack_set_visible_child_name(stack, name)
        }
        if gtk_stack_get_transition_running(stack) == 0 { hideCovered() }
    }

    /// Hides every child but the one on show.
    private func hideCovered() {
        let shown = gtk_stack_get_visible_child(stack)
        for child in children.values where child.widget != shown && child.isVisible { child.isVisible = false }
    }

    /// The name of the child on show.
    public var visibleName: String? {
        gtk_stack_get_visible_child_name(stack).map { String(cString: $0) }
    }
}

/// How a stack moves from one child to the next.
public enum StackTransition: Sendable {
    /// At once, without animation.
    case instant
    /// The new child fades in over the old one.
    case crossfade
    /// The new child slides in from the right (forward).
    case slideLeft
    /// The new child slides in from the left (back).
    case slideRight
    /// Left or right, by the children's order in the stack.
    case slideLeftRight

    var gtk: GtkStackTransitionType {
        switch self {
        case .instant: return GTK_STACK_TRANSITION_TYPE_NONE
        case .crossfade: return GTK_STACK_TRANSITION_TYPE_CROSSFADE
        case .slideLeft: return GTK_STACK_TRANSITION_TYPE_SLIDE_LEFT
        case .slideRight: return GTK_STACK_TRANSITION_TYPE_SLIDE_RIGHT
        case .slideLeftRight: return GTK_STACK_TRANSITION_TYPE_SLIDE_LEFT_RIGHT
        }
    }
}
