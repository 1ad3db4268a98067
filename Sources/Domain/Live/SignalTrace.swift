// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation

/// A device's recent signal readings: at most one a second, a little over five minutes.
///
/// Kept compact (five bytes a reading), because a busy room holds thousands of traces.
public struct SignalTrace: Equatable, Sendable {
    /// Readings kept: a bit over five minutes at one a second.
    public static let capacity = 330

    /// Seconds since `origin`, one per reading, oldest first.
    private var offsets: [Float] = []
    /// dBm, one per reading.
    private var values: [Int8] = []
    private var origin: Date?

    /// No readings.
    public init() {}

    /// How many readings are kept.
    public var count: Int { values.count }

    /// The newest reading, dBm.
    public var last: Int? { values.last.map(Int.init) }

    /// Every reading, oldest first, as (time, dBm).
    public var readings: [(Date, Int)] {
        guard let origin else { return [] }
        return zip(offsets, values).map { (origin.addingTimeInterval(Double($0)), Int($1)) }
    }

    /// Adds a reading; within a second of the newest one it replaces that one's value.
    public mutating func add(_ rssi: Int, at time: Date) {
        let value = Int8(clamping: rssi)
        let base = origin ?? time
        origin = base
        let offset = Float(time.timeIntervalSince(base))
        if let newest = offsets.last, offset - newest < 1 {
            values[values.count - 1] = value
            return
        }
        offsets.append(offset)
        values.append(value)
        if values.count > Self.capacity {
            offsets.removeFirst(values.count - Self.capacity)
            values.removeFirst(values.count - Self.capacity)
            // A Float offset loses precision as it grows: move the origin up every hour or so.
            if let first = offsets.first, first > 3600 {
                origin = base.addingTimeInterval(Double(first))
                for i in offsets.indices { offsets[i] -= first }
            }
        }
    }
}
