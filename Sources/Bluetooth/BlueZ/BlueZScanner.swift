// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import Localization

/// Scans through BlueZ's D-Bus API, so no special rights are needed: discovery on one adapter
/// with a filter that reports every advertisement, and Device1's properties as observations.
///
/// Threads: start, stop and power requests queue on the bus's `discovery` queue, so they reach
/// BlueZ in the order they were made; signals arrive on the bus's signal task, where a changed
/// device becomes an observation at once, stamped with the time the signal arrived.
public final class BlueZScanner: DeviceScanner, BlueZClient, @unchecked Sendable {
    // MARK: Configuration
    private let bus: BlueZBus
    private let adapterName: String?
    private let mode: ScanMode
    private let callTimeout: Duration
    private let record: PacketRecorder?
    private let log: @Sendable (String) -> Void

    // MARK: Owned
    private let streams = ScanStreams()
    private let departureSink = Feed<DeviceID>()

    // MARK: State, guarded by `lock`
    private let lock = NSLock()
    /// Between start() and stop(): scanning should run whenever the adapter lets it.
    private var wanted = false
    /// Bumped by every start and stop, so queued work for an older request does nothing.
    private var generation = 0
    /// The adapter discovery runs on, while it does.
    private var adapter: String?
    /// Known devices under the adapter: path → identity.
    private var known: [String: DeviceID] = [:]
    /// Devices reported in full in this discovery; a new signal alone is enough for them.
    private var reported: Set<String> = []
    /// Between two windows of an auto scan.
    private var pausing = false
    private var windows: Task<Void, Never>?

    /// Scans on adapter `adapter` ("hci1"), or on the first one BlueZ lists.
    /// - Parameters:
    ///   - callTimeout: how long each discovery call may take before it counts as failed.
    ///   - record: receives each observation as the HCI event a controller would have sent.
    public init(bus: BlueZBus, adapter: String? = nil, mode: ScanMode = .continuous, callTimeout: Duration = .seconds(10),
                record: PacketRecorder? = nil, log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.bus = bus
        adapterName = adapter
        self.mode = mode
        self.callTimeout = callTimeout
        self.record = record
        self.log = log
    }

    deinit { departureSink.finish() }

    public var observations: Feed<Observation> { streams.observations }
    public var states: Feed<ScannerState> { streams.states }
    public var departures: Feed<DeviceID> { departureSink }

    public func start() {
        let generation = want()
        streams.set(.starting)
        bus.discovery.enqueue { [self] in await bringUp(generation) }
    }

    public func stop() {
        let (generation, windows) = lock.withLock {
            wanted = false
            self.generation += 1
            let windows = self.windows
            self.windows = nil
            return (self.generation, windows)
        }
        windows?.cancel()
        bus.discovery.enqueue { [self] in
            await stopDiscovery()
            bus.remove(self)
            if lock.withLock({ self.generation == generation }) { streams.set(.paused) }
        }
    }

    public func powerOn() {
        let generation = want()
        bus.discovery.enqueue { [self] in
            guard let path = bus.objects.adapter(named: adapterName) else { return await bringUp(generation) }
            do throws(DBusError) {
                // The system may ask the user first (polkit), hence the long wait.
                try await bus.set(path, BlueZObjects.Interface.adapter, "Powered", .bool(true), timeout: .seconds(120))
            } catch {
                log("turning the adapter on failed: \(error.message)")
                if isCurrent(generation) { streams.set(.failed(Self.failure(error))) }
                return
            }
            await bringUp(generation)
        }
    }

    /// Scanning is wanted from now on; returns the request's generation.
    private func want() -> Int {
        lock.withLock {
            wanted = true
            generation += 1
            return generation
        }
    }

    private func isCurrent(_ generation: Int) -> Bool { lock.withLock { self.generation == generation && wanted } }

    // MARK: Discovery

