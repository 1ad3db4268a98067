// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation
import Localization

/// The owner of the connected device's GATT tree and of what was read from it and written to
/// it, for the detail page's Services section.
///
/// It follows the one connection (`ChatSessions`): once a device is connected it discovers the
/// whole tree, then reads each characteristic's user description (0x2901) and presentation
/// format (0x2904), which name and decode it. Values are read only when asked ("Read all
/// values" too is a button: some devices drop a link that reads everything at once). When the
/// connection ends, the tree goes with it.
@MainActor
public final class GATTBrowser {
    /// Where discovery stands.
    public enum Phase: Equatable, Sendable {
        /// No device connected.
        case idle
        case discovering
        case ready
        /// Discovery failed; carries why.
        case failed(String)
    }

    /// A value as read, and when.
    public struct Reading: Equatable, Sendable {
        public let bytes: [UInt8]
        public let time: Date
        /// It came as a notification or indication, not from a read.
        public let notified: Bool

        public init(bytes: [UInt8], time: Date, notified: Bool = false) {
            self.bytes = bytes
            self.time = time
            self.notified = notified
        }
    }

    /// The outcome of the last write to a characteristic.
    public enum Written: Equatable, Sendable {
        /// When, and how many bytes went.
        case done(Date, bytes: Int)
        case failed(GATTError)
    }

    // MARK: State
    /// The connected device whose tree this is.
    public private(set) var device: DeviceID?
    public private(set) var phase: Phase = .idle
    /// Every primary service, in handle order.
    public private(set) var services: [GATTService] = []
    /// The last value read, by value handle.
    public internal(set) var values: [UInt16: Reading] = [:]
    /// Why the last read of a handle failed.
    public private(set) var readProblems: [UInt16: GATTError] = [:]
    /// The last write to a handle.
    public private(set) var writes: [UInt16: Written] = [:]
    /// Handles with a read or write under way.
    public internal(set) var busy: Set<UInt16> = []
    /// Whether "Read all values" is under way.
    public private(set) var readingAll = false
    /// Characteristic User Descriptions (0x2901), by the characteristic's value handle.
    public private(set) var userDescriptions: [UInt16: String] = [:]
    /// Presentation Formats (0x2904), by the characteristic's value handle.
    public private(set) var formats: [UInt16: PresentationFormat] = [:]
    /// The characteristics subscribed to (notifications or indications), by value handle.
    public internal(set) var subscribed: Set<UInt16> = []
    /// Why the last subscription (or its end) failed.
    public internal(set) var subscribeProblems: [UInt16: GATTError] = [:]
    /// The newest `logLimit` notifications of each characteristic, oldest first.
    public internal(set) var logs: [UInt16: [Reading]] = [:]
    /// Notifications and indications received per characteristic on this connection, the log's
    /// limit aside.
    public internal(set) var received: [UInt16: Int] = [:]
    /// Logs that are paused: they show what they held; what arrives waits and joins on resume.
    public internal(set) var paused: Set<UInt16> = []
    /// The names and formats the user gave the connected device's characteristics, by UUID.
    public private(set) var labels: [String: CharacteristicLabel] = [:]
    /// Why the last label could not be kept.
    public private(set) var labelProblem: String?
    /// Said when the connected device's Battery Level is read or notified, in percent.
    public var onBattery: ((DeviceID, Int) -> Void)?
    /// How many notifications a log keeps.
    public static let logLimit = 1_000
    /// How often the page hears of notifications at most: a device sending 100 a second must
    /// not redraw the window 100 times.
    public static let notifyInterval: Duration = .milliseconds(100)

    // MARK: Borrowed
    let sessions: ChatSessions
    private var labelStore: CharacteristicLabelsRepository?
    let now: () -> Date
    let clock: any Clock<Duration>

    // MARK: Owned
    let observers = ChangeObservers()
    private var token: ObservationToken?
    /// Bumped when the connection changes, so work for an older one drops its results.
    var generation = 0
    /// What arrived while a log was paused, by handle.
    var held: [UInt16: [Reading]] = [:]
    /// Arrival times within the last second, by handle, for the rate.
    var arrivals: [UInt16: [Date]] = [:]
    var notifyScheduled = false
    /// The Battery Level characteristic's value handle, when the device has one.
    private var batteryHandle: UInt16?
    /// The Service Changed characteristic's value handle, when the device has one.
    var serviceChangedHandle: UInt16?

