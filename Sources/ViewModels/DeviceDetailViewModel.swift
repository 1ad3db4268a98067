// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import Localization

/// Everything one device says about itself, live while it is heard.
@MainActor
public final class DeviceDetailViewModel {
    // MARK: State
    public let id: DeviceID
    /// Nickname, else name, else the address.
    public private(set) var title = ""
    /// The last signal reading, dBm; nil when not heard in this session. Where several sources
    /// hear the device, the reading of the source whose room it is in (the room rule: a clear lead
    /// held 10 s), so the figure does not jump between them.
    public private(set) var rssi: Int?
    /// Whose reading `rssi` is ("Kitchen"), where several sources hear the device; Heard By has the rest.
    public private(set) var rssiSource: String?
    /// Tags decoded from the advertising data.
    public private(set) var keywords: [String] = []
    /// First and last sighting and their count, from the store.
    public private(set) var summary: SightingSummary?
    /// True until the stored history has loaded.
    public private(set) var isLoading = true
    public var isFavorite: Bool { favorites.isFavorite(id) }
    /// Whether the device accepts LE connections: nil when unknown (not heard yet), false for BR/EDR.
    public private(set) var isConnectable: Bool?
    /// When the device was last heard in this session; nil when it was not.
    public private(set) var lastHeard: Date?
    /// Labelled facts for the list above the keywords.
    public private(set) var properties = Properties()
    /// What it says as a sensor: its maker and model and each reading; nil for no sensor.
    public internal(set) var readings: Readings?
    /// Signal readings of this session, for the plot.
    public var history: [(Date, Int)] { live[id]?.trace.readings ?? [] }
    /// Readings of the last minutes from the store (favorites only), loaded with the summary.
    private var storedHistory: [(Date, Int)] = []

    /// The plot's time span, seconds.
    public static let historySpan: Double = 300

    /// What the property list shows; nil values are left out.
    public struct Properties: Equatable, Sendable {
        /// "C0:98:E5:49:00:06", and what its type means ("Fixed address").
        public var address = ""
        public var addressKind = ""
        /// The type as the specification names it ("LE static random"), for the row's tooltip.
        public var addressTerm = ""
        /// What the type means for recognising the device (a private address changes), if anything.
        public var addressNote: String?
        /// The advertised name, when a nickname hides it.
        public var advertisedName: String?
        /// Every company heard, by name.
        public var manufacturer: String?
        /// Every service listed, named where known.
        public var services: String?
        /// "−8 dBm".
        public var txPower: String?
        /// The private address it was heard from, when a key resolved it to this device or it
        /// was seen to change its address.
        public var heardAs: String?
        /// The addresses it used before, when it was seen to change its address.
        public var earlierAddresses: String?
    }

    // MARK: Recognition (a key typed in for a device bonded elsewhere)

    /// Whether the page offers a key: a favorite on LE, where addresses can change, or any device
    /// that still has one (a favorite removed since), so its key can be removed too. Not for a
    /// device paired here: its key came with the pairing, and Forget removes both.
    public var canHoldKey: Bool {
        guard let identities, id.kind.transport == .le, !identities.isPairedHere(id), isFavorite || hasKey else { return false }
        if hasKey { return true }
        // Only a device that uses private addresses needs one: a thermometer on a fixed address
        // would show a second key beside its sensor's own.
        switch id.addressType {
        case .resolvablePrivate: return true
        // Saved under its identity address, it may be heard under private ones; heard as itself, it is not.
        case .lePublic: return live[id].map { $0.currentAddress != id } ?? true
        default: return false
        }
    }
    /// Whether a key recognises this device now.
    public var hasKey: Bool { identities?.hasKey(id) ?? false }

    /// What became of a key: said under the entry.
    public struct KeyResult: Equatable, Sendable {
        /// Whether the key is now in use.
        public let kept: Bool
        /// What happened, in words.
        public let message: String
    }

    /// Uses `text` (32 hex digits, any order of bytes) to recognise this device from now on.
    public func useKey(_ text: String) async -> KeyResult {
        guard let identities else { return KeyResult(kept: false, message: L10n.tr("This source cannot use keys.")) }
        let key: IdentityResolvingKey
        do {
            key = try IdentityResolvingKey(parsing: text)
        } catch {
            switch error {
            case .wrongLength(let count):
                return KeyResult(kept: false, message: L10n.plural("A key has 32 hex digits; this one has {} digit.",
                                                                   "A key has 32 hex digits; this one has {} digits.", count))
            case .notHex(let character):
                return KeyResult(kept: false, message: L10n.format("“{}” is not a hex digit (0–9, A–F).",
                                                                   DeviceText.shown(String(character))))
            }
        }
        let heard = live.all.values.flatMap { [$0.id, $0.heardAddress].compactMap { $0 } }
        do {
            switch try await identities.addKey(key, for: id, heard: heard) {
            case .kept(_, matched: nil):
                refresh()
                return KeyResult(kept: true, message: L10n.tr("Key saved. FavBlue now recognises this device when its address changes."))
            case .kept(_, matched: let address?):
                refresh()
                // Saved under a fixed address, the favorite cannot check the key itself: the device it
                // resolved is shown as this one from now on, so the user is told which it was.
                let matched = live.all.values.first { $0.id == address || $0.heardAddress == address }
                let shown = DeviceText.isolated(address.address)
                if let name = matched?.advertised.name {
                    return KeyResult(kept: true, message: L10n.format(
                        "Key saved. It matches “{}”, heard at {}, which FavBlue now shows as this favorite. If that is another device, remove the key.",
                        DeviceText.isolated(name), shown))
                }
                return KeyResult(kept: true, message: L10n.format(
                    "Key saved. It matches the device heard at {}, which FavBlue now shows as this favorite. If that is another device, remove the key.",
                    shown))
            case .noMatch(ownAddress: true):
                return KeyResult(kept: false, message: L10n.tr(
                    "This key does not match the address this favorite was saved with. It may belong to another device."))
            case .noMatch(ownAddress: false):
                return KeyResult(kept: false, message: L10n.tr(
                    "This key matches none of the addresses heard. Check it, or try again while the device is nearby."))
            }
        } catch {
            return KeyResult(kept: false, message: L10n.format("The key could not be saved: {}", "\(error)"))
        }
    }

