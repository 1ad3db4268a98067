// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation

/// One signal reading of a device.
public struct Sighting: Equatable, Sendable {
    /// The device.
    public let id: DeviceID
    /// When it was heard.
    public let time: Date
    /// Received signal strength, in dBm.
    public let rssi: Int

    /// Creates a reading.
    public init(id: DeviceID, time: Date, rssi: Int) {
        self.id = id
        self.time = time
        self.rssi = rssi
    }
}

/// What the store knows of a device's history.
public struct SightingSummary: Equatable, Sendable {
    /// The earliest kept reading.
    public let firstSeen: Date
    /// The latest reading.
    public let lastSeen: Date
    /// How many readings are kept.
    public let count: Int

    /// Creates a summary.
    public init(firstSeen: Date, lastSeen: Date, count: Int) {
        self.firstSeen = firstSeen
        self.lastSeen = lastSeen
        self.count = count
    }
}

/// How much signal history is kept.
public struct SightingRetention: Equatable, Sendable {
    /// Readings older than this are deleted, in days.
    public var days: Int
    /// At most this many readings are kept; the oldest go first.
    public var maxRows: Int

    /// The defaults: 30 days and 200,000 readings.
    public static let standard = SightingRetention(days: 30, maxRows: 200_000)

    /// Creates a retention policy.
    public init(days: Int, maxRows: Int) {
        self.days = days
        self.maxRows = maxRows
    }
}