    /// Connects, checks the adapter, and starts discovery, unless it runs or is no longer wanted.
    private func bringUp(_ generation: Int) async {
        guard isCurrent(generation) else { return }
        // Discovery already runs for this scanner (asked twice): that is scanning.
        if lock.withLock({ adapter != nil }) {
            streams.set(.scanning)
            return scheduleWindows(generation)
        }
        bus.add(self)
        do {
            try await bus.connect()
        } catch {
            return fail(generation, Self.connectFailure(error))
        }
        guard bus.isServiceRunning else {
            return fail(generation, .unavailable(L10n.tr("the system’s Bluetooth service (bluetoothd) is not running")))
        }
        let objects = bus.objects
        guard let path = objects.adapter(named: adapterName) else {
            let reason = adapterName.map { L10n.format("the system’s Bluetooth service has no adapter {}", $0) }
                ?? L10n.tr("the system’s Bluetooth service has no adapter")
            return fail(generation, .unavailable(reason))
        }
        let properties = objects[path, BlueZObjects.Interface.adapter] ?? [:]
        if properties["PowerState"]?.stringValue == "off-blocked" { return fail(generation, .adapterBlocked) }
        if case .bool(false)? = properties["Powered"] { return fail(generation, .adapterOff) }
        do {
            // The filter comes first: without DuplicateData BlueZ reports a device's RSSI only when it moves by 8 dB.
            let filter = DBusValue.vardict(["Transport": .string("auto"), "DuplicateData": .bool(true)])
            try await bus.call(path, BlueZObjects.Interface.adapter, "SetDiscoveryFilter", [filter], timeout: callTimeout)
            do {
                try await bus.call(path, BlueZObjects.Interface.adapter, "StartDiscovery", timeout: callTimeout)
            } catch .inProgress {
                // This client's discovery already runs: that is scanning.
            }
        } catch {
            log("starting discovery on \(path) failed: \(error.message)")
            return fail(generation, Self.failure(error))
        }
        let heard: [Observation]? = lock.withLock {
            // Discovery runs for this client now, whatever was asked meanwhile: a stop queued behind ends it.
            adapter = path
            pausing = false
            known = [:]
            reported = []
            guard wanted else { return nil }
            let now = Date()
            // Read afresh: devices announced while discovery started were not ours to report yet.
            return bus.objects.devices(of: path).compactMap { device in
                guard let id = BlueZDevice.id(of: device.properties) else { return nil }
                known[device.path] = id
                // A cached device without a signal was not heard in this discovery: not live.
                guard BlueZDevice.rssi(of: device.properties) != nil else { return nil }
                reported.insert(device.path)
                var observation = BlueZDevice.observation(device.properties, id: id, at: now)
                observation.battery = BlueZDevice.battery(of: bus.objects[device.path, BlueZObjects.Interface.battery])
                return observation
            }
        }
        guard let heard else { return }
        streams.set(.scanning)
        for observation in heard { emit(observation) }
        scheduleWindows(generation)
    }

    /// Ends this client's discovery, if it runs.
    private func stopDiscovery() async {
        let path: String? = lock.withLock {
            defer { adapter = nil }
            return adapter
        }
        guard let path else { return }
        do {
            try await bus.call(path, BlueZObjects.Interface.adapter, "StopDiscovery", timeout: callTimeout)
        } catch {
            // Already stopped (the adapter went off, bluetoothd restarted): nothing to end.
            log("StopDiscovery on \(path): \(error.message)")
        }
    }

    private func fail(_ generation: Int, _ failure: ScanFailure) {
        guard isCurrent(generation) else { return }
        log("BlueZ scanning failed: \(failure.message)")
        streams.set(.failed(failure))
    }

    /// Tells the observers of `observation` while scanning, and records it.
    private func emit(_ observation: Observation) {
        guard streams.emitWhileScanning(observation), let record else { return }
        record.write(type: .event, bytes: BlueZRecording.event(for: observation), received: true, at: observation.timestamp)
    }

