// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import Localization

/// Pairs through BlueZ: an `org.bluez.Agent1` of FavBlue's own on the bus connection that
/// calls `Device1.Pair`, so BlueZ asks it about the pairings it starts and nothing else. It is
/// registered with capability KeyboardDisplay and never asked to be the desktop's default agent.
/// Keys stay in BlueZ; once bonded, BlueZ gives the device object its identity address.
public final class BlueZPairer: DevicePairer, BlueZClient, @unchecked Sendable {
    static let agentPath = "/org/favblue/agent"
    // One string per method, not a multi-line literal: the message extractor misreads those.
    static let agentXML = [
        "<node><interface name='org.bluez.Agent1'>",
        "<method name='Release'/>",
        "<method name='RequestPinCode'><arg type='o' direction='in'/><arg type='s' direction='out'/></method>",
        "<method name='DisplayPinCode'><arg type='o' direction='in'/><arg type='s' direction='in'/></method>",
        "<method name='RequestPasskey'><arg type='o' direction='in'/><arg type='u' direction='out'/></method>",
        "<method name='DisplayPasskey'><arg type='o' direction='in'/><arg type='u' direction='in'/><arg type='q' direction='in'/></method>",
        "<method name='RequestConfirmation'><arg type='o' direction='in'/><arg type='u' direction='in'/></method>",
        "<method name='RequestAuthorization'><arg type='o' direction='in'/></method>",
        "<method name='AuthorizeService'><arg type='o' direction='in'/><arg type='s' direction='in'/></method>",
        "<method name='Cancel'/>",
        "</interface></node>",
    ].joined()

    private let bus: BlueZBus
    private let adapterName: String?
    private let pairTimeout: Duration
    private let log: @Sendable (String) -> Void
    public let prompts = Feed<PairingPromptEvent>()

    // MARK: State, guarded by `lock`
    private let lock = NSLock()
    /// The connection the agent is served and registered on, while it is.
    private var agentConnection: ObjectIdentifier?
    private var export: DBusExport?
    /// Device paths being paired by us, and the id of the question each has on screen.
    private var pairing: [String: Int] = [:]
    private var nextPromptID = 1

    /// Pairs on adapter `adapter` ("hci1"), or the first one BlueZ lists.
    /// - Parameter pairTimeout: how long Pair may take, questions included, before it counts as failed.
    public init(bus: BlueZBus, adapter: String? = nil, pairTimeout: Duration = .seconds(60),
                log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.bus = bus
        adapterName = adapter
        self.pairTimeout = pairTimeout
        self.log = log
        bus.add(self)
    }

    deinit {
        export?.unexport()
        prompts.finish()
    }

    /// Pairing needs bluetoothd and an adapter; `auto` on a desktop without them cannot pair.
    public var unavailableReason: String? {
        guard bus.isServiceRunning else { return L10n.tr("The system’s Bluetooth service is not running, so FavBlue cannot pair.") }
        guard bus.objects.adapter(named: adapterName) != nil else {
            return L10n.tr("The system’s Bluetooth service has no adapter, so FavBlue cannot pair.")
        }
        return nil
    }

    private func path(of device: DeviceID) -> String? {
        let objects = bus.objects
        guard let adapter = objects.adapter(named: adapterName) else { return nil }
        return objects.devicePath(for: device, adapter: adapter)
    }

    public func isPaired(_ device: DeviceID) -> Bool {
        guard let path = path(of: device) else { return false }
        return bus.objects[path, BlueZObjects.Interface.device]?["Paired"] == .bool(true)
    }

    public func pair(_ device: DeviceID) async throws(PairingFailure) -> DeviceID {
        do {
            try await bus.connect()
        } catch {
            throw .unavailable(BlueZScanner.connectFailure(error).detail)
        }
        guard let path = path(of: device) else {
            throw .other(L10n.tr("the system’s Bluetooth service does not know this device. Scan until it is heard, then pair."))
        }
        if isPaired(device) { throw .alreadyPaired }
        try await registerAgent()
        lock.withLock { pairing[path] = 0 }
        defer { endQuestions(on: path, reason: nil) }
        do {
            try await bus.call(path, BlueZObjects.Interface.device, "Pair", timeout: pairTimeout)
        } catch {
            log("Pair \(path): \(error.message)")
            throw Self.failure(error)
        }
        // BlueZ gives the object its identity address once the keys arrive, and says Paired before it
        // answers; the reply can still overtake those signals here, so wait for Paired (2 s at most).
        for _ in 0..<100 where bus.objects[path, BlueZObjects.Interface.device]?["Paired"] != .bool(true) {
            try? await Task.sleep(for: .milliseconds(20))
        }
        guard let properties = bus.objects[path, BlueZObjects.Interface.device],
              let identity = BlueZDevice.id(of: properties) else { return device }
        return identity
    }

