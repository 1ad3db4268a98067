// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation

/// What the route tells the role: advertisements going on and off, and each central's log.
extension PeripheralRole {
    /// One line of a central's log.
    public struct LogEntry: Equatable, Sendable {
        public let time: Date
        public let event: PeripheralEvent
    }

    /// What one central did, newest last.
    public struct CentralLog: Equatable, Sendable {
        public let central: PeripheralCentral
        public var connected: Bool
        public var entries: [LogEntry]
    }

    /// One event from the route, on the main actor.
    func handle(_ event: PeripheralEvent) {
        switch event {
        case .advertising(let id, let isOn):
            if isOn { on.insert(id) } else { on.remove(id) }
            // A user's advertisement that stopped by itself (its duration) leaves the device unfindable.
            if !isOn, id != announcement?.id { later { await self.keepFindable() } }
        case .advertisingFailed(let id, let reason):
            on.remove(id)
            problems[id] = reason
        case .ended(let why):
            // Kept for Try Again: what the user had on, not the announcement FavBlue adds itself.
            let wasOn = on.filter { $0 != announcement?.id }
            if !wasOn.isEmpty || serving { lostState = (lostState.on.union(wasOn), lostState.serving || serving) }
            lost = why
            on = []
            serving = false
            announcement = nil
        case .wrote(_, let id, let value, _):
            values[id] = value
            log(event)
        case .subscribed(let central, let id, let indicate):
            following[central, default: [:]][id] = indicate
            log(event)
        case .unsubscribed(let central, let id):
            following[central]?[id] = nil
            log(event)
        case .disconnected(let central, _):
            following[central] = nil
            log(event)
        default:
            log(event)
        }
        observers.notify()
    }

    /// Adds `event` to its central's log, kept to `logLimit` entries.
    func log(_ event: PeripheralEvent) {
        guard let central = event.central else { return }
        let entry = LogEntry(time: now(), event: event)
        if let i = centrals.firstIndex(where: { $0.central == central }) {
            centrals[i].entries.append(entry)
            if centrals[i].entries.count > Self.logLimit { centrals[i].entries.removeFirst(centrals[i].entries.count - Self.logLimit) }
            if case .connected = event { centrals[i].connected = true }
            if case .disconnected = event { centrals[i].connected = false }
        } else {
            var disconnected = false
            if case .disconnected = event { disconnected = true }
            centrals.append(CentralLog(central: central, connected: !disconnected, entries: [entry]))
        }
    }

}

extension PeripheralEvent {
    /// The central it is about, if any.
    public var central: PeripheralCentral? {
        switch self {
        case .connected(let c), .mtu(let c, _), .read(let c, _), .wrote(let c, _, _, _), .subscribed(let c, _, _), .sent(let c, _, _, _),
             .unsubscribed(let c, _), .confirmed(let c, _), .encrypted(let c, _), .refused(let c, _), .disconnected(let c, _):
            return c
        case .advertising, .advertisingFailed, .ended:
            return nil
        }
    }
}
