// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation
import Localization

/// The devices heard in this session, and the scan that hears them.
///
/// The one owner of live per-device state: reports arrive off the main thread into an
/// inbox, and a timer folds them in a few times a second (merge, smoothing, history),
/// drops devices not heard for `removeAfter` seconds, and hands the readings of
/// favorites to the sightings store in one batch per fold. Page models (Scanner,
/// Detail, later the connection bar) observe it and never read each other.
@MainActor
public final class LiveDevices {
    /// What changed, for observers that only care about one.
    public enum Change: Sendable {
        /// The devices were folded anew.
        case devices
        /// The scan's state changed.
        case state
    }

    // MARK: State
    /// The scan's state.
    public private(set) var state: ScannerState = .idle
    /// Seconds without a report after which a device fades.
    public var fadeAfter: Double = 30
    /// Seconds without a report after which a device is dropped (never before it fades).
    public var removeAfter: Double = 60
    /// The quiet scan that runs while no page holds a scan of its own; nil runs none.
    public var backgroundMode: ScanMode? {
        didSet { if backgroundMode != oldValue, !isForeground { resumeBackground() } }
    }
    /// Whether a page (the Scanner) holds the scan; otherwise a running scan is the background one.
    public private(set) var isForeground = false

    /// The capture being written while scanning, or nil.
    public private(set) var recordingPath: String?
    /// Why the last recording ended early (a full disk), until the next one starts.
    public private(set) var recordingFailure: RecordingError?

    // MARK: Configuration
    private let makeScanner: (ScanMode) -> DeviceScanner
    private let sightings: SightingsRepository?
    /// Shared by every scanner `makeScanner` makes; nil where nothing can be recorded.
    private let recorder: ScanRecorder?
    let now: () -> Date
    let clock: any Clock<Duration>
    let refreshInterval: Duration
    /// Whose readings are kept; set by the composition root (favorites).
    public var keepsSightings: @MainActor (DeviceID) -> Bool = { _ in false }
    /// Who a private address belongs to: each report is keyed on its identity as it comes in, so
    /// a bonded device that changes its address stays one device. Nil resolves nothing.
    public var identities: Identities?
    /// Devices that stay listed however long they are silent: a connected device stops
    /// advertising, and must not vanish from the list while the user chats with it.
    public var keepsListed: @MainActor (DeviceID) -> Bool = { _ in false }

    // MARK: Owned
    var devices: [DeviceID: LiveDevice] = [:]
    /// Which new private addresses continue a listed device, by the one folding rule.
    var folding = AddressFolding()
    /// The newest report time folded: the clock the folding rule reads, so a replay follows its own time.
    var newest = Date.distantPast
    /// Where each row is heard now, for whoever connects or pairs.
    public let heard = HeardAddresses()
    private(set) var scanner: DeviceScanner?
    let inbox = Inbox()
    private var tasks: [Task<Void, Never>] = []
    /// What the running scanner feeds; `drain()` waits on them.
    private var feeds: [any Drainable] = []
    /// Favorites' readings on their way to the store, in order.
    private var sightingWrites: Task<Void, Never>?
    private var timer: Task<Void, Never>?
    private var handlers: [Int: @MainActor (Change) -> Void] = [:]
    private var nextHandler = 0
    /// The mode of the latest scan, for the pause between two auto scans.
    private var mode: ScanMode = .continuous
    private var retry: Task<Void, Never>?

    /// Creates the model; `makeScanner` opens the configured source in the given mode each time scanning starts,
    /// handing its scanners `recorder`. `clock` paces the folds and the background retries.
    /// The name this computer's own radio goes by in `LiveDevice.heardBy` where several sources
    /// are in use ("This Computer"); nil with one source alone.
    public var ownSource: String?

