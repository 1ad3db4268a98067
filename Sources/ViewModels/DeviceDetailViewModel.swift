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
    /// The last signal reading, dBm; nil when not heard in this session.
    public private(set) var rssi: Int?
    /// Tags decoded from the advertising data.
    public private(set) var keywords: [String] = []
    /// First and last sighting and their count, from the store.
    public private(set) var summary: SightingSummary?
    /// True until the stored history has loaded.
    public private(set) var isLoading = true
    public var isFavorite: Bool { favorites.isFavorite(id) }
    /// Signal readings of this session, for the plot.
    public var history: [(Date, Int)] { live[id]?.trace.readings ?? [] }
    /// Readings of the last minutes from the store (favorites only), loaded with the summary.
    private var storedHistory: [(Date, Int)] = []

    /// The plot's time span, seconds.
    public static let historySpan: Double = 300

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

    // MARK: Borrowed
    private let favorites: FavoritesViewModel
    private let live: LiveDevices
    private let sightings: SightingsRepository?
    private let observers = ChangeObservers()
    private var tokens: [ObservationToken] = []

    /// Creates the model for `id`, a view of its entry in `live`.
    public init(id: DeviceID, favorites: FavoritesViewModel, live: LiveDevices, sightings: SightingsRepository?) {
        self.id = id
        self.favorites = favorites
        self.live = live
        self.sightings = sightings
        tokens.append(favorites.observe { [weak self] in self?.refresh() })
        tokens.append(live.observe { [weak self] _ in self?.refresh() })
        refresh()
    }

    /// Calls `handler` after every change.
    public func observe(_ handler: @escaping @MainActor () -> Void) -> ObservationToken { observers.observe(handler) }

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
        title = DisplayName.of(id: id, nickname: favorite?.nickname, advertisedName: device?.advertised.name ?? favorite?.lastKnownName)
        // The last reading, as the plot's "last"; the Scanner's list shows the smoothed figure.
        rssi = device?.rssi
        keywords = Self.keywords(id: id, advertised: device?.advertised)
        observers.notify()
    }

    /// Transport, connectable, address type, company, services, TX power, appearance or class, flags.
    static func keywords(id: DeviceID, advertised o: AdvertisedData?) -> [String] {
        var tags = [id.kind == .bredr ? L10n.tr("BR/EDR") : L10n.tr("Bluetooth LE"), id.kind.label]
        guard let o else { return tags }
        if let connectable = o.connectable { tags.append(connectable ? L10n.tr("Connectable") : L10n.tr("Not connectable")) }
        for maker in o.manufacturerData { tags.append(maker.companyName) }
        for service in o.services { tags.append(service.name ?? service.uuid) }
        for service in o.serviceData.keys.sorted(by: { $0.uuid < $1.uuid }) {
            tags.append(L10n.format("Data for {}", service.name ?? service.uuid))
        }
        if let tx = o.txPower { tags.append(L10n.format("TX power {}", SignalText.dBm(tx))) }
        if let appearance = o.appearance {
            tags.append(Appearance.name(appearance)
                        ?? L10n.format("Appearance 0x{}", String(appearance, radix: 16, uppercase: true)))
        }
        if let cod = o.classOfDevice { tags.append(L10n.format("Class: {}", DeviceClass.name(cod))) }
        if let flags = o.flags {
            if flags & 0x02 != 0 { tags.append(L10n.tr("General discoverable")) }
            if flags & 0x01 != 0 { tags.append(L10n.tr("Limited discoverable")) }
            if flags & 0x04 != 0 { tags.append(L10n.tr("LE only")) }
        }
        var seen = Set<String>()
        return tags.filter { seen.insert($0).inserted }
    }
}
