// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import Localization

/// The Scanner page: live devices, coalesced, smoothed, filtered and sorted.
///
/// Observations arrive on a background stream and are gathered off the main
/// thread; the list is republished at most `refreshesPerSecond` times a second.
@MainActor
public final class ScannerViewModel {
    /// One device row.
    public struct Row: Equatable, Sendable {
        public let id: DeviceID
        /// `id.storageKey`, made once per device.
        public let key: String
        /// Nickname, else name, else "Unknown device".
        public let title: String
        /// True when the device has no name at all.
        public let isUnnamed: Bool
        /// "AA:BB:… · LE random".
        public let subtitle: String
        /// Smoothed signal, dBm.
        public let rssi: Int?
        /// 0 (none) to 4 (excellent).
        public let level: Int
        public let isFavorite: Bool
        /// Unseen for longer than the fade time.
        public let isStale: Bool
    }

    public typealias SortOrder = ScannerPreferences.SortOrder

    // MARK: State
    public private(set) var rows: [Row] = []
    public private(set) var state: ScannerState = .idle
    /// Devices heard but hidden by the search or the filters.
    public private(set) var hiddenCount = 0
    /// How many list refreshes were published (for the benchmark and tests).
    public private(set) var refreshCount = 0
    /// Sorting, filters, fading and scan mode; `onPreferencesChange` hears every change.
    public var preferences = ScannerPreferences() {
        didSet {
            guard preferences != oldValue else { return }
            if preferences.scanMode != oldValue.scanMode, scanner != nil { start() }
            publish(reorder: true)
            onPreferencesChange?(preferences)
        }
    }
    public var onPreferencesChange: (@MainActor (ScannerPreferences) -> Void)?
    public var sortOrder: SortOrder {
        get { preferences.sortOrder }
        set { preferences.sortOrder = newValue }
    }
    public var favoritesOnly: Bool {
        get { preferences.favoritesOnly }
        set { preferences.favoritesOnly = newValue }
    }
    public var hideUnnamed: Bool {
        get { preferences.hideUnnamed }
        set { preferences.hideUnnamed = newValue }
    }
    /// Devices weaker than this are hidden, dBm.
    public var minimumRSSI: Int {
        get { preferences.minimumRSSI }
        set { preferences.minimumRSSI = newValue }
    }
    /// Ctrl+F: matches name, nickname, address and company; not kept across restarts.
    public var searchText = "" { didSet { if searchText != oldValue { publish(reorder: true) } } }
    /// Whether rows may move now; false while the pointer is over the list.
    public var reorderAllowed = true { didSet { if reorderAllowed { publish(reorder: true) } } }

    // MARK: Configuration
    private let makeScanner: (ScanMode) -> DeviceScanner
    private let favorites: FavoritesViewModel
    private let sightings: SightingsRepository?
    private let now: () -> Date
    private var removeAfter: Double { Double(max(preferences.removeAfterSeconds, preferences.fadeAfterSeconds)) }
    private let refreshInterval: Double

    // MARK: Owned
    private var scanner: DeviceScanner?
    private var devices: [DeviceID: Entry] = [:]
    private var order: [DeviceID] = []
    private let inbox = Inbox()
    private var tasks: [Task<Void, Never>] = []
    private var timer: Task<Void, Never>?
    private let observers = ChangeObservers()
    private var favoritesToken: ObservationToken?
    /// Counts synchronous publishes, so a background result that raced one is dropped.
    private var generation = 0

    struct Entry: Sendable {
        /// Made once: formatting addresses for thousands of rows, four times a second, adds up.
        let key: String
        let subtitle: String
        /// Everything heard from the device so far, newest values first.
        var last: Observation
        var name: String?
        var smoothed: Double?
        var lastSeen: Date
        var firstSeen: Date
        var history: [(Date, Int)] = []
    }

    /// Creates the model; `makeScanner` opens the configured source in the given mode each time scanning starts.
    public init(makeScanner: @escaping (ScanMode) -> DeviceScanner, favorites: FavoritesViewModel,
                sightings: SightingsRepository?, refreshesPerSecond: Double = 4, now: @escaping () -> Date = { Date() }) {
        self.makeScanner = makeScanner
        self.favorites = favorites
        self.sightings = sightings
        self.now = now
        refreshInterval = 1 / refreshesPerSecond
        favoritesToken = favorites.observe { [weak self] in self?.publish(reorder: false) }
    }

    /// Calls `handler` after every published change.
    public func observe(_ handler: @escaping @MainActor () -> Void) -> ObservationToken { observers.observe(handler) }

