// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation

/// What `favblue-scan trackers` prints: a line per tracker and per alert, or one JSON document.
/// Places are counted, never named. One thread prints, so one formatter serves.
enum TrackersReport {
    nonisolated(unsafe) private static let time: ISO8601DateFormatter = {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime]
        return f
    }()

    static func table(trackers: [TrackerWatch.Tracked], alerts: [TrackerAlert]) -> [String] {
        var lines = trackers.map { t in
            "tracker  \(t.addresses.map(\.address).joined(separator: ","))  \(t.family.rawValue)  \(t.kind.rawValue)  \(t.state.rawValue)  "
                + "\(time.string(from: t.firstSeen))–\(time.string(from: t.lastSeen))"
        }
        lines += alerts.map { a in
            "ALERT    \(a.addresses.map(\.address).joined(separator: ","))  \(a.family.rawValue)  \(a.minutes) min  \(a.places) places  "
                + "\(time.string(from: a.firstSeen))–\(time.string(from: a.lastSeen))"
        }
        return lines
    }

    static func json(trackers: [TrackerWatch.Tracked], alerts: [TrackerAlert]) -> String {
        let document: [String: Any] = [
            "trackers": trackers.map { t -> [String: Any] in
                ["addresses": t.addresses.map(\.address), "addressTypes": t.addresses.map { $0.kind.rawValue },
                 "family": t.family.rawValue, "kind": t.kind.rawValue, "state": t.state.rawValue,
                 "firstSeen": time.string(from: t.firstSeen), "lastSeen": time.string(from: t.lastSeen)]
            },
            "alerts": alerts.map { a -> [String: Any] in
                ["address": a.addresses.last?.address ?? "", "addresses": a.addresses.map(\.address), "family": a.family.rawValue,
                 "kind": a.kind.rawValue, "firstSeen": time.string(from: a.firstSeen), "lastSeen": time.string(from: a.lastSeen),
                 "minutes": a.minutes, "places": a.places]
            },
        ]
        let data = (try? JSONSerialization.data(withJSONObject: document, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}