    // MARK: Notifications (favorites only)

    /// Which notifications this favorite sends; empty for a device that is no favorite.
    public var alerts: PresenceAlerts { favorites.favorite(id)?.alerts ?? [] }

    /// Sets which notifications this favorite sends, both at once, so two quick toggles cannot undo each other.
    public func setAlerts(_ alerts: PresenceAlerts) async {
        savingAlerts += 1
        await favorites.setAlerts(id, alerts)
        savingAlerts -= 1
    }

    /// Whether a change of the notifications is still being written.
    public var isSavingAlerts: Bool { savingAlerts > 0 }
    private var savingAlerts = 0

    /// Stops recognising this device by its key, and deletes the key. Nil, or what went wrong.
    public func removeKey() async -> String? {
        do {
            try await identities?.forget(id)
            refresh()
            return nil
        } catch {
            return L10n.format("The key could not be removed: {}", "\(error)")
        }
    }

    /// "Last heard just now" under a minute as of `now`, "Last heard 4 min ago" under an hour,
    /// else "Last heard" with the date and time (a replay's old readings), or "Not heard in this
    /// session": the one rule for moments.
    public func lastHeardText(now: Date = Date()) -> String {
        guard let lastHeard else { return L10n.tr("Not heard in this session") }
        let seconds = now.timeIntervalSince(lastHeard)
        guard seconds >= -1, seconds < 3600 else { return L10n.format("Last heard {}", Formats.dateTime(lastHeard)) }
        if Formats.isJustNow(seconds) { return L10n.tr("Last heard just now") }
        return L10n.format("Last heard {} ago", Formats.age(seconds: seconds))
    }

    /// Whether the figure is older than the fade time, so the page dims it.
    public func isStale(now: Date = Date()) -> Bool {
        live[id].map { live.isStale($0, at: now) } ?? false
    }

    /// The signal over the last five minutes, for the plot and its description.
    public struct SignalHistory: Equatable, Sendable {
        /// (seconds before now, dBm), oldest first.
        public let points: [Point]
        public let lowest: Int
        public let highest: Int
        public let last: Int

        public struct Point: Equatable, Sendable {
            public let secondsAgo: Double
            public let rssi: Int
        }
    }

    /// Stored and live readings within `historySpan` of `now`; nil when there are none.
    public func signalHistory(now: Date = Date()) -> SignalHistory? {
        let live = history
        // Favorites' live readings are also stored; keep the stored ones only from before this session.
        let firstLive = live.first?.0 ?? .distantFuture
        let merged = storedHistory.filter { $0.0 < firstLive } + live
        let points = merged.compactMap { time, rssi -> SignalHistory.Point? in
            let ago = now.timeIntervalSince(time)
            return ago <= Self.historySpan && ago >= -1 ? SignalHistory.Point(secondsAgo: max(ago, 0), rssi: rssi) : nil
        }
        guard let last = points.last else { return nil }
        let values = points.map(\.rssi)
        return SignalHistory(points: points, lowest: values.min()!, highest: values.max()!, last: last.rssi)
    }

    /// What Export Signal History writes: every stored sighting, then this session's readings
    /// (the plotted window), oldest first. As in the plot, stored readings from this session are
    /// left to the live ones, so none is written twice.
    public func exportableHistory() async -> [(Date, Int)] {
        let stored = ((try? await sightings?.history(for: id, since: Date(timeIntervalSince1970: 0))) ?? [])
            .map { ($0.time, $0.rssi) }
        let live = history
        let firstLive = live.first?.0 ?? .distantFuture
        return (stored.filter { $0.0 < firstLive } + live).sorted { $0.0 < $1.0 }
    }

    /// A file name to suggest for the history: the title, made safe for any file system.
    public var historyFileName: String {
        let safe = title.map { "/\\:*?\"<>|".contains($0) || $0.isNewline ? "-" : $0 }
        // Translators: the suggested file name for a device's exported signal history; {} is its name.
        return L10n.format("Signal history of {}", String(safe.prefix(60))) + ".csv"
    }

