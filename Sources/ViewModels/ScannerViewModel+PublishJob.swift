// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import Localization

extension ScannerViewModel {
    /// Filters, sorts and builds the rows from a copy of the devices.
    struct PublishJob: Sendable {
        /// Where the rows go.
        enum Placement: Sendable {
            /// In the chosen order; devices that went leave the list.
            case sort
            /// Where they were: newcomers go last, and a row whose device went (or no longer
            /// passes a filter) stays in its place, dimmed, so nothing above a row moves.
            /// Only the user's own hiding takes a row out at once.
            case hold
        }

        let devices: [DeviceID: LiveDevice]
        let favorites: [DeviceID: Favorite]
        /// Hidden by the user: left out, and counted apart from the filters.
        let hidden: [DeviceID: HiddenDevice]
        /// While Only New Devices is on: devices known before it are left out.
        let newMark: NewDevicesMark?
        let preferences: ScannerPreferences
        let needle: String
        let unknown: String
        let now: Date
        /// Seconds after which a row fades; infinite once a replay is over.
        let fadeAfter: Double
        /// Whether every row says how old its reading is (a finished replay); faded rows always do.
        let showsAge: Bool
        let order: [DeviceID]
        /// Devices in `order` now listed under another id (an identity resolved, an address folded).
        let moved: [DeviceID: DeviceID]
        /// Where the user may be aiming: a row whose device went keeps its place only above it.
        let aim: Aim
        /// The rows shown now, for those whose place is held after their device went.
        let previous: [Row]
        let placement: Placement
        /// Whether to find out if sorting would change the list (`Result.outdated`).
        let checksOrder: Bool
        /// Opens encrypted sensors whose key the user gave.
        let sensorKeys: SensorKeys?

        /// A tag that does not say where its owner is (a Tile) may be anyone's passing by: its
        /// row calls it a tracker, and the Scanner offers alerts, only once it stayed as long as
        /// a tag that says it is away would be judged on.
        static let unknownTagAfter: TimeInterval = 10 * 60

        static func saysTracker(_ reading: TrackerReading, heardFor seconds: TimeInterval) -> String? {
            reading.state == .unknown && seconds < unknownTagAfter ? nil : reading.words
        }

        struct Result: Sendable {
            let rows: [Row]
            let order: [DeviceID]
            let hidden: Int
            let hiddenByUser: Int
            /// The rows were put in the chosen order.
            let sorted: Bool
            /// Sorting now would change the list.
            let outdated: Bool
        }

