// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import Localization

/// Connects one LE device at a time through BlueZ and chats over its GATT objects: the same
/// `DeviceConnector` port as the HCI route, so the pages cannot tell which route they use.
///
/// Device1.Connect, then ServicesResolved; the chat service's characteristics from the object
/// tree; StartNotify on TX, whose `Value` changes are the device's messages; WriteValue on RX.
/// Requests run one at a time on `work`; BlueZ's signals arrive on the bus's signal task.
public final class BlueZConnector: DeviceConnector, BlueZClient, @unchecked Sendable {
    // MARK: Configuration
    let bus: BlueZBus
    let adapterName: String?
    let connectTimeout: Double
    let resolveTimeout: Double
    let callTimeout: Duration
    let log: @Sendable (String) -> Void

    // MARK: Owned
    let streams = ConnectionStreams()
    /// Connect and disconnect, in the order asked.
    let work = SerialTasks()
    /// Writes, in the order sent.
    let writes = SerialTasks()

    // MARK: State, guarded by `lock`
    let lock = NSLock()
    /// Bumped by every request, so work for an older one stops at its next check.
    var generation = 0
    /// The device being connected or connected.
    var session: Session?

    /// One device's connection as BlueZ holds it.
    final class Session: @unchecked Sendable {
        /// The device as reported; pairing may reveal its identity (guarded by the lock).
        var device: DeviceID
        let path: String
        /// Set once the chat characteristics are known.
        var chat: Chat?
        /// False until `connected` is reported; values wait in `early` meanwhile.
        var ready = false
        var early: [[UInt8]] = []
        /// The user (or a newer request) is ending it, so its end is no failure.
        var ending = false
        /// Where the browser's handles are read and written, once discovered.
        var attributes: BlueZObjects.AttributePaths = [:]
        /// The characteristics the browser subscribed to: object path → value handle.
        var subscribed: [String: UInt16] = [:]
        /// The sockets BlueZ handed over (AcquireWrite, AcquireNotify), by object path.
        var writers: [String: Task<AcquiredSocket?, Never>] = [:]
        var notifiers: [String: AcquiredSocket] = [:]
        /// Characteristics whose notification socket BlueZ refused: StartNotify serves them.
        var refused: Set<String> = []

        init(device: DeviceID, path: String) {
            self.device = device
            self.path = path
        }

        /// The connection's sockets close with it.
        deinit {
            for socket in notifiers.values { socket.close() }
            for task in writers.values { Task { await task.value?.close() } }
        }
    }

    /// The characteristics a chat uses.
    struct Chat {
        let service: ChatService
        let tx: String
        let rx: String
        /// Write Request (acknowledged) where RX allows it, else Write Command.
        let request: Bool
        /// Bytes per write: ATT_MTU − 3.
        let limit: Int
    }

    /// A connector through `bus` on adapter `adapter` ("hci1"), or the first BlueZ lists.
    /// - Parameters:
    ///   - connectTimeout: seconds to wait for the device before giving up (10).
    ///   - resolveTimeout: seconds to wait for BlueZ to resolve its services (30).
    public init(bus: BlueZBus, adapter: String? = nil, connectTimeout: Double = 10, resolveTimeout: Double = 30,
                callTimeout: Duration = .seconds(10), log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.bus = bus
        adapterName = adapter
        self.connectTimeout = connectTimeout
        self.resolveTimeout = resolveTimeout
        self.callTimeout = callTimeout
        self.log = log
        bus.add(self)
    }

    // MARK: DeviceConnector

    public var events: Feed<ConnectionEvent> { streams.events }
    public var state: ConnectionState { streams.state }

    public func connect(to device: DeviceID) {
        let generation = supersede()
        work.enqueue { [self] in await runConnect(to: device, generation: generation) }
    }

    public func cancel() { disconnect() }

    public func disconnect() {
        let generation = supersede()
        work.enqueue { [self] in
            guard isCurrent(generation) else { return }
            await endSession(reportIdle: true)
            if case .failed = streams.state { return }
            streams.set(.idle)
        }
    }

    public func send(_ text: String) async throws(ChatSendError) {
        let result: Result<Void, ChatSendError> = await withCheckedContinuation { continuation in
            writes.enqueue { [self] in continuation.resume(returning: await runSend(text)) }
        }
        try result.get()
    }