    // MARK: Borrowed
    let favorites: Favorites
    let live: LiveDevices
    private let sightings: SightingsRepository?
    private let policy: ScanPolicy?
    private let identities: Identities?
    private let pairing: Pairing?
    let sensorKeys: SensorKeyBook?
    /// The period the readings' plots show, and the stored readings of the day or week.
    public internal(set) var readingsPeriod: ReadingsPeriod = .hour
    var storedReadings: StoredReadings?
    /// What the device says as a sensor, opened with its key, as of the last refresh.
    private(set) var sensor: SensorData?
    /// Whether this route can pair now, so the page only suggests pairing where it can.
    private var canPair: Bool { pairing.map { $0.unavailableReason == nil } ?? false }
    private let observers = ChangeObservers()
    /// Whether this page started the scan it shows (no page below held one).
    private var holdsScan = false
    private var tokens: [ObservationToken] = []

    /// Creates the model for `id`, a view of its entry in `live`.
    public init(id: DeviceID, favorites: Favorites, live: LiveDevices, sightings: SightingsRepository?,
                policy: ScanPolicy? = nil, identities: Identities? = nil, pairing: Pairing? = nil,
                sensorKeys: SensorKeyBook? = nil) {
        self.pairing = pairing
        self.sensorKeys = sensorKeys
        self.id = id
        self.policy = policy
        self.identities = identities
        self.favorites = favorites
        self.live = live
        self.sightings = sightings
        tokens.append(favorites.observe { [weak self] in self?.refresh() })
        tokens.append(live.observe { [weak self] _ in self?.refresh() })
        if let identities { tokens.append(identities.observe { [weak self] in self?.refresh() }) }
        refresh()
    }

    func observersNotify() { observers.notify() }

    /// Calls `handler` after every change.
    public func observe(_ handler: @escaping @MainActor () -> Void) -> ObservationToken { observers.observe(handler) }

    /// The page is shown: the reading and the plot stay live. A scan a page below holds (the
    /// Scanner's, even stopped by the user) is kept as it is; otherwise the page scans itself.
    public func appear() {
        guard let policy, !live.isForeground else { return }
        policy.scanInForeground()
        holdsScan = true
    }

    /// The page is covered or gone: a scan it started goes back to what runs without it.
    public func disappear() {
        guard holdsScan else { return }
        holdsScan = false
        policy?.leaveForeground()
    }

    /// Loads the stored sightings (the page shows a spinner until then).
    public func load() async {
        if let sightings {
            summary = try? await sightings.summary(for: id)
            let since = Date().addingTimeInterval(-Self.historySpan)
            storedHistory = ((try? await sightings.history(for: id, since: since)) ?? []).map { ($0.time, $0.rssi) }
        }
        isLoading = false
        refresh()
    }

    private func refresh() {
        let favorite = favorites.favorite(id)
        let device = live[id]
        title = favorites.name(of: id)
        // The last reading, as the plot's "last"; the Scanner's list shows the smoothed figure.
        rssi = device?.rssi
        rssiSource = nil
        if let device, Set(device.heardBy.map(\.source)).count > 1, let room = device.room.room,
           let hearing = device.heardBy.first(where: { $0.source == room }), let reading = hearing.rssi {
            rssi = reading
            rssiSource = live.roomName(room)
        }
        lastHeard = device?.lastSeen
        isConnectable = id.kind.transport == .le ? device?.advertised.connectable : false
        // Opened once per refresh (an encrypted frame costs a decryption); the readings' other views read it.
        sensor = live.sensor(of: id)
        keywords = Self.keywords(id: id, advertised: device?.advertised, format: sensor?.model?.maker)
        readings = Self.readings(sensor, name: title)
        properties = Self.properties(id: id, advertised: device?.advertised, format: sensor?.model?.maker)
        // Translators: {} is the private address a device used when it was last heard.
        properties.heardAs = device?.heardAddress.map { L10n.format("{}, resolved", $0.address) }
        if let device, !device.formerAddresses.isEmpty {
            // Translators: {} is the private address a device uses now, after it was seen to change it.
            properties.heardAs = L10n.format("{}, in use now", device.currentAddress.address)
            properties.earlierAddresses = device.formerAddresses.map(\.address).joined(separator: ", ")
            if !hasKey {
                properties.addressNote = canPair
                    ? L10n.tr("This device changes its address. FavBlue keeps it in one row while it advertises the same data; only pairing, or its key, recognises it for certain.")
                    : L10n.tr("This device changes its address. FavBlue keeps it in one row while it advertises the same data; only its key recognises it for certain.")
            }
        }
        if canHoldKey, id.addressType == .resolvablePrivate {
            properties.addressNote = hasKey
                ? L10n.tr("This address changes every few minutes; the key set below recognises the device whatever address it uses.")
                : canPair
                    ? L10n.tr("This address changes every few minutes. To recognise the device when it changes, pair with it, or set its key below.")
                    : L10n.tr("This address changes every few minutes. To recognise the device when it changes, set its key below.")
        }
        observers.notify()
    }
}