        func run() -> Result {
            let p = preferences
            var visible: [Row] = []
            visible.reserveCapacity(devices.count)
            var hiddenByUser = 0
            for (id, device) in devices {
                if hidden[id] != nil {
                    hiddenByUser += 1
                    continue
                }
                if let newMark, !newMark.isNew(id) { continue }
                let favorite = favorites[id]
                let advertised = device.advertised
                // Phones and laptops join the Find My networks too; only tags are called trackers.
                let tracker = TrackerTable.read(advertised).flatMap { $0.kind.isTag ? $0 : nil }
                // A tag sends no name: it goes by its kind, and is never hidden as unnamed.
                let name = DisplayName.name(favorite: favorite, advertisedName: advertised.name) ?? tracker?.kind.name
                if p.hideUnnamed && name == nil && favorite == nil { continue }
                if p.favoritesOnly && favorite == nil { continue }
                if p.trackersOnly && tracker == nil { continue }
                let rssi = device.smoothed
                if let rssi, rssi < p.minimumRSSI { continue }
                if !needle.isEmpty {
                    let haystack = [name, advertised.name, id.address] + advertised.manufacturerData.map(\.companyName)
                    if !haystack.contains(where: { $0?.lowercased().contains(needle) == true }) { continue }
                }
                let sensor = device.sensor(keys: sensorKeys)
                let age = device.age(at: now)
                let stale = age > fadeAfter || (device.departed && fadeAfter.isFinite)
                // A faded row says how old its figure is, so a silent device does not look current.
                visible.append(Row(id: id, key: device.key, title: name ?? unknown, isUnnamed: name == nil,
                                   subtitle: device.identifierLine, rssi: rssi, level: ScannerViewModel.level(rssi),
                                   isFavorite: favorite != nil, isStale: stale,
                                   age: showsAge || stale ? Self.ago(age) : nil, lastSeen: device.lastSeen,
                                   tracker: tracker.flatMap { Self.saysTracker($0, heardFor: now.timeIntervalSince(device.firstSeen)) },
                                   readings: ReadingText.summary(sensor), briefReadings: ReadingText.summary(sensor, limit: 2)))
            }
            let rows: [Row]
            /// The rows' devices in order, and those hidden by the user where they were.
            var placedOrder: [DeviceID] = []
            var outdated = false
            switch placement {
            case .sort:
                rows = sorted(Array(visible.indices), visible).map { visible[$0] }
                placedOrder = rows.map(\.id)
            case .hold:
                // Rows never jump under the pointer or the eyes: keep places, append newcomers.
                var byID: [DeviceID: Int] = [:]
                byID.reserveCapacity(visible.count)
                for (position, row) in visible.enumerated() { byID[row.id] = position }
                // Made only once a row is missing: most refreshes miss none.
                lazy var before = Dictionary(previous.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
                var held: [Row] = []
                held.reserveCapacity(order.count + visible.count)
                var placed = Set<DeviceID>()
                // Below the row aimed at (or anywhere, with nothing aimed at), a row whose device
                // went may leave: only rows under it move up.
                var pastAim: Bool
                switch aim {
                case .nowhere: pastAim = true
                case .row, .everywhere: pastAim = false
                }
                for listed in order {
                    // A device now listed under its identity keeps the place it had.
                    let id = moved[listed] ?? listed
                    guard placed.insert(id).inserted else { continue }
                    if let position = byID[id] {
                        held.append(visible[position])
                        placedOrder.append(id)
                    } else if hidden[id] != nil {
                        // Hidden by the user: out at once, its place kept for Undo.
                        placedOrder.append(id)
                    } else if newMark?.isNew(id) ?? true, var row = before[id], !pastAim || aim == .row(id) {
                        // Gone, or no longer matching a filter: dimmed in its place until the next sort.
                        row.isStale = true
                        row.age = Self.ago(now.timeIntervalSince(row.lastSeen))
                        held.append(row)
                        placedOrder.append(id)
                        outdated = true
                    }
                    if aim == .row(id) { pastAim = true }
                }
                let newcomers = sorted(visible.indices.filter { !placed.contains(visible[$0].id) }, visible).map { visible[$0] }
                held += newcomers
                placedOrder += newcomers.map(\.id)
                rows = held
                if !outdated && checksOrder {
                    let wanted = sorted(Array(visible.indices), visible)
                    outdated = !wanted.map { visible[$0].id }.elementsEqual(rows.lazy.map(\.id))
                }
            }
            return Result(rows: rows, order: placedOrder, hidden: devices.count - visible.count - hiddenByUser,
                          hiddenByUser: hiddenByUser,
                          // The first rows of an empty list come in the chosen order.
                          sorted: placement == .sort || order.isEmpty, outdated: outdated)
        }

        /// `positions` of `visible` in the chosen order. Sorts positions on keys made once, not
        /// the rows themselves: thousands of rows, four times a second.
        private func sorted(_ positions: [Int], _ visible: [Row]) -> [Int] {
            var positions = positions
            switch preferences.sortOrder {
            case .signal:
                let signal = visible.map { $0.rssi ?? -200 }
                positions.sort { signal[$0] != signal[$1] ? signal[$0] > signal[$1] : visible[$0].id < visible[$1].id }
            case .name:
                let names = visible.map { DisplayName.sortKey($0.title) }
                positions.sort {
                    if names[$0] != names[$1] { return names[$0] < names[$1] }
                    if visible[$0].title != visible[$1].title { return visible[$0].title < visible[$1].title }
                    return visible[$0].id < visible[$1].id
                }
            case .lastSeen:
                let lastSeen = visible.map(\.lastSeen)
                positions.sort { lastSeen[$0] != lastSeen[$1] ? lastSeen[$0] > lastSeen[$1] : visible[$0].id < visible[$1].id }
            }
            return positions
        }

        /// "70 s ago".
        private static func ago(_ seconds: TimeInterval) -> String {
            L10n.format("{} ago", Formats.age(seconds: seconds))
        }
    }
}