    public func forget(_ device: DeviceID) async throws(PairingFailure) {
        let objects = bus.objects
        guard let adapter = objects.adapter(named: adapterName), let path = path(of: device) else {
            throw .other(L10n.tr("the system’s Bluetooth service does not know this device."))
        }
        do {
            try await bus.call(adapter, BlueZObjects.Interface.adapter, "RemoveDevice", [.objectPath(path)], timeout: .seconds(10))
        } catch {
            throw .other(error.message)
        }
    }

    public func cancelPairing(_ device: DeviceID) async {
        guard let path = path(of: device) else { return }
        _ = try? await bus.call(path, BlueZObjects.Interface.device, "CancelPairing", timeout: .seconds(5))
    }

    /// BlueZ's Pair errors in the user's words.
    static func failure(_ error: DBusError) -> PairingFailure {
        switch error {
        case .other(let name, let detail):
            switch name {
            case "org.bluez.Error.AuthenticationCanceled": return .declined
            case "org.bluez.Error.AuthenticationRejected": return .rejected
            case "org.bluez.Error.AuthenticationFailed": return .authenticationFailed
            case "org.bluez.Error.AuthenticationTimeout": return .timedOut
            case "org.bluez.Error.ConnectionAttemptFailed": return .connectionLost
            case "org.bluez.Error.AlreadyExists": return .alreadyPaired
            default: return .other(detail.isEmpty ? name : detail)
            }
        case .timedOut, .noReply: return .timedOut
        case .notConnected, .doesNotExist: return .connectionLost
        case .failed(let detail) where detail.localizedCaseInsensitiveContains("canceled"): return .declined
        default: return .other(error.message)
        }
    }

    // MARK: The agent

    /// Serves the agent on the bus's connection and registers it, once per bluetoothd.
    private func registerAgent() async throws(PairingFailure) {
        let connection: DBusConnection
        do { connection = try await bus.connect() } catch { throw .unavailable(error.message) }
        if lock.withLock({ agentConnection == ObjectIdentifier(connection) }) { return }
        let served: DBusExport
        do {
            served = try connection.export(path: Self.agentPath, xml: Self.agentXML) { [weak self] call in
                self?.handle(call) ?? call.fail("org.bluez.Error.Rejected", "Gone")
            }
        } catch {
            throw .unavailable(error.message)
        }
        do {
            try await bus.call("/org/bluez", "org.bluez.AgentManager1", "RegisterAgent",
                               [.objectPath(Self.agentPath), .string("KeyboardDisplay")], timeout: .seconds(10))
        } catch .other(name: "org.bluez.Error.AlreadyExists", _) {
            // Registered on this connection before bluetoothd restarted with the same name.
        } catch {
            served.unexport()
            throw .unavailable(L10n.format("the system’s Bluetooth service did not accept FavBlue’s pairing agent: {}", error.message))
        }
        let old = lock.withLock { () -> DBusExport? in
            defer { export = served; agentConnection = ObjectIdentifier(connection) }
            return export
        }
        old?.unexport()
    }

