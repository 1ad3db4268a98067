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
}
