// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

internal import CGtkShim

/// The parameters of one signal emission, index 0 being the emitting instance.
struct SignalArguments {
    let count: Int
    let values: UnsafePointer<GValue>?
    /// Where a handler writes its return value, for signals that have one.
    let returnValue: UnsafeMutablePointer<GValue>?

    /// The object parameter at `index`, or nil.
    func object(_ index: Int) -> UnsafeMutableRawPointer? {
        guard index < count, let values, cgtk_value_holds_object(values + index) != 0 else { return nil }
        return g_value_get_object(values + index)
    }

    /// The unsigned integer parameter at `index` (keyvals, positions).
    func uint(_ index: Int) -> UInt32 {
        guard index < count, let values else { return 0 }
        return g_value_get_uint(values + index)
    }

    /// The flags parameter at `index` (modifier state).
    func flags(_ index: Int) -> UInt32 {
        guard index < count, let values else { return 0 }
        return g_value_get_flags(values + index)
    }

    /// The integer parameter at `index`.
    func int(_ index: Int) -> Int32 {
        guard index < count, let values else { return 0 }
        return g_value_get_int(values + index)
    }

    /// The double parameter at `index` (pointer coordinates).
    func double(_ index: Int) -> Double {
        guard index < count, let values else { return 0 }
        return g_value_get_double(values + index)
    }

    /// The pointer parameter at `index` (an out-parameter, say).
    func pointer(_ index: Int) -> UnsafeMutableRawPointer? {
        guard index < count, let values else { return nil }
        return g_value_get_pointer(values + index)
    }

    /// The boxed parameter at `index` (a GVariantDict, say).
    func boxed(_ index: Int) -> UnsafeMutableRawPointer? {
        guard index < count, let values else { return nil }
        return g_value_get_boxed(values + index)
    }

    /// The string parameter at `index`.
    func string(_ index: Int) -> String? {
        guard index < count, let values, let text = g_value_get_string(values + index) else { return nil }
        return String(cString: text)
    }

    /// The GVariant parameter at `index` (an action's parameter), borrowed.
    func variant(_ index: Int) -> OpaquePointer? {
        guard index < count, let values else { return nil }
        return g_value_get_variant(values + index)
    }

    /// Sets an integer return value.
    func setReturnInt(_ value: Int32) {
        if let returnValue { g_value_set_int(returnValue, value) }
    }

    /// Sets a boolean return value ("handled").
    func setReturn(_ handled: Bool) {
        if let returnValue { g_value_set_boolean(returnValue, handled ? 1 : 0) }
    }
}

/// Holds a handler while GLib holds its closure; released only from the finalize notify.
final class SignalBox {
    let handler: (SignalArguments) -> Void
    /// Boxes alive right now; tests use it to prove boxes are released.
    nonisolated(unsafe) static var live = 0

    init(_ handler: @escaping (SignalArguments) -> Void) {
        self.handler = handler
        SignalBox.live += 1
    }

    deinit { SignalBox.live -= 1 }
}

/// Signal connection for every GObject. Outside GtkKit only the count of live handlers
/// shows, so tests can prove that boxes are released.
public enum Signals {
    /// Number of handler boxes not yet released.
    public static var liveHandlers: Int { SignalBox.live }

    /// Connects a Swift closure to `signal` of `instance`. The box is retained here and
    /// released in the GClosureNotify, so it lives exactly as long as the connection.
    @discardableResult
    static func connect(_ instance: UnsafeMutableRawPointer, _ signal: String, after: Bool = false,
                               _ handler: @escaping (SignalArguments) -> Void) -> UInt {
        let box = Unmanaged.passRetained(SignalBox(handler)).toOpaque()
        let id = cgtk_signal_connect(instance, signal, { box, returnValue, count, params in
            guard let box else { return }
            let handler = Unmanaged<SignalBox>.fromOpaque(box).takeUnretainedValue().handler
            handler(SignalArguments(count: Int(count), values: params, returnValue: returnValue))
        }, box, { box, _ in
            guard let box else { return }
            Unmanaged<SignalBox>.fromOpaque(box).release()
        }, 0)
        return UInt(id)
    }

    /// Disconnects a handler; its box is released by the closure's finalize notify.
    static func disconnect(_ instance: UnsafeMutableRawPointer, _ id: UInt) {
        g_signal_handler_disconnect(instance, gulong(id))
    }
}

extension Signals {
    /// Emits a signal that has no parameters ("clicked"), as a user action would.
    static func emit(_ instance: UnsafeMutableRawPointer, _ signal: String) {
        cgtk_signal_emit_simple(instance, signal)
    }
}