    /// Starts a new request: a Connect still under way is called off at once, since the
    /// request behind it would otherwise wait out its timeout.
    private func supersede() -> Int {
        let (generation, pending) = lock.withLock { () -> (Int, String?) in
            self.generation += 1
            let pending = session.flatMap { $0.ready ? nil : $0.path }
            return (self.generation, pending)
        }
        if let pending { Task { try? await bus.call(pending, BlueZObjects.Interface.device, "Disconnect", timeout: .seconds(5)) } }
        return generation
    }

    func isCurrent(_ generation: Int) -> Bool { lock.withLock { self.generation == generation } }

    // MARK: Connect

    private func runConnect(to device: DeviceID, generation: Int) async {
        guard isCurrent(generation) else { return }
        await endSession(reportIdle: false)
        streams.set(.connecting(device))
        do {
            try await bus.connect()
        } catch {
            return fail(generation, .service(BlueZScanner.connectFailure(error).detail))
        }
        guard bus.isServiceRunning else {
            return fail(generation, .service(L10n.tr("the system’s Bluetooth service (bluetoothd) is not running")))
        }
        let objects = bus.objects
        guard let adapter = objects.adapter(named: adapterName) else {
            return fail(generation, .service(L10n.tr("the system’s Bluetooth service has no adapter")))
        }
        guard let path = objects.devicePath(for: device, adapter: adapter) else {
            return fail(generation, .service(L10n.tr("it does not know this device. Scan until the device is heard, then connect.")))
        }
        let session = Session(device: device, path: path)
        guard lock.withLock({ () -> Bool in
            guard self.generation == generation else { return false }
            self.session = session
            return true
        }) else { return }
        do {
            try await bus.call(path, BlueZObjects.Interface.device, "Connect", timeout: .seconds(connectTimeout))
        } catch .alreadyConnected {
            // Connected by another app already: the link is there to use.
        } catch {
            guard isCurrent(generation) else { return }
            log("Connect \(path): \(error.message)")
            return fail(generation, failure(connecting: error))
        }
        guard isCurrent(generation) else { return }
        guard await servicesResolved(session, generation: generation) else { return }
        await openChat(session, generation: generation)
    }

