// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import CGtkShim

/// GAction helpers for any GActionMap (an application or an application window).
@MainActor
public enum Actions {
    /// Adds a stateless action `name` to `map` that runs `handler` when activated.
    @discardableResult
    public static func add(to map: UnsafeMutableRawPointer, _ name: String,
                           _ handler: @escaping () -> Void) -> OpaquePointer {
        let action = g_simple_action_new(name, nil)!
        Signals.connect(UnsafeMutableRawPointer(action), "activate") { _ in handler() }
        g_action_map_add_action(OpaquePointer(map), action)
        g_object_unref(UnsafeMutableRawPointer(action))
        return action
    }

    /// Enables or disables an action (disabled actions grey out their buttons and menu items).
    public static func setEnabled(_ action: OpaquePointer, _ enabled: Bool) {
        g_simple_action_set_enabled(action, enabled ? 1 : 0)
    }

    /// A new action group, to insert under a prefix on one widget (`scanner.sort`).
    public static func group(on widget: Widget, prefix: String) -> UnsafeMutableRawPointer {
        let group = g_simple_action_group_new()!
        gtk_widget_insert_action_group(widget.widget, prefix, gcast(UnsafeMutableRawPointer(group)))
        g_object_unref(UnsafeMutableRawPointer(group))
        return UnsafeMutableRawPointer(group)
    }

    /// A check-box action: each activation flips the state and calls `handler` with it.
    @discardableResult
    public static func addToggle(to map: UnsafeMutableRawPointer, _ name: String, initial: Bool,
                                 _ handler: @escaping (Bool) -> Void) -> OpaquePointer {
        let action = g_simple_action_new_stateful(name, nil, g_variant_new_boolean(initial ? 1 : 0))!
        Signals.connect(UnsafeMutableRawPointer(action), "activate") { _ in
            let state = g_action_get_state(action)!
            let value = g_variant_get_boolean(state) == 0
            g_variant_unref(state)
            g_simple_action_set_state(action, g_variant_new_boolean(value ? 1 : 0))
            handler(value)
        }
        g_action_map_add_action(OpaquePointer(map), action)
        g_object_unref(UnsafeMutableRawPointer(action))
        return action
    }

    /// A radio action over strings (`sort::name`): activation selects one and calls `handler`.
    @discardableResult
    public static func addChoice(to map: UnsafeMutableRawPointer, _ name: String, initial: String,
                                 _ handler: @escaping (String) -> Void) -> OpaquePointer {
        let type = g_variant_type_new("s")
        defer { g_variant_type_free(type) }
        let action = g_simple_action_new_stateful(name, type, g_variant_new_string(initial))!
        Signals.connect(UnsafeMutableRawPointer(action), "activate") { arguments in
            guard let parameter = arguments.variant(1) else { return }
            let value = String(cString: g_variant_get_string(parameter, nil))
            g_simple_action_set_state(action, g_variant_new_string(value))
            handler(value)
        }
        g_action_map_add_action(OpaquePointer(map), action)
        g_object_unref(UnsafeMutableRawPointer(action))
        return action
    }

    /// Sets a check-box action's state without running its handler.
    public static func setState(_ action: OpaquePointer, _ value: Bool) {
        g_simple_action_set_state(action, g_variant_new_boolean(value ? 1 : 0))
    }

    /// Sets a radio action's state without running its handler.
    public static func setState(_ action: OpaquePointer, _ value: String) {
        g_simple_action_set_state(action, g_variant_new_string(value))
    }
}
