// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import CGio
import Foundation
import Localization

/// A private GDBus connection whose replies are dispatched on a GMainContext of its
/// own, run by a dedicated thread, so neither GTK's loop nor the caller's is needed.
public final class DBusConnection: @unchecked Sendable {
    private let context: OpaquePointer
    private let loop: OpaquePointer
    private let connection: OpaquePointer
    private let stopped = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var closed = false
    private var subscribers: [ObjectIdentifier: SignalSubscriber] = [:]
    private var closedHandlerID: gulong = 0

    /// Connects to `address`, or to the system bus (GIO honours DBUS_SYSTEM_BUS_ADDRESS).
    public init(address: String? = nil) throws(DBusError) {
        var error: UnsafeMutablePointer<GError>?
        let busAddress: String
        if let address {
            busAddress = address
        } else {
            guard let found = g_dbus_address_get_for_bus_sync(G_BUS_TYPE_SYSTEM, nil, &error) else {
                throw Self.mapped(error)
            }
            busAddress = String(cString: found)
            g_free(found)
        }
        // A private connection, so close() never closes one GIO shares with others. Made with the
        // connection's own context as the thread default, so GIO emits "closed" there too.
        let flags = GDBusConnectionFlags(rawValue: G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue
                                         | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION.rawValue)
        let context = g_main_context_new()!
        g_main_context_push_thread_default(context)
        let made = g_dbus_connection_new_for_address_sync(busAddress, flags, nil, nil, &error)
        g_main_context_pop_thread_default(context)
        guard let connection = made else {
            g_main_context_unref(context)
            throw Self.mapped(error)
        }
        // The default would end the whole process when the bus goes away.
        g_dbus_connection_set_exit_on_close(connection, 0)
        self.connection = connection
        self.context = context
        loop = g_main_loop_new(context, 0)
        // When the bus goes away, every signal stream ends, so their readers learn of it.
        let closedHandler: @convention(c) (OpaquePointer?, gboolean, UnsafeMutablePointer<GError>?, gpointer?) -> Void = { _, _, _, data in
            guard let data else { return }
            Unmanaged<DBusConnection>.fromOpaque(data).takeUnretainedValue().peerVanished()
        }
        closedHandlerID = g_signal_connect_data(UnsafeMutableRawPointer(connection), "closed",
                                                unsafeBitCast(closedHandler, to: GCallback.self),
                                                Unmanaged.passUnretained(self).toOpaque(), nil, GConnectFlags(0))
        let loopRef = LoopRef(context: context, loop: loop)
        let thread = Thread.named("favblue-dbus") { [loopRef, stopped] in
            g_main_context_push_thread_default(loopRef.context)
            g_main_loop_run(loopRef.loop)
            g_main_context_pop_thread_default(loopRef.context)
            stopped.signal()
        }
        thread.start()
    }

    deinit {
        close()
        g_signal_handler_disconnect(UnsafeMutableRawPointer(connection), closedHandlerID)
        g_object_unref(UnsafeMutableRawPointer(connection))
        g_main_loop_unref(loop)
        g_main_context_unref(context)
    }

    /// Closes the connection; pending calls fail with `.disconnected`. Then stops the thread.
    public func close() {
        lock.lock()
        let wasClosed = closed
        closed = true
        lock.unlock()
        guard !wasClosed else { return }
        lock.lock()
        let open = subscribers.values
        subscribers = [:]
        lock.unlock()
        for subscriber in open {
            for id in subscriber.ids { g_dbus_connection_signal_unsubscribe(connection, id) }
            subscriber.continuation.finish()
        }
        g_dbus_connection_close_sync(connection, nil, nil)
        // Low priority: the failed replies queued on the context run before the loop quits.
        perform(priority: G_PRIORITY_LOW) { [loop] in g_main_loop_quit(loop) }
        stopped.wait()
    }

    /// The bus closed the connection (the daemon went away): signal streams end, calls fail.
    private func peerVanished() {
        let open = lock.withLock {
            let open = subscribers.values
            subscribers = [:]
            return open
        }
        for subscriber in open { subscriber.continuation.finish() }
    }

    /// Calls a method and returns its reply tuple.
    public func call(service: String, path: String, interface: String, method: String,
                     args: [DBusValue] = [], timeout: Duration = .seconds(25)) async throws(DBusError) -> DBusValue {
        try await exchange(service: service, path: path, interface: interface, method: method, args: args,
                           timeout: timeout, takingDescriptors: false).reply
    }

