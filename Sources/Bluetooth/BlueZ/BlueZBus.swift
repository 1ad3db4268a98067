// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import Localization

/// What the bus tells its clients, in the order it happened.
public enum BlueZEvent: Sendable {
    /// A signal from BlueZ, already applied to `BlueZBus.objects`.
    case signal(DBusSignal)
    /// bluetoothd appeared (or came back after a restart); the objects were read afresh.
    case serviceStarted
    /// bluetoothd went away; the objects are gone with it.
    case serviceStopped
    /// The connection to the system bus itself was lost; the next `connect()` opens a new one.
    case connectionLost
}

/// Hears what happens on the bus. Called on the bus's signal task, one event at a time: be quick.
public protocol BlueZClient: AnyObject, Sendable {
    func bus(_ bus: BlueZBus, didReceive event: BlueZEvent)
}

/// One connection to BlueZ shared by the scanner, the connector and the alias writer: the
/// D-Bus connection (its own GMainContext thread), one subscription to BlueZ's signals, and the
/// object tree they keep current. Opens on first use, and again after the bus was lost.
public final class BlueZBus: @unchecked Sendable {
    /// BlueZ's bus name.
    public static let service = "org.bluez"

    // MARK: Configuration
    private let address: String?

    // MARK: State, guarded by `lock`
    private let lock = NSLock()
    private var connection: DBusConnection?
    private var opening: Task<Result<DBusConnection, DBusError>, Never>?
    private var tree = BlueZObjects()
    private var running = false
    private var clients: [ObjectIdentifier: Weak] = [:]
    private var pump: Task<Void, Never>?

    /// Scanners queue discovery here, so one stopping and the next starting reach BlueZ in order.
    let discovery = SerialTasks()

    private struct Weak {
        weak var client: BlueZClient?
    }

    /// A bus on `address`, or on the system bus (GIO honours DBUS_SYSTEM_BUS_ADDRESS).
    public init(address: String? = nil) {
        self.address = address
    }

    deinit { close() }

    /// BlueZ's objects as last reported; empty while bluetoothd is not running.
    public var objects: BlueZObjects { lock.withLock { tree } }

    /// Whether bluetoothd owns its name on the bus (as of the last connect or signal).
    public var isServiceRunning: Bool { lock.withLock { running } }

    /// Adds a client; the bus holds it weakly.
    public func add(_ client: BlueZClient) {
        lock.withLock { clients[ObjectIdentifier(client)] = Weak(client: client) }
    }

    public func remove(_ client: BlueZClient) {
        lock.withLock { clients[ObjectIdentifier(client)] = nil }
    }

    /// The open connection, opening it (subscribe, then read the objects) if there is none.
    /// Succeeds while bluetoothd is not running: `isServiceRunning` says so, and
    /// `.serviceStarted` follows when it starts.
    @discardableResult
    public func connect() async throws(DBusError) -> DBusConnection {
        let task: Task<Result<DBusConnection, DBusError>, Never> = lock.withLock {
            if let connection { return Task { .success(connection) } }
            if let opening { return opening }
            let task = Task { await self.open() }
            opening = task
            return task
        }
        return try await task.value.get()
    }

    private func open() async -> Result<DBusConnection, DBusError> {
        defer { lock.withLock { opening = nil } }
        let connection: DBusConnection
        do {
            connection = try DBusConnection(address: address)
        } catch {
            return .failure(error)
        }
        // Subscribed before reading, so no change falls between the two.
        let signals = connection.signals(service: Self.service)
        let objects: [String: [String: [String: DBusValue]]]
        var running = true
        do {
            objects = try await connection.getManagedObjects(service: Self.service)
        } catch .serviceUnknown {
            objects = [:]
            running = false
        } catch {
            connection.close()
            return .failure(error)
        }
        lock.withLock {
            self.connection = connection
            tree = BlueZObjects(objects)
            self.running = running
        }
        let pump = Task.detached { [weak self] in
            for await signal in signals {
                guard let self else { return }
                await self.handle(signal, on: connection)
            }
            self?.lost(connection)
        }
        lock.withLock { self.pump = pump }
        return .success(connection)
    }

    private func handle(_ signal: DBusSignal, on connection: DBusConnection) async {
        if case .nameOwnerChanged(let name, _, let newOwner) = signal, name == Self.service {
            if newOwner.isEmpty {
                lock.withLock {
                    tree = BlueZObjects()
                    running = false
                }
                tell(.serviceStopped)
            } else {
                // Signals wait in the stream meanwhile, so none is applied to the older tree.
                let objects = (try? await connection.getManagedObjects(service: Self.service, timeout: .seconds(5))) ?? [:]
                lock.withLock {
                    tree = BlueZObjects(objects)
                    running = true
                }
                tell(.serviceStarted)
            }
            return
        }
        let applied = lock.withLock { tree.apply(signal) }
        // A property change of an object never announced is not BlueZ's business with us.
        if applied { tell(.signal(signal)) }
    }

    private func lost(_ connection: DBusConnection) {
        let wasCurrent = lock.withLock {
            guard self.connection === connection else { return false }
            self.connection = nil
            tree = BlueZObjects()
            running = false
            return true
        }
        connection.close()
        if wasCurrent { tell(.connectionLost) }
    }

    private func tell(_ event: BlueZEvent) {
        let targets = lock.withLock { clients.values.compactMap(\.client) }
        for client in targets { client.bus(self, didReceive: event) }
    }

    /// Lets the discovery requests already queued (a scan's StopDiscovery, at quit) reach BlueZ,
    /// waiting at most `seconds`, then closes. Blocks the caller meanwhile.
    public func finish(within seconds: Double) {
        let done = DispatchSemaphore(value: 0)
        let discovery = self.discovery
        Task.detached {
            await discovery.drain()
            done.signal()
        }
        _ = done.wait(timeout: .now() + seconds)
        close()
    }

    /// Closes the connection; clients hear `.connectionLost`.
    public func close() {
        let (connection, pump) = lock.withLock { (self.connection, self.pump) }
        pump?.cancel()
        connection?.close()
    }

    // MARK: Calls

    /// Calls a BlueZ method on `path`, connecting first if needed.
    @discardableResult
    public func call(_ path: String, _ interface: String, _ method: String, _ args: [DBusValue] = [],
                     timeout: Duration = .seconds(25)) async throws(DBusError) -> DBusValue {
        let connection = try await connect()
        return try await connection.call(service: Self.service, path: path, interface: interface, method: method,
                                         args: args, timeout: timeout)
    }

    /// Calls a method of BlueZ's that answers with file descriptors, which are the caller's to close.
    public func callTakingDescriptors(_ path: String, _ interface: String, _ method: String, _ args: [DBusValue] = [],
                                      timeout: Duration = .seconds(25)) async throws(DBusError) -> (reply: DBusValue, descriptors: [Int32]) {
        let connection = try await connect()
        return try await connection.callTakingDescriptors(service: Self.service, path: path, interface: interface,
                                                          method: method, args: args, timeout: timeout)
    }

    /// Sets a property through org.freedesktop.DBus.Properties.Set.
    public func set(_ path: String, _ interface: String, _ name: String, _ value: DBusValue,
                    timeout: Duration = .seconds(25)) async throws(DBusError) {
        try await call(path, "org.freedesktop.DBus.Properties", "Set",
                       [.string(interface), .string(name), .variant(value)], timeout: timeout)
    }
}
