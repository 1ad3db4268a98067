// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation
import Localization

/// A favorite's limits on one of its readings: a notification when it goes above `above` or
/// below `below` (in the quantity's unit, °C for temperatures).
public struct ReadingLimit: Equatable, Sendable {
    /// The reading's name ("temperature", "temperature_2").
    public let key: String
    public var above: Double?
    public var below: Double?

    public init(key: String, above: Double? = nil, below: Double? = nil) {
        self.key = key
        self.above = above
        self.below = below
    }

    /// How far back a reading must come before the same limit can tell again: 2 % of the limit,
    /// at least 0.5, so a value hovering at the line sends one notification, not one a minute.
    public static func hysteresis(_ limit: Double) -> Double { max(0.5, abs(limit) * 0.02) }

    /// The limits as the favorites table keeps them: "temperature>25;temperature<-15".
    public static func encode(_ limits: [ReadingLimit]) -> String {
        limits.flatMap { limit in
            [limit.above.map { "\(limit.key)>\($0)" }, limit.below.map { "\(limit.key)<\($0)" }].compactMap { $0 }
        }.joined(separator: ";")
    }

    /// The limits of a stored text; a part that cannot be read is left out.
    public static func decode(_ text: String) -> [ReadingLimit] {
        var out: [ReadingLimit] = []
        for part in text.split(separator: ";") {
            guard let at = part.firstIndex(where: { $0 == ">" || $0 == "<" }),
                  let value = Double(part[part.index(after: at)...]), value.isFinite else { continue }
            let key = String(part[..<at])
            guard !key.isEmpty else { continue }
            var limit = out.first { $0.key == key } ?? ReadingLimit(key: key)
            if part[at] == ">" { limit.above = value } else { limit.below = value }
            out.removeAll { $0.key == key }
            out.append(limit)
        }
        return out
    }
}

/// Tells the desktop when a favorite's reading goes past a limit the user set: once per
/// crossing, then not again until the reading has come back by the limit's hysteresis.
@MainActor
public final class ReadingLimitsWatch {
    private let live: LiveDevices
    private let favorites: Favorites
    private let notifier: DesktopNotifier
    /// The limits now past, by device and "key>" or "key<".
    private var past: [DeviceID: Set<String>] = [:]
    private var tokens: [ObservationToken] = []
    /// How a reading reads in a notification ("25.4 °C", "77.7 °F"): set by the app.
    public var describe: @MainActor (SensorReading) -> String = { "\($0.value) \($0.quantity.unit)" }
    /// How a limit reads in a notification, as it was typed ("75 °F"): set by the app.
    public var describeLimit: @MainActor (Double, Quantity) -> String = { "\($0) \($1.unit)" }
    /// A reading's name in words ("Temperature"): set by the app.
    public var name: @MainActor (Quantity) -> String = { $0.key }

    public init(live: LiveDevices, favorites: Favorites, notifier: DesktopNotifier) {
        self.live = live
        self.favorites = favorites
        self.notifier = notifier
        tokens.append(live.observe { [weak self] _ in self?.evaluate() })
        tokens.append(favorites.observe { [weak self] in self?.evaluate() })
    }

    /// The newest event told, by device and key: each event is told once, not each report.
    private var toldEvents: [DeviceID: [String: Date]] = [:]

    /// Looks at every favorite with limits once.
    public func evaluate() {
        for favorite in favorites.snapshot.values where !favorite.readingLimits.isEmpty {
            guard let data = live.sensor(of: favorite.id), !data.readings.isEmpty else { continue }
            let values = Dictionary(data.named, uniquingKeysWith: { first, _ in first })
            var now = past[favorite.id] ?? []
            for limit in favorite.readingLimits {
                guard let reading = values[limit.key] else { continue }
                if reading.quantity.kind == .event {
                    if limit.above != nil { tellEvents(favorite, key: limit.key, quantity: reading.quantity) }
                    continue
                }
                for (mark, bound, beyond, back) in [
                    (">", limit.above, { (v: Double, b: Double) in v > b }, { (v: Double, b: Double) in v <= b - ReadingLimit.hysteresis(b) }),
                    ("<", limit.below, { (v: Double, b: Double) in v < b }, { (v: Double, b: Double) in v >= b + ReadingLimit.hysteresis(b) }),
                ] {
                    let tag = limit.key + mark
                    guard let bound else {
                        now.remove(tag)
                        continue
                    }
                    if now.contains(tag) {
                        if back(reading.value, bound) { now.remove(tag) }
                    } else if beyond(reading.value, bound) {
                        now.insert(tag)
                        tell(favorite, reading: reading, key: limit.key, bound: bound, above: mark == ">")
                    }
                }
            }
            past[favorite.id] = now
        }
    }

    /// Tells the events of `key` (a button pressed) heard since the last one told; the first look
    /// only marks where to start, so turning the switch on does not tell what happened before.
    private func tellEvents(_ favorite: Favorite, key: String, quantity: Quantity) {
        let events = live.recentStateChanges(of: favorite.id).filter { $0.key == key && $0.value != 0 }
        let since = toldEvents[favorite.id]?[key]
        guard let newest = events.last else {
            if since == nil { toldEvents[favorite.id, default: [:]][key] = .distantPast }
            return
        }
        toldEvents[favorite.id, default: [:]][key] = newest.time
        guard let since, newest.time > since,
              let words = QuantityCatalog.info(quantity.key)?.event(newest.value).map({ $0.0.words($0.steps) }) else { return }
        let device = DeviceText.isolated(favorites.name(of: favorite.id))
        notifier.send(id: "reading-\(favorite.id.storageKey)-\(key)-event", title: L10n.format("{}: {}", device, words),
                      body: L10n.format("At {}.", Formats.time(newest.time)), opening: favorite.id)
    }

    private func tell(_ favorite: Favorite, reading: SensorReading, key: String, bound: Double, above: Bool) {
        let device = DeviceText.isolated(favorites.name(of: favorite.id))
        if reading.quantity.kind == .binary {
            // A state that turned on ("Door open", "Motion"): what it is now says it all.
            notifier.send(id: "reading-\(favorite.id.storageKey)-\(key)-on", title: L10n.format("{}: {}", device, describe(reading)),
                          body: L10n.format("At {}.", Formats.time(Date())), opening: favorite.id)
            return
        }
        let limit = describeLimit(bound, reading.quantity)
        let what = name(reading.quantity)
        let title = above ? L10n.format("{}: {} above {}", device, what, limit) : L10n.format("{}: {} below {}", device, what, limit)
        notifier.send(id: "reading-\(favorite.id.storageKey)-\(key)-\(above ? "above" : "below")", title: title,
                      body: L10n.format("It reads {} now.", describe(reading)), opening: favorite.id)
    }
}
