// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation
import Localization

/// Watches the live devices for trackers moving with you and tells the desktop when the rule
/// says one is. Off until the user turns it on; favorites never alert (Trust This Tracker makes
/// one a favorite); Not a Threat silences a tracker for a day.
@MainActor
public final class TrackerGuard {
    /// What the detail page says of one tracker.
    public struct Status: Equatable {
        public let reading: TrackerReading
        public let tracked: TrackerWatch.Tracked?
        public let alert: TrackerAlert?
        public let silencedUntil: Date?
    }

    public var isOn: Bool {
        didSet {
            guard isOn != oldValue else { return }
            onSettingsChange?()
            observers.notify()
        }
    }

    public var sensitivity: TrackerSensitivity {
        didSet {
            guard sensitivity != oldValue else { return }
            watch.rule = rule(for: sensitivity)
            onSettingsChange?()
            observers.notify()
        }
    }

    /// Keeps `isOn` and `sensitivity`; the composition root sets it.
    public var onSettingsChange: (() -> Void)?
    /// Whether the rule can count places here; without them, time alone decides.
    public var placesAvailable: Bool { places?.isAvailable ?? false }

    private let live: LiveDevices
    private let favorites: Favorites
    private let notifier: DesktopNotifier
    private let places: PlaceSource?
    private let store: TrackerSightingsRepository?
    private let speedup: Double
    private let now: () -> Date
    private let watch: TrackerWatch
    private let observers = ChangeObservers()
    private var tokens: [ObservationToken] = []
    /// Unique across runs, so that the time-alone bar counts sessions before a restart too.
    private var session: Int
    private var wasRunning = false
    private var stoppedAt: Date?
    private var lastHeard: Date?
    private var silenced: [String: Date] = [:]
    /// Each device's report last judged: a device not heard since has nothing new to say.
    private var judged: [DeviceID: Date] = [:]
    /// Sightings the store has not taken yet: kept and offered again, never dropped quietly.
    private var unsaved: [TrackerSighting] = []
    /// The store's work, one job after another: restoring, saving, pruning, silences, alerts.
    private var storeWork: Task<Void, Never>?
    private var lastTidy: Date
    /// Whether the store refused something, and what; said once, in the log.
    public private(set) var storeProblem: String?
    /// Set once what an earlier run kept is back.
    public private(set) var isRestored = false

    /// `speedup` divides the rule's times, for tests that cannot wait an hour; 1 everywhere else.
    public init(live: LiveDevices, favorites: Favorites, notifier: DesktopNotifier, places: PlaceSource?,
                store: TrackerSightingsRepository? = nil, isOn: Bool = false, sensitivity: TrackerSensitivity = .medium, speedup: Double = 1, now: @escaping () -> Date = Date.init) {
        self.live = live
        self.favorites = favorites
        self.notifier = notifier
        self.places = places
        self.store = store
        self.isOn = isOn
        self.sensitivity = sensitivity
        self.speedup = max(speedup, 1)
        self.now = now
        session = Int(now().timeIntervalSince1970 * 1000)
        lastTidy = now()
        watch = TrackerWatch(rule: TrackerRule(sensitivity).faster(by: max(speedup, 1)))
        tokens.append(live.observe { [weak self] _ in self?.evaluate() })
        tokens.append(favorites.observe { [weak self] in self?.syncTrusted() })
        syncTrusted()
        if let store { enqueue { [weak self] in await self?.restore(from: store) } } else { isRestored = true }
    }

    /// Runs `job` after the store's earlier work, so writes keep their order.
    private func enqueue(_ job: @escaping @MainActor () async -> Void) {
        let previous = storeWork
        storeWork = Task { @MainActor in
            await previous?.value
            await job()
        }
    }

    /// Returns once everything handed to the store so far is done (restored, written).
    public func flushed() async {
        while let work = storeWork {
            await work.value
            if storeWork == work { return }
        }
    }

    /// Takes back what earlier runs kept within the rule's window, after deleting what is older
    /// than `TrackerSighting.keptDays`.
    private func restore(from store: TrackerSightingsRepository) async {
        let start = now()
        do {
            try await store.prune(before: start.addingTimeInterval(-Double(TrackerSighting.keptDays) * 86_400))
            let since = start.addingTimeInterval(-watch.rule.windowHours * 3600)
            let sightings = try await store.sightings(since: since)
            let alerts = try await store.alerts(since: since)
            let silences = try await store.silences(at: start)
            watch.restore(sightings: sightings, alerts: alerts, silences: silences)
            silenced.merge(silences) { max($0, $1) }
        } catch {
            complain(error)
        }
        isRestored = true
        observers.notify()
    }

    /// Takes in where a source says its trackers were heard before it started (the demo's
    /// story), as if this run had heard them; nothing of it is stored.
    public func recall(_ sightings: [TrackerSighting]) {
        guard !sightings.isEmpty else { return }
        watch.restore(sightings: sightings, alerts: [], silences: [:])
        observers.notify()
    }

    /// Hands new sightings to the store; what it refuses waits for the next try.
    private func save() {
        unsaved += watch.takeNewSightings()
        guard let store, !unsaved.isEmpty else { return }
        // A store that keeps refusing must not grow memory without end: the oldest go, said.
        if unsaved.count > 50_000 {
            complain(StoreRefusal(dropped: unsaved.count - 50_000))
            unsaved.removeFirst(unsaved.count - 50_000)
        }
        let batch = unsaved
        unsaved = []
        enqueue { [weak self] in
            do {
                try await store.record(batch)
            } catch {
                self?.unsaved.insert(contentsOf: batch, at: 0)
                self?.complain(error)
            }
        }
    }