    /// Whether scanning runs (or is starting).
    public var isRunning: Bool {
        switch state {
        case .starting, .scanning, .waiting: return true
        default: return false
        }
    }

    // MARK: Intents

    /// Starts scanning (a fresh scanner, so a failed source is retried).
    public func start() {
        stop()
        let scanner = makeScanner(preferences.scanMode)
        self.scanner = scanner
        let inbox = self.inbox
        let observations = scanner.observations
        let states = scanner.states
        tasks = [
            Task.detached { for await o in observations { inbox.add(o) } },
            Task { [weak self] in for await s in states { self?.apply(s) } },
        ]
        scanner.start()
        let interval = UInt64(refreshInterval * 1_000_000_000)
        timer = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(nanoseconds: interval)
                // Ends with the model, so a forgotten stop() leaves no loop behind.
                guard let self else { return }
                await self.refresh()
            }
        }
    }

    /// Stops scanning; the list stays.
    public func stop() {
        scanner?.stop()
        scanner = nil
        tasks.forEach { $0.cancel() }
        tasks = []
        timer?.cancel()
        timer = nil
        tick()
        if isRunning { apply(.paused) }
    }

    /// The latest observation of `id`, if it was seen.
    public func observation(of id: DeviceID) -> Observation? { devices[id]?.last }

    /// The best-known advertised name of `id`.
    public func name(of id: DeviceID) -> String? { devices[id]?.name }

    /// Smoothed signal of `id`, dBm.
    public func rssi(of id: DeviceID) -> Int? { devices[id]?.smoothed.map { Int($0.rounded()) } }

    /// Signal readings of `id` in this session, oldest first.
    public func history(of id: DeviceID) -> [(Date, Int)] { devices[id]?.history ?? [] }

    /// Folds in everything received since the last tick and republishes, all at once.
    public func tick() {
        fold()
        publish(reorder: reorderAllowed)
    }

    /// What the refresh timer runs: folds in on the main thread (cheap), then filters and
    /// sorts thousands of devices on a background thread, so frames keep coming meanwhile.
    func refresh() async {
        fold()
        let job = publishJob(reorder: reorderAllowed)
        let started = generation
        let result = await Task.detached(priority: .userInitiated) { job.run() }.value
        // A filter or favorite changed meanwhile and was published at once: this result is older.
        guard started == generation else { return }
        apply(result)
    }

    /// Folds the observations received since the last call into `devices`.
    private func fold() {
        let batch = inbox.drain()
        var readings: [Sighting] = []
        for o in batch {
            var entry = devices[o.id] ?? Entry(key: o.id.storageKey, subtitle: o.id.identifierLine, last: o, name: nil,
                                               smoothed: nil, lastSeen: o.timestamp, firstSeen: o.timestamp)
            entry.last = devices[o.id] == nil ? o : entry.last.merging(o)
            if let name = o.name, !name.isEmpty { entry.name = name }
            if let rssi = o.rssi {
                // Exponential moving average: a steady figure that still follows a walk away.
                entry.smoothed = entry.smoothed.map { $0 * 0.7 + Double(rssi) * 0.3 } ?? Double(rssi)
                // One reading per second is plenty for the plot and bounds memory in a busy room.
                if let last = entry.history.last, o.timestamp.timeIntervalSince(last.0) < 1 {
                    entry.history[entry.history.count - 1] = (last.0, rssi)
                } else {
                    entry.history.append((o.timestamp, rssi))
                    if entry.history.count > Self.historyLimit { entry.history.removeFirst(entry.history.count - Self.historyLimit) }
                }
                if favorites.isFavorite(o.id) { readings.append(Sighting(id: o.id, time: o.timestamp, rssi: rssi)) }
            }
            entry.lastSeen = max(entry.lastSeen, o.timestamp)
            devices[o.id] = entry
        }
        let cutoff = now().addingTimeInterval(-removeAfter)
        if !isReplay {
            for (id, entry) in devices where entry.lastSeen < cutoff { devices[id] = nil }
        }
        if !readings.isEmpty, let sightings {
            Task.detached { try? await sightings.record(readings) }
        }
    }

    private var isReplay: Bool { if case .finished = state { return true } else { return false } }

    private func apply(_ newState: ScannerState) {
        state = newState
        observers.notify()
    }

    private func publish(reorder: Bool) {
        generation += 1
        apply(publishJob(reorder: reorder).run())
    }

    private func apply(_ result: PublishJob.Result) {
        rows = result.rows
        order = result.order
        hiddenCount = result.hidden
        refreshCount += 1
        observers.notify()
    }

    /// Everything a publish needs, copied, so it can run on any thread.
    private func publishJob(reorder: Bool) -> PublishJob {
        PublishJob(devices: devices, favorites: favorites.snapshot, preferences: preferences,
                   needle: searchText.trimmingCharacters(in: .whitespaces).lowercased(),
                   unknown: L10n.tr("Unknown device"), now: now(), isReplay: isReplay, order: order, reorder: reorder)
    }

    /// Filters, sorts and builds the rows from a copy of the devices.
    struct PublishJob: Sendable {
        let devices: [DeviceID: Entry]
        let favorites: [DeviceID: Favorite]
        let preferences: ScannerPreferences
        let needle: String
        let unknown: String
        let now: Date
        let isReplay: Bool
        let order: [DeviceID]
        let reorder: Bool

        struct Result: Sendable {
            let rows: [Row]
            let order: [DeviceID]
            let hidden: Int
        }

        func run() -> Result {
            let p = preferences
            var visible: [Row] = []
            var lastSeen: [Date] = []
            visible.reserveCapacity(devices.count)
            for (id, entry) in devices {
                let favorite = favorites[id]
                let name = favorite?.nickname ?? entry.name ?? favorite?.lastKnownName
                if p.hideUnnamed && name == nil && favorite == nil { continue }
                if p.favoritesOnly && favorite == nil { continue }
                let rssi = entry.smoothed.map { Int($0.rounded()) }
                if let rssi, rssi < p.minimumRSSI { continue }
                if !needle.isEmpty {
                    let haystack = [name, entry.name, id.address, entry.last.manufacturerData.first?.companyName]
                        .compactMap { $0?.lowercased() }
                    if !haystack.contains(where: { $0.contains(needle) }) { continue }
                }
                let stale = now.timeIntervalSince(entry.lastSeen) > Double(p.fadeAfterSeconds) && !isReplay
                visible.append(Row(id: id, key: entry.key, title: name ?? unknown, isUnnamed: name == nil,
                                   subtitle: entry.subtitle, rssi: rssi, level: ScannerViewModel.level(rssi),
                                   isFavorite: favorite != nil, isStale: stale))
                lastSeen.append(entry.lastSeen)
            }
            let rows: [Row]
            let newOrder: [DeviceID]
            if reorder {
                // Sort positions on keys made once, not the rows themselves: thousands of rows, four times a second.
                var positions = Array(visible.indices)
                switch p.sortOrder {
                case .signal:
                    let signal = visible.map { $0.rssi ?? -200 }
                    positions.sort { signal[$0] != signal[$1] ? signal[$0] > signal[$1] : visible[$0].id < visible[$1].id }
                case .name:
                    let names = visible.map { DisplayName.sortKey($0.title) }
                    positions.sort {
                        if names[$0] != names[$1] { return names[$0] < names[$1] }
                        if visible[$0].title != visible[$1].title { return visible[$0].title < visible[$1].title }
                        return visible[$0].id < visible[$1].id
                    }
                case .lastSeen:
                    positions.sort { lastSeen[$0] != lastSeen[$1] ? lastSeen[$0] > lastSeen[$1] : visible[$0].id < visible[$1].id }
                }
                rows = positions.map { visible[$0] }
                newOrder = rows.map(\.id)
            } else {
                // Rows never jump under the pointer: keep places, append newcomers.
                var byID: [DeviceID: Int] = [:]
                byID.reserveCapacity(visible.count)
                for (position, row) in visible.enumerated() { byID[row.id] = position }
                let placed = Set(order)
                newOrder = order.filter { byID[$0] != nil } + visible.map(\.id).filter { !placed.contains($0) }.sorted()
                rows = newOrder.map { visible[byID[$0]!] }
            }
            return Result(rows: rows, order: newOrder, hidden: devices.count - rows.count)
        }
    }

    /// Readings kept per device: a bit over five minutes at one a second.
    nonisolated static let historyLimit = 330

    /// Signal bars for a dBm value.
    nonisolated static func level(_ rssi: Int?) -> Int {
        guard let rssi else { return 0 }
        switch rssi {
        case (-55)...: return 4
        case (-67)...: return 3
        case (-80)...: return 2
        case (-90)...: return 1
        default: return 0
        }
    }
}

/// Observations received off the main thread, waiting for the next tick.
final class Inbox: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [Observation] = []

    func add(_ o: Observation) {
        lock.lock()
        items.append(o)
        lock.unlock()
    }

    func drain() -> [Observation] {
        lock.lock()
        defer { lock.unlock() }
        let out = items
        items = []
        return out
    }
}
