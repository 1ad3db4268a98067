// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation

/// How often, how strongly and when a device was heard: the counters every fold of reports
/// keeps, the live model's and `favblue-scan`'s device table alike.
public struct ReportCounts: Equatable, Sendable {
    /// How many reports were counted.
    public private(set) var reports = 0
    /// The newest reading, dBm.
    public private(set) var rssi: Int?
    /// The strongest reading, dBm.
    public private(set) var rssiMax: Int?
    /// The earliest and the latest report.
    public private(set) var firstSeen: Date
    public private(set) var lastSeen: Date

    /// No report yet; the first one is expected at `time`.
    public init(at time: Date) {
        firstSeen = time
        lastSeen = time
    }

    /// Counts one report heard at `time`, with its reading in dBm if it carried one.
    public mutating func count(rssi value: Int?, at time: Date) {
        reports += 1
        if let value {
            rssi = value
            rssiMax = max(rssiMax ?? value, value)
        }
        lastSeen = max(lastSeen, time)
        firstSeen = min(firstSeen, time)
    }
}