    /// One call from BlueZ, on the connection's thread.
    private func handle(_ call: DBusMethodCall) {
        let devicePath = call.arguments.first?.stringValue ?? ""
        switch call.method {
        case "Release":
            lock.withLock { agentConnection = nil }
            call.reply()
        case "Cancel":
            let open = lock.withLock { pairing.filter { $0.value != 0 } }
            for (path, _) in open { endQuestions(on: path, reason: L10n.tr("The device or the system cancelled pairing.")) }
            call.reply()
        case "RequestConfirmation":
            guard case .uint32(let passkey)? = call.arguments.dropFirst().first else { return call.fail("org.bluez.Error.Rejected", "") }
            ask(devicePath, .confirm(passkey: passkey), call) { answer in
                answer == .confirmed ? call.reply() : call.fail("org.bluez.Error.Rejected", "Declined")
            }
        case "RequestPasskey":
            ask(devicePath, .enterPasskey, call) { answer in
                if case .passkey(let value) = answer { call.reply([.uint32(value)]) } else { call.fail("org.bluez.Error.Canceled", "Declined") }
            }
        case "RequestPinCode":
            ask(devicePath, .enterPin, call) { answer in
                if case .pin(let value) = answer { call.reply([.string(value)]) } else { call.fail("org.bluez.Error.Canceled", "Declined") }
            }
        case "DisplayPasskey":
            let values = Array(call.arguments.dropFirst())
            guard values.count == 2, case .uint32(let passkey) = values[0], case .uint16(let typed) = values[1] else {
                return call.fail("org.bluez.Error.Rejected", "")
            }
            call.reply()
            ask(devicePath, .displayPasskey(passkey: passkey, typed: Int(typed)), nil) { _ in }
        case "DisplayPinCode":
            guard let pin = call.arguments.dropFirst().first?.stringValue else { return call.fail("org.bluez.Error.Rejected", "") }
            call.reply()
            ask(devicePath, .displayPin(pin), nil) { _ in }
        case "RequestAuthorization":
            // Just Works on a pairing we started: nothing to show, the user asked for it.
            if lock.withLock({ pairing[devicePath] != nil }) { call.reply() } else { call.fail("org.bluez.Error.Rejected", "Not ours") }
        default:
            // AuthorizeService and anything else: FavBlue accepts no incoming connections.
            call.fail("org.bluez.Error.Rejected", "Not handled by FavBlue")
        }
    }

    /// Puts a question on screen for a pairing we started; refuses any other.
    private func ask(_ devicePath: String, _ question: PairingQuestion, _ call: DBusMethodCall?,
                     reply: @escaping @Sendable (PairingAnswer) -> Void) {
        let id: Int? = lock.withLock {
            guard let current = pairing[devicePath] else { return nil }
            // A display repeated as keys are typed keeps its id, so the dialog updates in place.
            if current != 0, case .displayPasskey = question { return current }
            nextPromptID += 1
            pairing[devicePath] = nextPromptID
            return nextPromptID
        }
        guard let id, let properties = bus.objects[devicePath, BlueZObjects.Interface.device],
              let device = BlueZDevice.id(of: properties) else {
            call?.fail("org.bluez.Error.Rejected", "Not a pairing FavBlue started")
            return
        }
        prompts.yield(.ask(PairingPrompt(id: id, device: device, question: question, answer: reply)))
    }

    /// Takes back the question on `path`, if one is shown, and stops asking for it.
    private func endQuestions(on path: String, reason: String?) {
        let id: Int? = lock.withLock {
            let id = pairing[path]
            if reason == nil { pairing[path] = nil } else if id != nil { pairing[path] = 0 }
            return id
        }
        if let id, id != 0 { prompts.yield(.withdrawn(id: id, reason: reason)) }
    }

    // MARK: BlueZClient

    public func bus(_ bus: BlueZBus, didReceive event: BlueZEvent) {
        switch event {
        case .signal(.propertiesChanged(let path, BlueZObjects.Interface.device, let changed, _)):
            // BlueZ does not always call Cancel: Paired, or the link going, also end the questions.
            if changed["Paired"] != nil { prompts.yield(.changed) }
            let over = changed["Paired"] == .bool(true) || changed["Connected"] == .bool(false)
            if over, lock.withLock({ (pairing[path] ?? 0) != 0 }) {
                endQuestions(on: path, reason: changed["Paired"] == .bool(true) ? nil
                             : L10n.tr("The device went out of reach, so pairing stopped."))
            }
        case .signal(.interfacesRemoved(_, let interfaces)) where interfaces.contains(BlueZObjects.Interface.device):
            // A device removed (forgotten in the system's settings) is no longer paired.
            prompts.yield(.changed)
        case .serviceStopped, .connectionLost:
            // A new bluetoothd knows no agent: register again before the next Pair.
            lock.withLock { agentConnection = nil }
            prompts.yield(.changed)
        case .signal(.interfacesAdded(_, let interfaces)) where interfaces[BlueZObjects.Interface.adapter] != nil:
            // An adapter came: pairing may have become possible.
            prompts.yield(.changed)
        case .serviceStarted:
            prompts.yield(.changed)
        case .signal:
            break
        }
    }
}