    /// Calls a method whose reply carries file descriptors (`h` values index them): the
    /// descriptors are the caller's to close.
    public func callTakingDescriptors(service: String, path: String, interface: String, method: String,
                                      args: [DBusValue] = [], timeout: Duration = .seconds(25))
        async throws(DBusError) -> (reply: DBusValue, descriptors: [Int32]) {
        try await exchange(service: service, path: path, interface: interface, method: method, args: args,
                           timeout: timeout, takingDescriptors: true)
    }

    private func exchange(service: String, path: String, interface: String, method: String, args: [DBusValue],
                          timeout: Duration, takingDescriptors: Bool) async throws(DBusError) -> Answer {
        guard g_variant_is_object_path(path) != 0 else {
            throw .invalidValue(L10n.format("“{}” is not a valid D-Bus object path.", path))
        }
        guard g_dbus_is_name(service) != 0, g_dbus_is_interface_name(interface) != 0,
              g_dbus_is_member_name(method) != 0 else {
            throw .invalidValue(L10n.format("“{}” is not a valid D-Bus method name.", "\(service) \(interface).\(method)"))
        }
        let parameters = try DBusValue.tuple(args).makeGVariant()
        let millis = Int32(clamping: timeout.components.seconds * 1000
                           + timeout.components.attoseconds / 1_000_000_000_000_000)
        let result: Result<Answer, DBusError> = await withCheckedContinuation { continuation in
            let reply = Reply(connection: connection, takingDescriptors: takingDescriptors, continuation: continuation)
            let started = perform { [connection] in
                let callback: GAsyncReadyCallback = { _, result, data in
                    Unmanaged<Reply>.fromOpaque(data!).takeRetainedValue().finish(result)
                }
                // Both take the floating parameters.
                if takingDescriptors {
                    g_dbus_connection_call_with_unix_fd_list(connection, service, path, interface, method, parameters, nil,
                                                             G_DBUS_CALL_FLAGS_NONE, max(1, millis), nil, nil, callback,
                                                             Unmanaged.passRetained(reply).toOpaque())
                } else {
                    g_dbus_connection_call(connection, service, path, interface, method, parameters, nil,
                                           G_DBUS_CALL_FLAGS_NONE, max(1, millis), nil, callback,
                                           Unmanaged.passRetained(reply).toOpaque())
                }
            }
            if !started {
                g_variant_unref(g_variant_ref_sink(parameters))
                continuation.resume(returning: .failure(.disconnected))
            }
        }
        return try result.get()
    }

    /// ObjectManager.GetManagedObjects, typed as path → interface → property → value.
    public func getManagedObjects(service: String, path: String = "/", timeout: Duration = .seconds(25))
        async throws(DBusError) -> [String: [String: [String: DBusValue]]] {
        let reply = try await call(service: service, path: path, interface: "org.freedesktop.DBus.ObjectManager",
                                   method: "GetManagedObjects", timeout: timeout)
        guard let objects = reply.items?.first?.stringKeyed else {
            throw .invalidValue(L10n.format("The D-Bus type “{}” is not supported.", reply.signature))
        }
        var result: [String: [String: [String: DBusValue]]] = [:]
        for (objectPath, interfaces) in objects {
            var typed: [String: [String: DBusValue]] = [:]
            for (name, properties) in interfaces.stringKeyed ?? [:] {
                typed[name] = properties.stringKeyed ?? [:]
            }
            result[objectPath] = typed
        }
        return result
    }

    /// GLib's main context and loop are thread-safe to hand to the loop thread.
    private struct LoopRef: @unchecked Sendable {
        let context: OpaquePointer
        let loop: OpaquePointer
    }

    private typealias Answer = (reply: DBusValue, descriptors: [Int32])

    private final class Reply {
        let connection: OpaquePointer
        let takingDescriptors: Bool
        let continuation: CheckedContinuation<Result<Answer, DBusError>, Never>
        init(connection: OpaquePointer, takingDescriptors: Bool, continuation: CheckedContinuation<Result<Answer, DBusError>, Never>) {
            self.connection = connection
            self.takingDescriptors = takingDescriptors
            self.continuation = continuation
        }