    /// Whether `handle` is Service Changed and FavBlue follows it itself: its indications lead
    /// to a new discovery, not to the log.
    public func followsServiceChanges(at handle: UInt16) -> Bool {
        handle == serviceChangedHandle && subscribed.contains(handle)
    }

    /// Follows the connection `sessions` owns; `clock` spaces the page's updates while values stream in.
    /// `labels` keeps the names the user gives characteristics (nil: this session only).
    public init(sessions: ChatSessions, labels: CharacteristicLabelsRepository? = nil, now: @escaping () -> Date = { Date() },
                clock: any Clock<Duration> = ContinuousClock()) {
        self.sessions = sessions
        labelStore = labels
        self.now = now
        self.clock = clock
        token = sessions.observe { [weak self] in self?.follow() }
        sessions.onNotified = { [weak self] handle, value, time in self?.notified(handle, value, at: time) }
        sessions.onServicesChanged = { [weak self] in self?.servicesChanged() }
        follow()
    }

    /// Calls `handler` after every change.
    public func observe(_ handler: @escaping @MainActor () -> Void) -> ObservationToken { observers.observe(handler) }

    /// The characteristic whose value is at `handle`.
    public func characteristic(at handle: UInt16) -> GATTCharacteristic? {
        services.lazy.flatMap(\.characteristics).first { $0.valueHandle == handle }
    }

    // MARK: Following the connection

    private func follow() {
        var connected: DeviceID?
        if case .connected(let device, _) = sessions.state { connected = device }
        guard connected != device else { return }
        if let connected, device != nil, phase != .idle {
            // Pairing showed the same link's identity: the tree stays.
            device = connected
            observers.notify()
            return
        }
        generation += 1
        device = connected
        services = []
        values = [:]
        readProblems = [:]
        writes = [:]
        busy = []
        readingAll = false
        userDescriptions = [:]
        formats = [:]
        labels = [:]
        labelProblem = nil
        batteryHandle = nil
        serviceChangedHandle = nil
        // Subscriptions end with the connection; their logs stay readable until the next one.
        subscribed = []
        subscribeProblems = [:]
        if connected != nil {
            logs = [:]
            held = [:]
            received = [:]
            paused = []
        }
        arrivals = [:]
        phase = connected == nil ? .idle : .discovering
        observers.notify()
        if connected != nil {
            Task { await discover() }
            Task { await loadLabels() }
        }
    }

    /// Keeps the names given from now on in `labels` (Try the Demo: a store of the demo's own, so
    /// the user's is left as it was), and reads the connected device's names from there.
    public func keepLabels(in labels: CharacteristicLabelsRepository?) {
        labelStore = labels
        self.labels = [:]
        observers.notify()
        if device != nil { Task { await loadLabels() } }
    }

    private func loadLabels() async {
        guard let device, let labelStore else { labels = [:]; return }
        let generation = generation
        let found = (try? await labelStore.labels(of: device)) ?? [:]
        guard generation == self.generation else { return }
        labels = found
        observers.notify()
    }

    /// Names the characteristic `uuid` of the connected device and says how its value reads
    /// (nil: as FavBlue would); an empty name forgets the label. Kept per device.
    public func setLabel(_ uuid: String, name: String, format: ValueInputFormat?) async {
        guard let device else { return }
        let trimmed = String(name.trimmingCharacters(in: .whitespacesAndNewlines).prefix(CharacteristicLabel.maximumName))
        let label = CharacteristicLabel(uuid: uuid, name: trimmed, format: format)
        if trimmed.isEmpty { labels[uuid] = nil } else { labels[uuid] = label }
        labelProblem = nil
        observers.notify()
        do {
            if trimmed.isEmpty { try await labelStore?.remove(uuid: uuid, for: device) } else { try await labelStore?.save(label, for: device) }
        } catch {
            labelProblem = L10n.format("The name could not be saved: {}", "\(error)")
            observers.notify()
        }
    }

    /// The device's services changed: what was discovered is stale, so it is discovered again
    /// (values read before are dropped with the tree, since their handles may mean other things now).
    func servicesChanged() {
        guard device != nil else { return }
        phase = .ready
        rediscover()
    }

    /// Discovers the tree again (after a failure, or when the device's services changed).
    public func rediscover() {
        guard device != nil, phase != .discovering else { return }
        generation += 1
        phase = .discovering
        observers.notify()
        Task { await discover() }
    }