    /// Waits for ServicesResolved; false (having failed) when it does not come, or the link goes.
    private func servicesResolved(_ session: Session, generation: Int) async -> Bool {
        let started = Date()
        while isCurrent(generation) {
            let device = bus.objects[session.path, BlueZObjects.Interface.device]
            if case .bool(true)? = device?["ServicesResolved"] { return true }
            // The signal saying Connected may trail Connect's reply: only a later "false" means the link went.
            let dropped = device?["Connected"] == .bool(false) && Date().timeIntervalSince(started) > 1
            if device == nil || dropped {
                fail(generation, .ended)
                return false
            }
            if Date().timeIntervalSince(started) > resolveTimeout {
                fail(generation, .protocolError(L10n.format("its services were not found within {} seconds",
                                                            Int(resolveTimeout.rounded()))))
                return false
            }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    /// Finds the chat characteristics, subscribes to TX, then reports `connected` and the services.
    private func openChat(_ session: Session, generation: Int) async {
        let objects = bus.objects
        let services = objects.services(of: session.path)
        var chat: Chat?
        for profile in ChatProfile.preferred {
            guard let service = services.first(where: { $0.uuid == profile.service }) else { continue }
            let characteristics = objects.characteristics(of: service.path)
            guard let tx = characteristics.first(where: { $0.uuid == profile.tx && !$0.flags.isDisjoint(with: ["notify", "indicate"]) }),
                  let rx = characteristics.first(where: { $0.uuid == profile.rx && !$0.flags.isDisjoint(with: ["write", "write-without-response"]) })
            else { continue }
            var mtu = 23
            if case .uint16(let value)? = objects[tx.path, BlueZObjects.Interface.gattCharacteristic]?["MTU"] { mtu = Int(value) }
            chat = Chat(service: profile == .chat ? .chat : .nordicUART, tx: tx.path, rx: rx.path,
                        request: rx.flags.contains("write"), limit: max(mtu - 3, 20))
            break
        }
        if let chat {
            lock.withLock { session.chat = chat }
            do {
                try await bus.call(chat.tx, BlueZObjects.Interface.gattCharacteristic, "StartNotify", timeout: callTimeout)
            } catch .notPaired {
                guard isCurrent(generation) else { return }
                return fail(generation, .needsPairing)
            } catch {
                guard isCurrent(generation) else { return }
                return fail(generation, .protocolError(error.message))
            }
        }
        let early: [[UInt8]]? = lock.withLock {
            guard self.generation == generation, self.session === session else { return nil }
            streams.set(.connected(session.device, service: chat?.service))
            session.ready = true
            defer { session.early = [] }
            return session.early
        }
        guard let early else { return }
        for value in early { streams.emit(.received(ChatMessage.received(value, from: session.device))) }
        streams.emit(.services(session.device, services.map(\.uuid.serviceID)))
    }

    // MARK: Disconnect

    /// Ends the session there is, if any: unsubscribes and disconnects, ignoring a link already gone.
    private func endSession(reportIdle: Bool) async {
        guard let session = lock.withLock({ () -> Session? in
            let current = self.session
            current?.ending = true
            return current
        }) else { return }
        if reportIdle { streams.set(.disconnecting(session.device)) }
        // Subscriptions end before the link does.
        for path in lock.withLock({ Array(session.subscribed.keys) }) {
            _ = try? await bus.call(path, BlueZObjects.Interface.gattCharacteristic, "StopNotify", timeout: .seconds(3))
        }
        if let chat = lock.withLock({ session.chat }) {
            _ = try? await bus.call(chat.tx, BlueZObjects.Interface.gattCharacteristic, "StopNotify", timeout: .seconds(3))
        }
        do {
            try await bus.call(session.path, BlueZObjects.Interface.device, "Disconnect", timeout: .seconds(5))
        } catch {
            log("Disconnect \(session.path): \(error.message)")
        }
        lock.withLock { if self.session === session { self.session = nil } }
        if reportIdle { streams.set(.idle) }
    }

    /// The attempt or the connection failed: say why, and leave no link behind at BlueZ.
    func fail(_ generation: Int, _ failure: ConnectionFailure) {
        let (current, path): (Bool, String?) = lock.withLock {
            guard self.generation == generation else { return (false, nil) }
            defer { session = nil }
            return (true, session?.path)
        }
        guard current else { return }
        streams.set(.failed(failure))
        if let path {
            Task { [bus] in _ = try? await bus.call(path, BlueZObjects.Interface.device, "Disconnect", timeout: .seconds(5)) }
        }
    }

    /// A BlueZ error from Connect in the user's words.
    func failure(connecting error: DBusError) -> ConnectionFailure {
        switch error {
        case .timedOut, .noReply: return .noAnswer(seconds: Int(connectTimeout.rounded()))
        case .serviceUnknown, .disconnected: return .adapterGone(error.message)
        case .notReady: return .adapterGone(L10n.tr("the adapter is off"))
        case .failed(let detail):
            // BlueZ's words when the device never answered the connection request.
            let noAnswer = ["le-connection-abort-by-local", "Page Timeout", "Host is down", "Connection timed out"]
            if noAnswer.contains(where: { detail.localizedCaseInsensitiveContains($0) }) {
                return .noAnswer(seconds: Int(connectTimeout.rounded()))
            }
            return .service(detail.isEmpty ? error.message : detail)
        default: return .service(error.message)
        }
    }

    // MARK: Send

    private func runSend(_ text: String) async -> Result<Void, ChatSendError> {
        guard let (session, chat) = lock.withLock({ () -> (Session, Chat)? in
            guard let session, session.ready, let chat = session.chat else { return nil }
            return (session, chat)
        }) else { return .failure(.notConnected) }
        let type = DBusValue.vardict(["type": .string(chat.request ? "request" : "command")])
        for part in ChatSplitter.parts(of: text, limit: chat.limit) {
            do {
                try await bus.call(chat.rx, BlueZObjects.Interface.gattCharacteristic, "WriteValue", [.bytes(part), type],
                                   timeout: callTimeout)
            } catch .timedOut, .noReply {
                return .failure(.timedOut)
            } catch .notConnected, .disconnected, .doesNotExist, .serviceUnknown {
                return .failure(.connectionLost)
            } catch .notPaired {
                return .failure(.needsPairing)
            } catch {
                return .failure(.rejected(error.message))
            }
            guard lock.withLock({ self.session === session }) else { return .failure(.connectionLost) }
        }
        return .success(())
    }
}
