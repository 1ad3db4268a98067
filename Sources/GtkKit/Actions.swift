// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

internal import CGtkShim

/// One GSimpleAction: what a button, a menu item or a shortcut activates.
@MainActor
public final class Action: GObjectRef {
    private var action: OpaquePointer { gcast(UnsafeMutableRawPointer(object)) }

    /// Wraps a new action (`transfer full`).
    fileprivate init(_ action: OpaquePointer) {
        super.init(adopting: UnsafeMutableRawPointer(action))
    }

    /// Whether the action can run (disabled actions grey out their buttons and menu items).
    public var isEnabled: Bool {
        get { g_action_get_enabled(action) != 0 }
        set { g_simple_action_set_enabled(action, newValue ? 1 : 0) }
    }

    /// Sets a check-box action's state without running its handler.
    public func setState(_ value: Bool) {
        g_simple_action_set_state(action, g_variant_new_boolean(value ? 1 : 0))
    }

    /// Sets a radio action's state without running its handler.
    public func setState(_ value: String) {
        g_simple_action_set_state(action, g_variant_new_string(value))
    }

    /// A check-box action's state.
    public var boolState: Bool {
        guard let state = g_action_get_state(action) else { return false }
        defer { g_variant_unref(state) }
        return g_variant_get_boolean(state) != 0
    }
}

/// A GSimpleActionGroup inserted under a prefix on one widget (`scanner.sort`), so the
/// widget and its children can activate its actions.
@MainActor
public final class ActionGroup: GObjectRef {
    /// A new group, inserted on `widget` under `prefix`; the widget keeps it as long as it lives.
    public init(on widget: Widget, prefix: String) {
        super.init(adopting: UnsafeMutableRawPointer(g_simple_action_group_new()!))
        gtk_widget_insert_action_group(widget.widget, prefix, gcast(UnsafeMutableRawPointer(object)))
    }

    /// Adds a stateless action `name` that runs `handler` when activated.
    @discardableResult
    public func add(_ name: String, _ handler: @escaping () -> Void) -> Action {
        Actions.add(to: UnsafeMutableRawPointer(object), name, handler)
    }

    /// A check-box action: each activation flips the state and calls `handler` with it.
    @discardableResult
    public func addToggle(_ name: String, initial: Bool, _ handler: @escaping (Bool) -> Void) -> Action {
        Actions.addToggle(to: UnsafeMutableRawPointer(object), name, initial: initial, handler)
    }

    /// A stateless action taking a string (`favorites.rename::KEY`): a menu item names
    /// the thing it acts on, so it still acts on that thing when a list re-sorts under it.
    @discardableResult
    public func addTargeted(_ name: String, _ handler: @escaping (String) -> Void) -> Action {
        Actions.addTargeted(to: UnsafeMutableRawPointer(object), name, handler)
    }

    /// A radio action over strings (`sort::name`): activation selects one and calls `handler`.
    @discardableResult
    public func addChoice(_ name: String, initial: String, _ handler: @escaping (String) -> Void) -> Action {
        Actions.addChoice(to: UnsafeMutableRawPointer(object), name, initial: initial, handler)
    }
}

/// GAction helpers for any GActionMap (an application, a window or an action group).
@MainActor
enum Actions {
    /// Adds a stateless action `name` to `map` that runs `handler` when activated.
    @discardableResult
    static func add(to map: UnsafeMutableRawPointer, _ name: String, _ handler: @escaping () -> Void) -> Action {
        let action = g_simple_action_new(name, nil)!
        Signals.connect(UnsafeMutableRawPointer(action), "activate") { _ in handler() }
        g_action_map_add_action(OpaquePointer(map), action)
        return Action(action)
    }

    /// A check-box action: each activation flips the state and calls `handler` with it.
    static func addToggle(to map: UnsafeMutableRawPointer, _ name: String, initial: Bool,
                          _ handler: @escaping (Bool) -> Void) -> Action {
        let action = g_simple_action_new_stateful(name, nil, g_variant_new_boolean(initial ? 1 : 0))!
        Signals.connect(UnsafeMutableRawPointer(action), "activate") { _ in
            let state = g_action_get_state(action)!
            let value = g_variant_get_boolean(state) == 0
            g_variant_unref(state)
            g_simple_action_set_state(action, g_variant_new_boolean(value ? 1 : 0))
            handler(value)
        }
        g_action_map_add_action(OpaquePointer(map), action)
        return Action(action)
    }

    /// A stateless action with a string parameter.
    static func addTargeted(to map: UnsafeMutableRawPointer, _ name: String,
                            _ handler: @escaping (String) -> Void) -> Action {
        let type = g_variant_type_new("s")
        defer { g_variant_type_free(type) }
        let action = g_simple_action_new(name, type)!
        Signals.connect(UnsafeMutableRawPointer(action), "activate") { arguments in
            guard let parameter = arguments.variant(1) else { return }
            handler(String(cString: g_variant_get_string(parameter, nil)))
        }
        g_action_map_add_action(OpaquePointer(map), action)
        return Action(action)
    }

    /// A radio action over strings: activation selects one and calls `handler`.
    static func addChoice(to map: UnsafeMutableRawPointer, _ name: String, initial: String,
                          _ handler: @escaping (String) -> Void) -> Action {
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
        return Action(action)
    }
}
