// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import CGio
import Foundation

/// One method call to an object this process serves. Answer it once, from any thread.
public final class DBusMethodCall: @unchecked Sendable {
    /// The caller's unique bus name (":1.42").
    public let sender: String
    /// The method called.
    public let method: String
    /// Its arguments, in order.
    public let arguments: [DBusValue]
    private let lock = NSLock()
    private var invocation: OpaquePointer?

    init(sender: String, method: String, arguments: [DBusValue], invocation: OpaquePointer) {
        self.sender = sender
        self.method = method
        self.arguments = arguments
        self.invocation = invocation
    }

    deinit {
        // Never answered: the caller hears so rather than waiting out its timeout.
        fail("org.freedesktop.DBus.Error.Failed", "No answer")
    }

    private func take() -> OpaquePointer? {
        lock.withLock {
            defer { invocation = nil }
            return invocation
        }
    }

    /// Returns `values` as the reply.
    public func reply(_ values: [DBusValue] = []) {
        guard let invocation = take() else { return }
        guard let variant = try? DBusValue.tuple(values).makeGVariant() else {
            g_dbus_method_invocation_return_dbus_error(invocation, "org.freedesktop.DBus.Error.Failed", "Unsupported reply")
            return
        }
        g_dbus_method_invocation_return_value(invocation, variant)
    }

    /// Fails the call with the D-Bus error `name` ("org.bluez.Error.Rejected").
    public func fail(_ name: String, _ message: String) {
        guard let invocation = take() else { return }
        g_dbus_method_invocation_return_dbus_error(invocation, name, message)
    }
}

/// An object served on a connection; `unexport()` (or the connection closing) ends it.
public final class DBusExport: @unchecked Sendable {
    fileprivate let handler: @Sendable (DBusMethodCall) -> Void
    /// The value of a property the interface declares, for Properties.Get and GetAll; nil for none.
    fileprivate let property: (@Sendable (String) -> DBusValue?)?
    fileprivate var id: guint = 0
    fileprivate weak var connection: DBusConnection?

    fileprivate init(handler: @escaping @Sendable (DBusMethodCall) -> Void, property: (@Sendable (String) -> DBusValue?)?) {
        self.handler = handler
        self.property = property
    }

    /// Stops serving the object.
    public func unexport() {
        guard let connection, id != 0 else { return }
        let id = self.id
        self.id = 0
        connection.unregister(id)
    }
}

extension DBusConnection {
    /// Serves the one interface that `xml` (introspection data) describes at `path`. Every call
    /// goes to `handler` on the connection's thread; the handler answers through the call,
    /// then or later.
    /// `property` answers Properties.Get and GetAll for the properties the XML declares, as GDBus
    /// asks on the connection's thread.
    public func export(path: String, xml: String, property: (@Sendable (String) -> DBusValue?)? = nil,
                       handler: @escaping @Sendable (DBusMethodCall) -> Void) throws(DBusError) -> DBusExport {
        var error: UnsafeMutablePointer<GError>?
        guard let node = g_dbus_node_info_new_for_xml(xml, &error) else { throw Self.mapped(error) }
        defer { g_dbus_node_info_unref(node) }
        guard let interface = node.pointee.interfaces?.pointee else {
            throw .invalidValue("no interface in the introspection data")
        }
        let export = DBusExport(handler: handler, property: property)
        export.connection = self
        let result: Result<guint, DBusError> = registerOnThread(path: path, interface: interface, export: export)
        export.id = try result.get()
        return export
    }
}

/// The one vtable every export shares; it finds its export through the user data.
private let methodCallHandler: GDBusInterfaceMethodCallFunc = { _, sender, _, _, method, parameters, invocation, data in
    guard let data, let invocation else { return }
    let export = Unmanaged<DBusExport>.fromOpaque(data).takeUnretainedValue()
    let arguments = parameters.flatMap { try? DBusValue(gvariant: $0) }?.items ?? []
    let call = DBusMethodCall(sender: sender.map { String(cString: $0) } ?? "",
                              method: method.map { String(cString: $0) } ?? "",
                              arguments: arguments, invocation: invocation)
    export.handler(call)
}

/// Properties.Get for every export: a floating value GDBus takes, or nil with the error set.
private let propertyHandler: GDBusInterfaceGetPropertyFunc = { _, _, _, _, name, error, data in
    guard let data, let name else { return nil }
    let export = Unmanaged<DBusExport>.fromOpaque(data).takeUnretainedValue()
    guard let value = export.property?(String(cString: name)), let variant = try? value.makeGVariant() else {
        g_set_error_literal(error, g_dbus_error_quark(), Int32(G_DBUS_ERROR_UNKNOWN_PROPERTY.rawValue), "No such property")
        return nil
    }
    return variant
}

// Written once, then only read by GIO.
nonisolated(unsafe) private let sharedVTable: UnsafeMutablePointer<GDBusInterfaceVTable> = {
    let table = UnsafeMutablePointer<GDBusInterfaceVTable>.allocate(capacity: 1)
    table.initialize(to: GDBusInterfaceVTable())
    table.pointee.method_call = methodCallHandler
    table.pointee.get_property = propertyHandler
    return table
}()

extension DBusConnection {
    /// Emits a signal from an object this process serves (PropertiesChanged, InterfacesAdded).
    public func emit(path: String, interface: String, signal: String, _ args: [DBusValue]) {
        guard let parameters = try? DBusValue.tuple(args).makeGVariant() else { return }
        let sent = perform { [raw] in
            _ = g_dbus_connection_emit_signal(raw, nil, path, interface, signal, parameters, nil)
        }
        if !sent { g_variant_unref(g_variant_ref_sink(parameters)) }
    }

    /// This connection's unique name on the bus (":1.42"), as BlueZ sees the caller.
    public var uniqueName: String? {
        g_dbus_connection_get_unique_name(raw).map { String(cString: $0) }
    }
}

extension DBusConnection {
    /// Registers on the connection's thread, so GIO dispatches calls there.
    fileprivate func registerOnThread(path: String, interface: UnsafeMutablePointer<GDBusInterfaceInfo>,
                                      export: DBusExport) -> Result<guint, DBusError> {
        let semaphore = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var result: Result<guint, DBusError> = .failure(.disconnected)
        let info = InterfaceRef(pointer: g_dbus_interface_info_ref(interface))
        let started = perform { [raw, info] in
            var error: UnsafeMutablePointer<GError>?
            let id = g_dbus_connection_register_object(
                raw, path, info.pointer, sharedVTable, Unmanaged.passRetained(export).toOpaque(),
                { data in Unmanaged<DBusExport>.fromOpaque(data!).release() }, &error)
            result = id == 0 ? .failure(Self.mapped(error)) : .success(id)
            g_dbus_interface_info_unref(info.pointer)
            semaphore.signal()
        }
        if started { semaphore.wait() } else { g_dbus_interface_info_unref(info.pointer) }
        return result
    }

    fileprivate func unregister(_ id: guint) {
        perform { [raw] in _ = g_dbus_connection_unregister_object(raw, id) }
    }
}

private struct InterfaceRef: @unchecked Sendable { let pointer: UnsafeMutablePointer<GDBusInterfaceInfo> }