    private func discover() async {
        let generation = generation
        let connector = sessions.connector
        do {
            let found = try await connector.discoverServices()
            guard generation == self.generation else { return }
            services = found
            // A tree found again is a new database: what was read, written or subscribed is of the old one.
            values = [:]
            readProblems = [:]
            writes = [:]
            subscribed = []
            subscribeProblems = [:]
            userDescriptions = [:]
            formats = [:]
            phase = .ready
            observers.notify()
        } catch {
            guard generation == self.generation else { return }
            phase = .failed(error.message)
            observers.notify()
            return
        }
        batteryHandle = services.first { $0.uuid == BluetoothUUID(0x180F) }?.characteristics.first { $0.uuid == BluetoothUUID(0x2A19) }?.valueHandle
        serviceChangedHandle = services.first { $0.uuid == BluetoothUUID(0x1801) }?.characteristics.first { $0.uuid == BluetoothUUID(0x2A05) }?.valueHandle
        // The descriptors that name and decode a characteristic; small, and read once.
        for characteristic in services.flatMap(\.characteristics) {
            for descriptor in characteristic.descriptors where descriptor.uuid == BluetoothUUID(0x2901) || descriptor.uuid == BluetoothUUID(0x2904) {
                guard let bytes = try? await connector.readValue(at: descriptor.handle), generation == self.generation else { continue }
                if descriptor.uuid == BluetoothUUID(0x2901) {
                    let text = DeviceText.shown(bytes: bytes).trimmingCharacters(in: .whitespaces)
                    if !text.isEmpty { userDescriptions[characteristic.valueHandle] = text }
                } else if let format = PresentationFormat(descriptor: bytes) {
                    formats[characteristic.valueHandle] = format
                }
                observers.notify()
            }
        }
        // Service Changed is followed, so a device whose services change is discovered again.
        if let handle = serviceChangedHandle, characteristic(at: handle)?.properties.contains(.indicate) == true,
           generation == self.generation {
            await setSubscribed(handle, true)
        }
        // The battery is read, and followed, on connect: Favorites shows it.
        if let handle = batteryHandle, let level = characteristic(at: handle), generation == self.generation {
            if level.properties.contains(.read) { await read(handle) }
            if level.properties.contains(.notify), generation == self.generation { await setSubscribed(handle, true) }
        }
    }

    /// Tells `onBattery` when `handle` is the Battery Level and `bytes` a level.
    func noteBattery(_ handle: UInt16, _ bytes: [UInt8]) {
        guard handle == batteryHandle, let device, let first = bytes.first, first <= 100 else { return }
        onBattery?(device, Int(first))
    }

    // MARK: Reading and writing

    /// Reads the value at `handle` whole.
    public func read(_ handle: UInt16) async {
        guard device != nil, !busy.contains(handle) else { return }
        let generation = generation
        busy.insert(handle)
        observers.notify()
        let result: Result<[UInt8], GATTError>
        do {
            result = .success(try await sessions.connector.readValue(at: handle))
        } catch {
            result = .failure(error)
        }
        guard generation == self.generation else { return }
        busy.remove(handle)
        switch result {
        case .success(let bytes):
            values[handle] = Reading(bytes: bytes, time: now())
            readProblems[handle] = nil
            noteBattery(handle, bytes)
        case .failure(let error):
            readProblems[handle] = error
        }
        observers.notify()
    }

    /// Reads every readable characteristic, one after another.
    public func readAll() async {
        guard phase == .ready, !readingAll else { return }
        let generation = generation
        readingAll = true
        observers.notify()
        for characteristic in services.flatMap(\.characteristics) where characteristic.properties.contains(.read) {
            guard generation == self.generation else { return }
            await read(characteristic.valueHandle)
        }
        guard generation == self.generation else { return }
        readingAll = false
        observers.notify()
    }

    /// Writes what the user typed in `format` to the characteristic at `handle`; returns why
    /// nothing was sent when the typed value cannot be written (said at the entry), else nil.
    @discardableResult
    public func write(_ typed: String, as format: ValueInputFormat, to handle: UInt16, withResponse: Bool) async -> String? {
        guard device != nil, !busy.contains(handle) else { return nil }
        let bytes: [UInt8]
        do {
            bytes = try ValueInput.bytes(typed, as: format)
        } catch {
            return error.message
        }
        let generation = generation
        busy.insert(handle)
        observers.notify()
        let outcome: Written
        do {
            try await sessions.connector.writeValue(bytes, at: handle, withResponse: withResponse)
            outcome = .done(now(), bytes: bytes.count)
        } catch {
            outcome = .failed(error)
        }
        guard generation == self.generation else { return nil }
        busy.remove(handle)
        writes[handle] = outcome
        observers.notify()
        return nil
    }
}