    private struct StoreRefusal: Error, CustomStringConvertible {
        let dropped: Int
        var description: String { "the database kept refusing tracker sightings; the oldest \(dropped) were let go" }
    }

    private func complain(_ error: Error) {
        let said = "\(error)"
        guard storeProblem != said else { return }
        storeProblem = said
        FileHandle.standardError.write(Data("favblue: tracker sightings could not be saved: \(said)\n".utf8))
    }

    /// Once an hour: the store deletes what is older than 14 days, the watch forgets what fell
    /// out of its window.
    private func tidy() {
        let time = now()
        guard time.timeIntervalSince(lastTidy) >= 3600 / speedup else { return }
        lastTidy = time
        watch.forget(silentSince: time.addingTimeInterval(-watch.rule.windowHours * 3600))
        guard let store else { return }
        let cutoff = time.addingTimeInterval(-Double(TrackerSighting.keptDays) * 86_400)
        enqueue { [weak self] in
            do { try await store.prune(before: cutoff) } catch { self?.complain(error) }
        }
    }

    private func rule(for sensitivity: TrackerSensitivity) -> TrackerRule { TrackerRule(sensitivity).faster(by: speedup) }

    /// Calls `handler` after every change of the settings or of what is known of a tracker.
    public func observe(_ handler: @escaping @MainActor () -> Void) -> ObservationToken { observers.observe(handler) }

    /// Takes in what the live devices say now.
    public func evaluate() {
        let running = live.isRunning, time = now()
        // A scan stopped for `sessionGapMinutes` and started again is another session; a restart
        // (the Scanner opening, a setting changed) is not.
        if !running, wasRunning { stoppedAt = time }
        if running, !wasRunning, let stoppedAt, time.timeIntervalSince(stoppedAt) >= watch.rule.sessionGapMinutes * 60 { session += 1 }
        wasRunning = running
        guard isOn, running || live.isReplayOver else { return }
        let place = places?.current
        var changed = false
        let devices = live.all
        for (id, device) in devices where judged[id] != device.lastSeen {
            judged[id] = device.lastSeen
            // So is a scan that heard nothing for as long (the machine slept).
            if let heard = lastHeard, device.lastSeen.timeIntervalSince(heard) >= watch.rule.sessionGapMinutes * 60 { session += 1 }
            if lastHeard.map({ device.lastSeen > $0 }) ?? true { lastHeard = device.lastSeen }
            guard let reading = TrackerTable.read(device.advertised), reading.kind.isTag else { continue }
            let before = watch.key(of: id).flatMap { watch.lastSeen(of: $0) }
            if let alert = watch.heard(id, reading, at: device.lastSeen, place: place, session: session, rssi: device.rssi) {
                tell(alert, device: id)
                changed = true
            }
            if before != watch.key(of: id).flatMap({ watch.lastSeen(of: $0) }) { changed = true }
        }
        if judged.count > devices.count + 1_000 { judged = judged.filter { devices[$0.key] != nil } }
        save()
        tidy()
        if changed { observers.notify() }
    }

    /// Favorites never alert: the watch's trusted set follows them.
    private func syncTrusted() {
        watch.trusted = Set(favorites.snapshot.keys.map(\.storageKey))
    }

    /// What is known of `id` as a tracker; nil when it is none.
    public func status(of id: DeviceID) -> Status? {
        guard let reading = live[id].flatMap({ TrackerTable.read($0.advertised) }), reading.kind.isTag else { return nil }
        let key = watch.key(of: id)
        return Status(reading: reading, tracked: key.flatMap { watch.tracked($0) },
                      alert: key.flatMap { k in watch.alerts.last { $0.tracker == k } }, silencedUntil: key.flatMap { silenced[$0] })
    }

    /// The place now, as the sightings name it (a salted hash); nil where none can be told.
    public var currentPlace: String? { places?.current }

    /// What was marked of `id`'s tracker within the rule's window, oldest first.
    public func sightings(of id: DeviceID) -> [TrackerSighting] {
        watch.key(of: id).map { watch.sightings(of: $0) } ?? []
    }

    /// Not a Threat: no alert for `id`'s tracker for a day.
    public func silence(_ id: DeviceID) {
        guard let key = watch.key(of: id) else { return }
        let until = now().addingTimeInterval(24 * 3600 / speedup)
        silenced[key] = until
        watch.silence(key, until: until)
        if let store { enqueue { [weak self] in
            do { try await store.silence(key, until: until) } catch { self?.complain(error) }
        } }
        observers.notify()
    }

    private func tell(_ alert: TrackerAlert, device: DeviceID) {
        if let store { enqueue { [weak self] in
            do { try await store.recordAlert(alert) } catch { self?.complain(error) }
        } }
        let minutes = max(alert.minutes, 1)
        notifier.send(id: "tracker-" + alert.tracker,
                      title: L10n.plural("{} has been moving with you for {} minute", "{} has been moving with you for {} minutes",
                                         minutes, Self.article(alert.kind), Formats.number(minutes)),
                      body: L10n.tr("Open FavBlue to see where it was seen and what you can do."), opening: device)
    }

    /// "An AirTag", "A SmartTag": the alert's subject.
    static func article(_ kind: TrackerKind) -> String {
        switch kind {
        case .airTag: return L10n.tr("An AirTag")
        case .airPods: return L10n.tr("A pair of AirPods")
        case .findMyAccessory: return L10n.tr("A Find My accessory")
        case .smartTag: return L10n.tr("A SmartTag")
        case .tile: return L10n.tr("A Tile")
        case .chipolo: return L10n.tr("A Chipolo")
        case .pebblebee: return L10n.tr("A Pebblebee")
        case .findMyDeviceTag: return L10n.tr("A Find My Device tag")
        case .dultTag, .appleDevice: return L10n.tr("A location tracker")
        }
    }
}
