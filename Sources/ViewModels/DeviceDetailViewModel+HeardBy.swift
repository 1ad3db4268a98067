// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import Localization

/// Heard By: where several sources are in use, each one that heard the device, in the order
/// they first heard it (so the rows hold still while signals change), with its signal, how long
/// ago, and its last minutes of readings; the room it is in is marked.
extension DeviceDetailViewModel {
    public struct Hearing: Equatable {
        /// The source's name, as text ("Kitchen"): a gateway names itself, so it is device text.
        public let name: String
        /// "−61 dBm · Just now".
        public let detail: String
        /// Whether it is the room the device is in.
        public let isRoom: Bool
        /// Its readings over the last minutes, oldest first, dBm.
        public let readings: [Double]
        /// The span its plot draws: at least 20 dB, so that noise stays small.
        public var axis: ClosedRange<Double>? {
            guard let low = readings.min(), let high = readings.max() else { return nil }
            return PlotAxis.signal(low: low, high: high)
        }

        /// What a screen reader says of the row.
        public var spoken: String {
            isRoom ? L10n.format("{}, the room it is in, {}", name, detail) : L10n.format("{}, {}", name, detail)
        }
    }

    /// The sources that heard it, first heard first; empty with one source alone, and where
    /// only this computer heard it, whose signal the page says already.
    public func heardBy(now: Date = Date()) -> [Hearing] {
        guard let device = live[id] else { return [] }
        if device.heardBy.count == 1, device.heardBy[0].source == live.ownSource { return [] }
        let room = device.room.room
        return device.heardBy.map { h in
            let signal = h.rssi.map(SignalText.dBm) ?? L10n.tr("no signal figure")
            return Hearing(name: DeviceText.shown(live.roomName(h.source)), detail: L10n.format("{} · {}", signal, Formats.moment(h.lastSeen, now: now)),
                           isRoom: h.source == room, readings: h.trace.readings.map { Double($0.1) })
        }
    }

    /// Where this computer's radio has not heard it and only other rooms' sources have: why
    /// Connect cannot work ("Heard only in Kitchen and Office; …"); nil otherwise.
    public var heardOnlyElsewhere: String? {
        guard let own = live.ownSource, let device = live[id], !device.heardBy.isEmpty,
              !device.heardBy.contains(where: { $0.source == own }) else { return nil }
        let names = device.heardBy.map { DeviceText.shown(live.roomName($0.source)) }
        let rooms = names.count == 1 ? names[0]
            // Translators: the last two of several rooms' names, "Kitchen and Office".
            : L10n.format("{} and {}", names.dropLast().joined(separator: ", "), names.last!)
        // Translators: {} is one room's name, or several joined ("Kitchen and Office"); a name, not a noun.
        return L10n.format("Heard only in {}; this computer cannot reach it.", rooms)
    }
}
