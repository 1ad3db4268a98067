// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

internal import CGtkShim

/// Owns one strong reference to a GObject for as long as the Swift object lives.
@MainActor
open class GObjectRef {
    /// The owned instance, for the GTK calls inside GtkKit.
    let object: UnsafeMutablePointer<GObject>

    /// Takes over a `transfer full` reference; a floating one is sunk so we own it.
    init(adopting pointer: UnsafeMutableRawPointer) {
        object = pointer.assumingMemoryBound(to: GObject.self)
        if g_object_is_floating(object) != 0 {
            g_object_ref_sink(object)
        }
    }

    /// Adds a reference to a `transfer none` instance.
    init(retaining pointer: UnsafeMutableRawPointer) {
        object = pointer.assumingMemoryBound(to: GObject.self)
        g_object_ref_sink(object)
    }

    deinit {
        g_object_unref(object)
    }

    /// Connects `handler` to `signal`; it lives until the instance is finalized or disconnected.
    @discardableResult
    func connect(_ signal: String, after: Bool = false,
                 _ handler: @escaping (SignalArguments) -> Void) -> UInt {
        Signals.connect(object, signal, after: after, handler)
    }

    /// Sets a boolean property by name (for properties without a setter function).
    public func set(_ property: String, _ value: Bool) {
        var gvalue = GValue()
        g_value_init(&gvalue, GType(5 << 2)) // G_TYPE_BOOLEAN
        g_value_set_boolean(&gvalue, value ? 1 : 0)
        g_object_set_property(object, property, &gvalue)
        g_value_unset(&gvalue)
    }

    /// Sets a string property by name (for properties without a setter function).
    func setProperty(_ property: String, string value: String) {
        var gvalue = GValue()
        // G_TYPE_STRING is a macro: fundamental type 16, shifted by G_TYPE_FUNDAMENTAL_SHIFT.
        g_value_init(&gvalue, GType(16 << 2))
        g_value_set_string(&gvalue, value)
        g_object_set_property(object, property, &gvalue)
        g_value_unset(&gvalue)
    }
}
