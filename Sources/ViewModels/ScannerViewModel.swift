// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import Localization

/// The Scanner page: a filtered, sorted view of the live devices.
///
/// `LiveDevices` folds reports a few times a second; after each fold this model
/// filters and sorts a copy of the devices on a background thread and publishes
/// the rows, so the list changes at most as often as the devices are folded.
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
        /// Unseen for longer than the fade time, or gone from the list's filters while its place is held.
        public var isStale: Bool
        /// "70 s ago" once a replay is over, so an old reading does not look current.
        public var age: String?
        /// When the device was last heard; a held row's age is told from it.
        public let lastSeen: Date
        /// "AirTag · away from its owner", for a tracker's tag; "21.4 °C · 48 % · Battery 81 %", for a sensor.
        public let tracker: String?
        public var readings: String?
        /// The first two readings, for a narrow row: a third would be cut off.
        public var briefReadings: String?
    }

    public typealias SortOrder = ScannerPreferences.SortOrder

    // MARK: State
    public private(set) var rows: [Row] = []
    /// The scan's state.
    public var state: ScannerState { live.state }
    /// Devices heard but hidden by the search or the filters.
    public private(set) var hiddenCount = 0
    /// Devices heard that the user hid (Hide Device).
    public private(set) var hiddenByUserCount = 0
    /// How many list refreshes were published (for the benchmark and tests).
    public private(set) var refreshCount = 0
    /// Whether Sort Again would change the list: the rows hold their places between the sorts
    /// the user asks for, so the order shown drifts from the one chosen as signals change.
    public private(set) var canSortAgain = false

    /// Where the user may be aiming at a row, so the rows held there stay put.
    public enum Aim: Equatable, Sendable {
        /// The pointer is over the list: every row keeps its place.
        case everywhere
        /// The keyboard is on this device's row: it and the rows above it keep their places.
        case row(DeviceID)
        /// Neither: a row whose device went may leave.
        case nowhere
    }

    /// Asked at each refresh; the page says where the pointer and the keyboard are.
    public var aim: @MainActor () -> Aim = { .everywhere }
    /// Sorting and filters; `onPreferencesChange` hears every change. How the scan runs is the policy's.
    public var preferences = ScannerPreferences() {
        didSet {
            guard preferences != oldValue else { return }
            publish(.sort)
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
    public var trackersOnly: Bool {
        get { preferences.trackersOnly }
        set { preferences.trackersOnly = newValue }
    }
    /// Devices weaker than this are hidden, dBm.
    public var minimumRSSI: Int {
        get { preferences.minimumRSSI }
        set { preferences.minimumRSSI = newValue }
    }
    /// Ctrl+F: matches name, nickname, address and company; not kept across restarts.
    public var searchText = "" { didSet { if searchText != oldValue { publish(.sort) } } }

    /// How long after a sort the list is not offered another, seconds: a list whose signals
    /// change would otherwise offer one at every refresh.
    ///
    /// Rows never move on their own. The eyes lead the pointer: a list that re-sorts whenever
    /// the pointer is elsewhere moves the row the user is aiming at. What the user asks for
    /// (Sort Again, a sort, a search, a filter) sorts at once; newcomers meanwhile go last, and
    /// a row whose device went keeps its place, dimmed, until the next sort.
    public var orderHold: TimeInterval = 10
    /// When the live list was last sorted.
    private var sortedAt: Date?
    private var orderHoldIsOver: Bool { sortedAt.map { now().timeIntervalSince($0) >= orderHold } ?? true }

    // MARK: Borrowed
    let live: LiveDevices
    private let policy: ScanPolicy
    let favorites: Favorites
    private let hidden: HiddenDevices?
    private let now: () -> Date

    // MARK: Owned
    private var order: [DeviceID] = []
    private let observers = ChangeObservers()
    private var tokens: [ObservationToken] = []
    /// Each publish's snapshot is numbered: one taken earlier whose job ends later (a background
    /// result that raced a synchronous publish, or a later background one) is older than what is
    /// shown, and is not applied over it.
    private var snapshots = 0
    private var appliedSnapshot = 0
    /// A background publish is under way; another fold meanwhile asks for one more after it.
    private var republishing = false
    private var republishAgain = false
    /// Set while `tick()` publishes itself, so the fold it causes does not publish twice.
    private var ticking = false
    /// The capture seen open at the last change, to notice when it closes.
    private var openRecording: String?
    private var recordingEnd: RecordingEnd?

    /// Creates the view of `live` for the Scanner page, which scans as `policy` decides.
    public init(live: LiveDevices, policy: ScanPolicy, favorites: Favorites, hidden: HiddenDevices? = nil,
                now: @escaping () -> Date = { Date() }) {
        self.live = live
        self.policy = policy
        self.favorites = favorites
        self.hidden = hidden
        self.now = now
        tokens.append(policy.observe { [weak self] in self?.publish(.hold) })
        tokens.append(favorites.observe { [weak self] in self?.publish(.hold) })
        if let hidden { tokens.append(hidden.observe { [weak self] in self?.publish(.hold) }) }
        tokens.append(live.observe { [weak self] change in self?.liveChanged(change) })
    }

    /// Calls `handler` after every published change.
    public func observe(_ handler: @escaping @MainActor () -> Void) -> ObservationToken { observers.observe(handler) }

    /// Whether scanning runs (or is starting).
    public var isRunning: Bool { live.isRunning }

    /// When Only New Devices was turned on, or nil while it is off.
    public var onlyNewSince: Date? { hidden?.newDevicesMark?.since }

    /// Only New Devices: on marks every device seen so far as known.
    public func setOnlyNewDevices(_ on: Bool) {
        hidden?.setOnlyNewDevices(on, known: Set(live.all.keys))
        publish(.sort)
    }

    /// Whether a filter, Only New Devices or the search leaves devices out: what Show All Devices clears.
    public var isFiltered: Bool {
        preferences.favoritesOnly || preferences.hideUnnamed || preferences.trackersOnly
            || preferences.minimumRSSI > ScannerPreferences.showsAll || onlyNewSince != nil || !searchText.isEmpty
    }

    /// Show All Devices: every filter off, Only New Devices and the search too, so that no
    /// other filter still ticked leaves the user on an empty list. Devices the user hid stay
    /// hidden; Preferences lists them.
    public func showAllDevices() {
        hidden?.setOnlyNewDevices(false, known: Set(live.all.keys))
        searchText = ""
        var all = preferences
        all.favoritesOnly = false
        all.hideUnnamed = false
        all.trackersOnly = false
        all.minimumRSSI = ScannerPreferences.showsAll
        preferences = all
        publish(.sort)
    }

    /// Puts the rows in the chosen order again (the devices that went leave the list).
    public func sortAgain() {
        publish(.sort)
    }

    /// The name `id` advertises, if it is live and named (what a new favorite remembers).
    public func name(of id: DeviceID) -> String? { live[id]?.advertised.name }

    // MARK: Recording (recording and export: ScannerViewModel+Recording.swift)

    /// How a recording ended, for a notice: where it went, and why it ended early if it did.
    public struct RecordingEnd: Equatable, Sendable {
        public let path: String
        public let failure: RecordingError?
    }

    /// The recording that ended since the last call, once, so the page can say where it went.
    public func takeRecordingEnd() -> RecordingEnd? {
        defer { recordingEnd = nil }
        return recordingEnd
    }

    // MARK: Intents

    /// Starts scanning (a fresh scanner, so a failed source is retried).
    public func start() {
        policy.scanInForeground()
    }

    /// Switches the adapter on (the system may ask for authorisation first), then scans.
    public func turnOn() {
        policy.powerOn()
    }

    /// Whether the adapter is off and Turn On can switch it on.
    public var canTurnOn: Bool { state == .failed(.adapterOff) }

    /// What the failure page's button does: Turn On when Bluetooth is off, else Try Again.
    public func recover() {
        if canTurnOn { turnOn() } else { start() }
    }

    /// The page is left: the quiet background scan takes over if it is on, else scanning stops.
    /// Out of sight, the list is sorted: it comes back in order.
    public func leave() {
        ticking = true
        policy.leaveForeground()
        ticking = false
        publish(.sort)
    }

    /// Stops scanning; the list stays.
    public func stop() {
        ticking = true
        policy.stop()
        ticking = false
        publish(.hold)
    }

    /// Folds in everything received since the last tick and republishes, all at once.
    public func tick() {
        ticking = true
        live.tick()
        ticking = false
        publish(.hold)
    }

    /// Waits until the live model has taken in everything its scanner sent so far, then
    /// publishes at once: what tests await instead of sleeping.
    public func drain() async {
        await live.drain()
        tick()
    }

    private func liveChanged(_ change: LiveDevices.Change) {
        switch change {
        case .state:
            if let path = openRecording, live.recordingPath != path {
                recordingEnd = RecordingEnd(path: path, failure: live.recordingFailure)
            }
            openRecording = live.recordingPath
            observers.notify()
        case .devices:
            guard !ticking else { return }
            if republishing { republishAgain = true } else { Task { await refresh() } }
        }
    }

    /// What each fold of the live devices runs: filters thousands of devices on a background
    /// thread, so frames keep coming meanwhile. Rows keep their places.
    public func refresh() async {
        republishing = true
        defer { republishing = false }
        repeat {
            republishAgain = false
            let job = publishJob(.hold)
            snapshots += 1
            let snapshot = snapshots
            let result = await Task.detached(priority: .userInitiated) { job.run() }.value
            // A filter or favorite changed meanwhile and was published at once, or a later
            // snapshot's job ended first: this result is older.
            if snapshot > appliedSnapshot {
                appliedSnapshot = snapshot
                apply(result)
            }
        } while republishAgain
    }

    private func publish(_ placement: PublishJob.Placement) {
        snapshots += 1
        appliedSnapshot = snapshots
        apply(publishJob(placement).run())
    }

    private func apply(_ result: PublishJob.Result) {
        if result.sorted { sortedAt = now() }
        rows = holdingReadings(result.rows)
        order = result.order
        canSortAgain = result.outdated
        hiddenCount = result.hidden
        hiddenByUserCount = result.hiddenByUser
        refreshCount += 1
        observers.notify()
    }

    /// A row's readings as last shown, and since when.
    private var shownReadings: [DeviceID: (text: String, brief: String?, since: Date)] = [:]
    /// How long a row keeps the readings it shows: a sensor whose figures change with every
    /// report would otherwise redraw its row at every refresh.
    static let readingsHold: TimeInterval = 2

    private func holdingReadings(_ rows: [Row]) -> [Row] {
        let t = now()
        if shownReadings.count > rows.count + 1_000 { shownReadings = [:] }
        return rows.map { row in
            guard let text = row.readings else { return row }
            if let shown = shownReadings[row.id], shown.text != text {
                guard t.timeIntervalSince(shown.since) >= Self.readingsHold else {
                    var held = row
                    held.readings = shown.text
                    held.briefReadings = shown.brief
                    return held
                }
            } else if shownReadings[row.id] != nil {
                return row
            }
            shownReadings[row.id] = (text, row.briefReadings, t)
            return row
        }
    }

    /// Everything a publish needs, copied, so it can run on any thread.
    private func publishJob(_ placement: PublishJob.Placement) -> PublishJob {
        PublishJob(devices: live.all, favorites: favorites.snapshot, hidden: hidden?.hidden ?? [:],
                   newMark: hidden?.newDevicesMark, preferences: preferences,
                   needle: searchText.trimmingCharacters(in: .whitespaces).lowercased(),
                   unknown: L10n.tr("Unknown device"), now: now(), fadeAfter: live.isReplayOver ? .infinity : live.effectiveFadeAfter,
                   showsAge: live.isReplayOver, order: order,
                   moved: Dictionary(order.compactMap { id in live.listed(as: id).map { (id, $0) } }, uniquingKeysWith: { first, _ in first }),
                   aim: aim(), previous: rows, placement: placement,
                   checksOrder: orderHoldIsOver, sensorKeys: live.sensorKeys)
    }

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