    /// Keys of encrypted sensors, kept by the app (`sensor(of:)` opens their frames with them).
    public var sensorKeys: MutableSensorKeys?
    /// Where favorites' sensor readings are kept; nil keeps only the last hour, in memory.
    public var readingsStore: SensorReadingsRepository?
    let sensorSampler = SensorSampler()

    /// The user's names of the rooms, by the name a gateway goes by ("kitchen" → "Kitchen").
    public var roomNames: [String: String] = [:] { didSet { if roomNames != oldValue { notify(.devices) } } }

    /// Makes the scanner of the remote sources (brokers' gateways), or nil for none: they listen
    /// while the app is open, so a favorite's room follows a move with the Scanner closed.
    public var makeListener: (() -> DeviceScanner?)?
    var listener: DeviceScanner?
    var listenerTasks: [Task<Void, Never>] = []
    var listenerFeeds: [any Drainable] = []
    var listenerState: ScannerState = .idle

    public init(makeScanner: @escaping (ScanMode) -> DeviceScanner, sightings: SightingsRepository?,
                recorder: ScanRecorder? = nil, refreshesPerSecond: Double = 4,
                clock: any Clock<Duration> = ContinuousClock(), now: @escaping () -> Date = { Date() }) {
        self.makeScanner = makeScanner
        self.sightings = sightings
        self.recorder = recorder
        self.now = now
        self.clock = clock
        refreshInterval = .seconds(1 / refreshesPerSecond)
    }

    /// Calls `handler` after every fold and every change of state, while the token lives.
    public func observe(_ handler: @escaping @MainActor (Change) -> Void) -> ObservationToken {
        let id = nextHandler
        nextHandler += 1
        handlers[id] = handler
        return ObservationToken { [weak self] in self?.handlers[id] = nil }
    }

    // MARK: Reading

    /// The device, if it is live.
    public subscript(id: DeviceID) -> LiveDevice? { devices[id] }

    /// A copy of every live device, for work off the main thread.
    public var all: [DeviceID: LiveDevice] { devices }

    /// Whether scanning runs (or is starting, or waits between two auto scans).
    public var isRunning: Bool {
        switch state {
        case .starting, .scanning, .waiting: return true
        default: return false
        }
    }

    /// Whether a scan was started and not stopped since, whatever its state.
    public var isStarted: Bool { scanner != nil }

    /// True once a replay ran out: its devices stay, however old.
    public var isReplayOver: Bool { if case .finished = state { return true } else { return false } }

    /// Whether the running scan is the quiet background one.
    public var isBackground: Bool { isStarted && !isForeground }

    /// Seconds unheard before a device fades in the current mode: an auto scan's pause, when
    /// nobody listens, does not count against a device.
    public var effectiveFadeAfter: Double { fadeAfter + pauseSeconds }

    private var pauseSeconds: Double {
        if case .periodic(let window, let interval) = mode { return max(interval - window, 0) }
        return 0
    }

    /// Whether `device` has not been heard for the fade time as of `now`.
    public func isStale(_ device: LiveDevice, at now: Date) -> Bool {
        !isReplayOver && (device.departed || device.age(at: now) > effectiveFadeAfter)
    }

    // MARK: Intents

    /// Starts scanning in `mode` for a page, with a fresh scanner, so a failed source is retried.
    /// The page holds the scan (even through a stop) until it calls `release()`.
    public func start(mode: ScanMode) {
        // Already scanning this way for a page (back from a device's details): nothing to restart.
        if isForeground, isRunning, mode == self.mode, scanner != nil { return }
        isForeground = true
        run(mode)
    }

    /// Starts the running scan again with a fresh scanner, and the listening: the sources changed.
    public func restart() {
        listen()
        guard scanner != nil else { return }
        run(mode)
    }

    /// The page no longer needs the scan: the background scan takes over, or scanning stops.
    public func release() {
        isForeground = false
        resumeBackground()
    }

    private func resumeBackground() {
        if let backgroundMode { run(backgroundMode) } else { stop() }
    }

