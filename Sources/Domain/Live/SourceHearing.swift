// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation

/// What one source (a room's gateway, this computer's adapter) hears of a device: its newest
/// and smoothed signal, when, and the last minutes of readings for a small plot.
public struct SourceHearing: Equatable, Sendable {
    /// The source's name, as the user gave it ("Kitchen").
    public let source: String
    public private(set) var rssi: Int?
    /// An exponential moving average, dBm: what the room choice compares.
    public private(set) var smoothed: Double?
    public private(set) var lastSeen: Date
    public private(set) var trace = SignalTrace()

    init(_ o: Observation, source: String) {
        self.source = source
        lastSeen = o.timestamp
        fold(o)
    }

    mutating func fold(_ o: Observation) {
        if o.timestamp > lastSeen { lastSeen = o.timestamp }
        guard let value = o.rssi else { return }
        rssi = value
        smoothed = smoothed.map { $0 * 0.7 + Double(value) * 0.3 } ?? Double(value)
        trace.add(value, at: o.timestamp)
    }
}

/// The room a device is in: the source that hears it best, changed only when another hears it
/// stronger by `margin` on the smoothed signal for `dwell` seconds, so that a device at the edge
/// of two rooms does not flap between them. A source that stopped hearing it gives the room up.
/// For the first `settle` seconds of hearing the room is simply the strongest source: the
/// first source to report is only the quickest, not the nearest.
public struct RoomChoice: Equatable, Sendable {
    public static let margin = 6.0
    public static let dwell: TimeInterval = 10
    /// A source silent this long about the device no longer counts.
    public static let stale: TimeInterval = 30
    /// How long after it is first heard the room follows the strongest source without a margin.
    public static let settle: TimeInterval = 3

    public private(set) var room: String?
    private var firstHeard: Date?
    private var challenger: String?
    private var challengerSince: Date?

    public init() {}

    /// Takes in the sources' hearings as of `now`.
    public mutating func update(_ hearings: [SourceHearing], at now: Date) {
        let fresh = hearings.filter { $0.smoothed != nil && now.timeIntervalSince($0.lastSeen) <= Self.stale }
        guard let best = fresh.max(by: { $0.smoothed! < $1.smoothed! }) else { return }
        let first = firstHeard ?? now
        firstHeard = first
        if now.timeIntervalSince(first) < Self.settle {
            room = best.source
            challenger = nil
            return
        }
        guard let room, let current = fresh.first(where: { $0.source == room }), let held = current.smoothed else {
            self.room = best.source
            challenger = nil
            return
        }
        guard best.source != room, best.smoothed! >= held + Self.margin else {
            challenger = nil
            return
        }
        if challenger != best.source {
            challenger = best.source
            challengerSince = now
        } else if let since = challengerSince, now.timeIntervalSince(since) >= Self.dwell {
            self.room = best.source
            challenger = nil
        }
    }
}
