// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import Localization

extension ScannerViewModel {
    /// Filters, sorts and builds the rows from a copy of the devices.
    struct PublishJob: Sendable {
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
        let reorder: Bool
        /// Opens encrypted sensors whose key the user gave.
        let sensorKeys: SensorKeys?

        struct Result: Sendable {
            let rows: [Row]
            let order: [DeviceID]
            let hidden: Int
            let hiddenByUser: Int
        }

        func run() -> Result {
            let p = preferences
            var visible: [Row] = []
            var lastSeen: [Date] = []
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
                let age = device.age(at: now)
                let stale = age > fadeAfter || (device.departed && fadeAfter.isFinite)
                // A faded row says how old its figure is, so a silent device does not look current.
                visible.append(Row(id: id, key: device.key, title: name ?? unknown, isUnnamed: name == nil,
                                   subtitle: device.identifierLine, rssi: rssi, level: ScannerViewModel.level(rssi),
                                   isFavorite: favorite != nil, isStale: stale,
                                   age: showsAge || stale ? L10n.format("{} ago", Formats.age(seconds: age)) : nil,
                                   tracker: tracker?.words, readings: ReadingText.summary(LiveDevices.opened(advertised, heardAt: device.currentAddress.address,
                                                                                             keyFor: id.address, keys: sensorKeys))))
                lastSeen.append(device.lastSeen)
            }
            let rows: [Row]
            let newOrder: [DeviceID]
            if reorder {
                // Sort positions on keys made once, not the rows themselves: thousands of rows, four times a second.
                var positions = Array(visible.indices)
                switch p.sortOrder {
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
                    positions.sort { lastSeen[$0] != lastSeen[$1] ? lastSeen[$0] > lastSeen[$1] : visible[$0].id < visible[$1].id }
                }
                rows = positions.map { visible[$0] }
                newOrder = rows.map(\.id)
            } else {
                // Rows never jump under the pointer: keep places, append newcomers.
                var byID: [DeviceID: Int] = [:]
                byID.reserveCapacity(visible.count)
                for (position, row) in visible.enumerated() { byID[row.id] = position }
                let placed = Set(order)
                newOrder = order.filter { byID[$0] != nil } + visible.map(\.id).filter { !placed.contains($0) }.sorted()
                rows = newOrder.map { visible[byID[$0]!] }
            }
            return Result(rows: rows, order: newOrder, hidden: devices.count - rows.count - hiddenByUser,
                          hiddenByUser: hiddenByUser)
        }
    }
}