    private func run(_ mode: ScanMode) {
        stop()
        self.mode = mode
        let scanner = makeScanner(mode)
        self.scanner = scanner
        let inbox = self.inbox
        let observations = scanner.observations
        let states = scanner.states
        let departures = scanner.departures
        feeds = [observations, departures, states]
        tasks = [
            Task.detached { for await o in observations { inbox.add(o) } },
            Task.detached { for await id in departures { inbox.depart(id, at: Date()) } },
            Task { [weak self] in
                // A state the old scanner sent as it was stopped must not reach the new scan.
                for await s in states where !Task.isCancelled { self?.apply(s) }
            },
        ]
        scanner.start()
        let interval = refreshInterval
        let clock = clock
        timer = Task { [weak self] in
            while !Task.isCancelled {
                try? await clock.sleep(for: interval)
                // Ends with the model, so a forgotten stop() leaves no loop behind.
                guard let self, !Task.isCancelled else { return }
                self.tick()
            }
        }
    }

    /// Switches the adapter on (it was off) and scans again in the same mode.
    public func powerOn() {
        guard let scanner else { return run(mode) }
        scanner.powerOn()
    }

    /// Whether scans can be recorded at all.
    public var canRecord: Bool { recorder != nil }

    /// Records what the running scan hears into a new capture at `path`, until scanning stops
    /// or `stopRecording`. Start scanning first: starting it again ends the recording.
    public func startRecording(to path: String) throws(RecordingError) {
        guard let recorder else { throw RecordingError(path: path, reason: L10n.tr("this source cannot be recorded")) }
        try recorder.start(path: path)
        recordingPath = path
        recordingFailure = nil
        notify(.state)
    }

    /// Closes the capture, if one is being written.
    public func stopRecording() {
        if closeRecording() { notify(.state) }
    }

    /// Closes the capture without telling the observers; false if none was open.
    private func closeRecording() -> Bool {
        guard recordingPath != nil else { return false }
        recorder?.stop()
        recordingPath = nil
        return true
    }

    /// Stops scanning (and recording); the devices stay.
    public func stop() {
        retry?.cancel()
        retry = nil
        stopRecording()
        tasks.forEach { $0.cancel() }
        tasks = []
        scanner?.stop()
        scanner = nil
        feeds = []
        timer?.cancel()
        timer = nil
        tick()
        if isRunning { apply(.paused) }
    }

    /// Folds in everything received since the last tick, drops the devices gone for
    /// `removeAfter`, and tells the observers.
    public func tick() {
        fold()
        if recordingPath != nil, let failure = recorder?.takeFailure() {
            // The recorder has closed the file already; say why, once.
            recordingFailure = failure
            recordingPath = nil
            notify(.state)
        }
        notify(.devices)
    }

    /// Waits until the scanner's every report, departure and state so far has been taken in,
    /// folds them, and waits for the readings on their way to the store: what a test awaits
    /// instead of sleeping.
    public func drain() async {
        for feed in feeds + listenerFeeds { await feed.applied() }
        tick()
        await sightingWrites?.value
    }

    /// The sightings on their way to the store, so quitting can wait for them.
    public var pendingWrites: Task<Void, Never>? { sightingWrites }

    // MARK: Folding