    /// Auto scan: discovery for the window, then none until the next one.
    private func scheduleWindows(_ generation: Int) {
        guard case .periodic(let window, let interval) = mode else { return }
        let task = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(window))
                guard let self, !Task.isCancelled else { return }
                self.bus.discovery.enqueue {
                    guard self.isCurrent(generation) else { return }
                    await self.stopDiscovery()
                    self.lock.withLock { self.pausing = true }
                    if self.isCurrent(generation) { self.streams.set(.waiting) }
                }
                try? await Task.sleep(for: .seconds(max(interval - window, 0)))
                guard !Task.isCancelled else { return }
                self.bus.discovery.enqueue { await self.bringUp(generation) }
            }
        }
        lock.withLock {
            windows?.cancel()
            windows = task
        }
    }

    // MARK: BlueZClient

    public func bus(_ bus: BlueZBus, didReceive event: BlueZEvent) {
        switch event {
        case .signal(let signal):
            handle(signal)
        case .serviceStopped:
            lost(L10n.tr("the system’s Bluetooth service stopped; scanning resumes when it is back"))
        case .serviceStarted:
            resume()
        case .connectionLost:
            lost(L10n.tr("the connection to the system bus was lost"))
        }
    }

    private func handle(_ signal: DBusSignal) {
        switch signal {
        case .propertiesChanged(let path, BlueZObjects.Interface.device, let changed, _):
            deviceChanged(path, changed: changed)
        case .propertiesChanged(let path, BlueZObjects.Interface.adapter, let changed, _):
            adapterChanged(path, changed: changed)
        case .propertiesChanged(let path, BlueZObjects.Interface.battery, let changed, _):
            batteryChanged(path, BlueZDevice.battery(of: changed))
        case .interfacesAdded(let path, let interfaces):
            if interfaces[BlueZObjects.Interface.adapter] != nil { resume() }
            if let properties = interfaces[BlueZObjects.Interface.device] { deviceAdded(path, properties: properties) }
            if let properties = interfaces[BlueZObjects.Interface.battery] { batteryChanged(path, BlueZDevice.battery(of: properties)) }
        case .interfacesRemoved(let path, let interfaces):
            if interfaces.contains(BlueZObjects.Interface.device), let id = lock.withLock({ known.removeValue(forKey: path) }) {
                // BlueZ drops a device it has not heard for a while: out of range, so it fades now.
                departureSink.yield(id)
            }
            if interfaces.contains(BlueZObjects.Interface.adapter), lock.withLock({ adapter == path }) {
                let name = path.split(separator: "/").last.map(String.init) ?? path
                lost(L10n.format("the adapter {} was removed", name))
            }
        default:
            break
        }
    }

    /// A listed device's battery level changed (or its Battery1 appeared, once connected).
    private func batteryChanged(_ path: String, _ level: Int?) {
        guard let level, let id = lock.withLock({ known[path] }) else { return }
        var observation = Observation(id: id, timestamp: Date(), rssi: nil)
        observation.battery = level
        emit(observation)
    }

    private func deviceAdded(_ path: String, properties: [String: DBusValue]) {
        guard let adapter = lock.withLock({ adapter }), properties["Adapter"]?.stringValue == adapter,
              let id = BlueZDevice.id(of: properties) else { return }
        let heard = BlueZDevice.rssi(of: properties) != nil
        lock.withLock {
            known[path] = id
            if heard { reported.insert(path) }
        }
        guard heard else { return }
        emit(BlueZDevice.observation(properties, id: id, at: Date()))
    }

    /// A device was heard: a new signal alone is reported as just that; any other advertised
    /// change as everything BlueZ holds, so the merge rule sees the same fields as on HCI.
    private func deviceChanged(_ path: String, changed: [String: DBusValue]) {
        let time = Date()
        // A new alias is not the device being heard: it goes out with the next reading, in full.
        if changed["Alias"] != nil { _ = lock.withLock { reported.remove(path) } }
        // Bonded, the device's keys reveal its identity: BlueZ gives the same object that address.
        if changed["Address"] != nil || changed["AddressType"] != nil,
           let properties = bus.objects[path, BlueZObjects.Interface.device], let id = BlueZDevice.id(of: properties) {
            lock.withLock {
                if known[path] != nil { known[path] = id }
                reported.remove(path)
            }
        }
        guard changed.keys.contains(where: BlueZDevice.heardProperties.contains) else { return }
        let (knownID, wasReported) = lock.withLock { (known[path], reported.contains(path)) }
        if wasReported, let id = knownID, changed.count == 1, case .int16(let rssi)? = changed["RSSI"] {
            emit(Observation(id: id, timestamp: time, rssi: Int(rssi)))
            return
        }
        guard let properties = bus.objects[path, BlueZObjects.Interface.device], BlueZDevice.rssi(of: properties) != nil,
              let adapter = lock.withLock({ adapter }), properties["Adapter"]?.stringValue == adapter,
              let id = knownID ?? BlueZDevice.id(of: properties) else { return }
        lock.withLock {
            known[path] = id
            reported.insert(path)
        }
        var observation = BlueZDevice.observation(properties, id: id, at: time)
        // Reported before: the stored signal is older than this change unless the change carries one.
        if wasReported, changed["RSSI"] == nil { observation.rssi = nil }
        emit(observation)
    }

    private func adapterChanged(_ path: String, changed: [String: DBusValue]) {
        guard path == bus.objects.adapter(named: adapterName) else { return }
        let generation = lock.withLock { self.generation }
        if changed["PowerState"]?.stringValue == "off-blocked" {
            stopped(on: path)
            fail(generation, .adapterBlocked)
        } else if case .bool(false)? = changed["Powered"] {
            stopped(on: path)
            fail(generation, .adapterOff)
        } else if case .bool(true)? = changed["Powered"] {
            resume()
        }
    }

    /// Discovery ended without us (the adapter went off).
    private func stopped(on path: String) {
        lock.withLock { if adapter == path { adapter = nil } }
    }

    /// Discovery cannot go on; the devices stay listed, and the failure says why.
    private func lost(_ reason: String) {
        let generation = lock.withLock {
            adapter = nil
            known = [:]
            reported = []
            return self.generation
        }
        fail(generation, .disconnected(reason))
    }

    /// Tries again when the adapter or bluetoothd is back, if scanning is wanted and not running.
    private func resume() {
        let (generation, idle) = lock.withLock { (self.generation, wanted && adapter == nil && !pausing) }
        guard idle else { return }
        bus.discovery.enqueue { [self] in await bringUp(generation) }
    }

    /// A BlueZ error as a scan failure the page can explain.
    static func failure(_ error: DBusError) -> ScanFailure {
        switch error {
        case .notReady: return .adapterOff
        case .notAuthorized, .notPermitted, .accessDenied: return .serviceRefused(error.message)
        case .serviceUnknown: return .unavailable(L10n.tr("the system’s Bluetooth service (bluetoothd) is not running"))
        case .disconnected, .timedOut, .noReply, .doesNotExist: return .disconnected(error.message)
        default: return .controller(error.message)
        }
    }

    /// Why the bus could not be reached at all, as a scan failure.
    static func connectFailure(_ error: DBusError) -> ScanFailure {
        switch error {
        case .serviceUnknown, .notAuthorized, .notPermitted, .accessDenied: return failure(error)
        case .failed(let detail): return .unavailable(L10n.format("the system bus cannot be reached: {}", detail))
        default: return .unavailable(L10n.format("the system bus cannot be reached: {}", error.message))
        }
    }
}