        func finish(_ result: OpaquePointer?) {
            var error: UnsafeMutablePointer<GError>?
            var list: UnsafeMutablePointer<GUnixFDList>?
            let made = takingDescriptors
                ? g_dbus_connection_call_with_unix_fd_list_finish(connection, &list, result, &error)
                : g_dbus_connection_call_finish(connection, result, &error)
            // Taken out of the list at once, so none is left open if the reply does not read.
            var descriptors: [Int32] = []
            if let list {
                var count: Int32 = 0
                if let taken = g_unix_fd_list_steal_fds(list, &count) {
                    descriptors = Array(UnsafeBufferPointer(start: taken, count: Int(count)))
                    g_free(taken)
                }
                g_object_unref(list)
            }
            guard let reply = made else {
                continuation.resume(returning: .failure(DBusConnection.mapped(error)))
                return
            }
            defer { g_variant_unref(reply) }
            do {
                continuation.resume(returning: .success((try DBusValue(gvariant: reply), descriptors)))
            } catch {
                for descriptor in descriptors { Glibc.close(descriptor) }
                continuation.resume(returning: .failure(error))
            }
        }
    }

    /// Subscribes on the connection's thread, so callbacks run there. False once closed.
    func subscribe(_ subscriber: SignalSubscriber, service: String) -> Bool {
        lock.lock()
        guard !closed else { lock.unlock(); return false }
        subscribers[ObjectIdentifier(subscriber)] = subscriber
        lock.unlock()
        let callback: GDBusSignalCallback = { _, _, path, _, member, parameters, data in
            guard let data, let path, let member, let parameters else { return }
            Unmanaged<SignalSubscriber>.fromOpaque(data).takeUnretainedValue()
                .deliver(path: String(cString: path), member: String(cString: member), parameters: parameters)
        }
        let rules: [(sender: String, interface: String, member: String, arg0: String?)] = [
            (service, "org.freedesktop.DBus.ObjectManager", "InterfacesAdded", nil),
            (service, "org.freedesktop.DBus.ObjectManager", "InterfacesRemoved", nil),
            (service, "org.freedesktop.DBus.Properties", "PropertiesChanged", nil),
            ("org.freedesktop.DBus", "org.freedesktop.DBus", "NameOwnerChanged", service),
        ]
        let semaphore = DispatchSemaphore(value: 0)
        let started = perform { [connection] in
            for rule in rules {
                let id = g_dbus_connection_signal_subscribe(
                    connection, rule.sender, rule.interface, rule.member, nil, rule.arg0, G_DBUS_SIGNAL_FLAGS_NONE,
                    callback, Unmanaged.passRetained(subscriber).toOpaque(),
                    { data in Unmanaged<SignalSubscriber>.fromOpaque(data!).release() })
                subscriber.ids.append(id)
            }
            semaphore.signal()
        }
        // Wait so the match rules are in place before the caller acts on the bus.
        if started { semaphore.wait() }
        return started
    }

    func unsubscribe(_ subscriber: SignalSubscriber) {
        lock.lock()
        let wasOpen = subscribers.removeValue(forKey: ObjectIdentifier(subscriber)) != nil
        lock.unlock()
        guard wasOpen else { return }
        perform { [connection] in
            for id in subscriber.ids { g_dbus_connection_signal_unsubscribe(connection, id) }
        }
    }

    private final class Work {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    /// The GDBusConnection, for the extensions that serve objects.
    var raw: OpaquePointer { connection }

    /// Runs `body` on the connection's thread; false once the connection is closed.
    @discardableResult
    func perform(priority: Int32 = G_PRIORITY_DEFAULT, _ body: @escaping () -> Void) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        // After close() only the final quit may still be queued.
        if closed && priority != G_PRIORITY_LOW { return false }
        g_main_context_invoke_full(context, priority, { data in
            Unmanaged<Work>.fromOpaque(data!).takeRetainedValue().body()
            return 0
        }, Unmanaged.passRetained(Work(body)).toOpaque(), nil)
        return true
    }

    /// Turns a GError (which this frees) into a DBusError.
    static func mapped(_ error: UnsafeMutablePointer<GError>?) -> DBusError {
        guard let error else { return .failed("") }
        defer { g_error_free(error) }
        if g_dbus_error_is_remote_error(error) != 0, let name = g_dbus_error_get_remote_error(error) {
            defer { g_free(name) }
            g_dbus_error_strip_remote_error(error)
            return DBusError(name: String(cString: name), detail: String(cString: error.pointee.message))
        }
        if error.pointee.domain == g_io_error_quark() {
            switch error.pointee.code {
            case Int32(G_IO_ERROR_TIMED_OUT.rawValue): return .timedOut
            case Int32(G_IO_ERROR_CLOSED.rawValue): return .disconnected
            case Int32(G_IO_ERROR_PERMISSION_DENIED.rawValue): return .accessDenied
            default: break
            }
        }
        return .failed(String(cString: error.pointee.message))
    }
}