    private func fold() {
        let (batch, departures) = inbox.drain()
        var readings: [Sighting] = []
        var samples: [SensorSample] = []
        for var o in batch {
            if let identities { o.resolve(to: identities.identity(of: o.id)) }
            if let alias = folding.aliases[o.id] { o.resolve(to: alias) }
            if o.timestamp > newest { newest = o.timestamp }
            // Decided as soon as due, as favblue-scan does: a long batch (a fast replay) must not
            // hold a new address past the moment its row's next one appears.
            defer { if folding.isHolding, folding.isDue(newest: newest, now: now()) { settleGhosts(onlyDue: true) } }
            if devices[o.id] == nil, holdAsGhost(o) { continue }
            admit(o)
            if let rssi = o.rssi, keepsSightings(o.id) { readings.append(Sighting(id: o.id, time: o.timestamp, rssi: rssi)) }
            // Asked only of sensors: most reports are not one's, and this runs for every report.
            if devices[o.id]?.advertised.hasSensor == true {
                guardSensor(o.id, at: o.timestamp)
                let keep = keepsSightings(o.id)
                if sensorSampler.isDue(o.id, at: o.timestamp, keep: keep), let data = sensor(of: o.id) {
                    samples += sensorSampler.take(o.id, data, at: o.timestamp, keep: keep)
                }
                // States are taken as they change, from every report: of a favorite (few), or of a
                // sensor whose frames say a state in the clear, so the cost stays with those.
                if keep || devices[o.id]?.advertised.sensor?.readings.contains(where: { $0.quantity.kind != .measurement }) == true,
                   let data = sensor(of: o.id) {
                    samples += sensorSampler.changes(o.id, data, at: o.timestamp, keep: keep)
                }
            }
        }
        settleGhosts()
        // Gone out of range, unless heard again since the source said so.
        for (heard, time) in departures {
            let id = folding.aliases[heard] ?? identities?.identity(of: heard) ?? heard
            guard let device = devices[id], device.lastSeen <= time else { continue }
            // An address the device has moved on from says nothing about the device.
            if device.currentAddress != heard { continue }
            devices[id]!.depart()
        }
        if !isReplayOver {
            let cutoff = now().addingTimeInterval(-(max(removeAfter, fadeAfter) + pauseSeconds))
            let gone = devices.compactMap { $0.value.lastSeen < cutoff && !keepsListed($0.key) ? $0.key : nil }
            for id in gone { forget(id) }
        }
        let store = readingsStore
        if (!readings.isEmpty && sightings != nil) || (!samples.isEmpty && store != nil) {
            let previous = sightingWrites, sightings = sightings
            sightingWrites = Task.detached {
                await previous?.value
                if !readings.isEmpty { try? await sightings?.record(readings) }
                if !samples.isEmpty { try? await store?.record(samples) }
            }
        }
    }

    private func apply(_ newState: ScannerState) {
        state = newState
        switch newState {
        // A recording covers one scan: it ends cleanly when the scan does (a replay's end, a failure).
        case .paused, .finished, .failed:
            _ = closeRecording()
        default: break
        }
        notify(.state)
        if case .failed = newState, isBackground, let mode = backgroundMode { retryBackground(mode) }
    }

    /// A failed background scan says nothing (Favorites falls back to stored sightings) and
    /// tries again one interval later, so an adapter plugged back in is picked up.
    private func retryBackground(_ mode: ScanMode) {
        retry?.cancel()
        let delay: Double
        if case .periodic(_, let interval) = mode { delay = interval } else { delay = 60 }
        let clock = clock
        retry = Task { [weak self] in
            try? await clock.sleep(for: .seconds(delay))
            guard let self, !Task.isCancelled, self.isBackground, case .failed = self.state,
                  self.backgroundMode == mode else { return }
            self.run(mode)
        }
    }

    /// A reading of a connected device's signal, taken from the link (it no longer advertises):
    /// folded like a report, so its page's figure and plot go on.
    public func noteSignal(_ rssi: Int, of id: DeviceID, at time: Date) {
        inbox.add(Observation(id: id, timestamp: time, rssi: rssi))
    }

    /// Notes `percent` as the battery level of `id` (read over a connection); a device not
    /// listed is left alone.
    public func noteBattery(_ percent: Int, of id: DeviceID) {
        guard (0...100).contains(percent), devices[id] != nil, devices[id]?.battery != percent else { return }
        devices[id]?.noteBattery(percent)
        notify(.devices)
    }

    func notify(_ change: Change) {
        for handler in handlers.values { handler(change) }
    }
}
