// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import Localization

/// When and where a tracker was seen, for its page: its sightings of the last day cut into
/// stretches, one per stay at a place (or per scan session where no place can be told), with
/// the signal over the whole span. Places are numbered in the order it was first seen at them:
/// FavBlue keeps only their salted hashes, never a network's name.
public struct TrackerTimeline: Equatable {
    /// One stay.
    public struct Stretch: Equatable {
        /// The place's number (1 for the first), or nil where no place could be told.
        public let place: Int?
        public let isHere: Bool
        public let start: Date
        public let end: Date
        public let readings: Int
        public let strongest: Int?

        /// "Place 2 · where you are now"; "Heard" where no place could be told.
        public var title: String {
            guard let place else { return L10n.tr("Heard") }
            let name = L10n.format("Place {}", Formats.number(place))
            return isHere ? L10n.format("{} · where you are now", name) : name
        }

        /// "9:12 AM – 9:47 AM · 35 times · strongest −58 dBm".
        public var detail: String {
            let span = L10n.format("{} – {}", TrackerTimeline.when(start), TrackerTimeline.when(end))
            let times = L10n.plural("{} time", "{} times", readings, Formats.number(readings))
            guard let strongest else { return L10n.format("{} · {}", span, times) }
            return L10n.format("{} · {} · strongest {}", span, times, SignalText.dBm(strongest))
        }
    }

    public let start: Date
    public let end: Date
    public let stretches: [Stretch]
    /// The signal over the span: each sighting's time and dBm.
    public let signal: [(time: Date, rssi: Int)]

    /// Cuts `sightings` (oldest first) into stretches; nil when there are none.
    public init?(_ sightings: [TrackerSighting], here: String?) {
        guard let first = sightings.first, let last = sightings.last else { return nil }
        start = first.time
        end = last.time
        var numbers: [String: Int] = [:]
        var stretches: [Stretch] = []
        var open: (key: String, place: String?, start: Date, end: Date, readings: Int, strongest: Int?)?
        func close() {
            guard let o = open else { return }
            stretches.append(Stretch(place: o.place.flatMap { numbers[$0] }, isHere: o.place != nil && o.place == here,
                                     start: o.start, end: o.end, readings: o.readings, strongest: o.strongest))
        }
        for s in sightings {
            if let place = s.place, numbers[place] == nil { numbers[place] = numbers.count + 1 }
            let key = s.place ?? "session \(s.session)"
            if var o = open, o.key == key {
                o.end = s.time
                o.readings += 1
                if let rssi = s.rssi { o.strongest = max(o.strongest ?? rssi, rssi) }
                open = o
            } else {
                close()
                open = (key, s.place, s.time, s.time, 1, s.rssi)
            }
        }
        close()
        self.stretches = stretches
        signal = sightings.compactMap { s in s.rssi.map { (s.time, $0) } }
    }

    /// A time today, else a date and time: the day reaches back 24 hours.
    static func when(_ date: Date) -> String {
        Calendar.current.isDateInToday(date) ? Formats.time(date) : Formats.dateTime(date)
    }

    public static func == (a: TrackerTimeline, b: TrackerTimeline) -> Bool {
        a.start == b.start && a.end == b.end && a.stretches == b.stretches && a.signal.count == b.signal.count
    }

    /// What the drawing shows, in words: its accessible description.
    public var summary: String {
        let places = Set(stretches.compactMap(\.place)).count
        if places == 0 { return L10n.format("Seen between {} and {}.", Self.when(start), Self.when(end)) }
        return L10n.plural("Seen between {} and {}, at {} place.", "Seen between {} and {}, at {} places.", places,
                           Self.when(start), Self.when(end), Formats.number(places))
    }
}
