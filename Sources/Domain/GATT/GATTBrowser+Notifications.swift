// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation
import Localization

/// Notifications and indications: subscribing through the Client Characteristic Configuration,
/// and each characteristic's log of what arrived, paused, cleared and counted per second.
extension GATTBrowser {
    /// Starts or stops the notifications (indications where the characteristic only indicates)
    /// of the characteristic at `handle`, through its Client Characteristic Configuration.
    public func setSubscribed(_ handle: UInt16, _ on: Bool) async {
        guard device != nil, let characteristic = characteristic(at: handle), on != subscribed.contains(handle),
              !busy.contains(handle) else { return }
        guard let cccd = characteristic.descriptors.first(where: { $0.uuid == BluetoothUUID(0x2902) }) else {
            subscribeProblems[handle] = .refused(L10n.tr("This characteristic has no configuration descriptor, so it cannot be subscribed to."))
            observers.notify()
            return
        }
        let indicate = !characteristic.properties.contains(.notify) && characteristic.properties.contains(.indicate)
        let generation = generation
        busy.insert(handle)
        // Subscribed from the moment it is asked: the first value can beat the answer.
        if on { subscribed.insert(handle) }
        observers.notify()
        var failure: GATTError?
        do {
            try await sessions.connector.subscribe(to: handle, cccd: cccd.handle, indicate: indicate, on: on)
        } catch {
            failure = error
        }
        // Values sent before the answer may still wait in the connector's feed: they belong
        // in the log, so the subscription ends after them.
        if !on, failure == nil { await sessions.eventsHandled() }
        guard generation == self.generation else { return }
        busy.remove(handle)
        subscribeProblems[handle] = failure
        if (failure == nil) != on { subscribed.remove(handle) } else { subscribed.insert(handle) }
        observers.notify()
    }

    /// Notifications per second of `handle`, over the last second.
    public func rate(of handle: UInt16) -> Int {
        let since = now().addingTimeInterval(-1)
        return arrivals[handle]?.filter { $0 > since }.count ?? 0
    }

    /// Pauses or resumes the log of `handle`; resuming adds what arrived meanwhile.
    public func setPaused(_ handle: UInt16, _ on: Bool) {
        if on {
            paused.insert(handle)
        } else {
            paused.remove(handle)
            if let waiting = held.removeValue(forKey: handle) { append(waiting, to: handle) }
        }
        observers.notify()
    }

    /// Empties the log of `handle`.
    public func clearLog(_ handle: UInt16) {
        logs[handle] = nil
        held[handle] = nil
        observers.notify()
    }

    func notified(_ handle: UInt16, _ value: [UInt8], at time: Date) {
        // A device may indicate Service Changed unasked once it is bonded.
        if handle == serviceChangedHandle { return servicesChanged() }
        guard subscribed.contains(handle) else { return }
        let reading = Reading(bytes: value, time: time, notified: true)
        values[handle] = reading
        received[handle, default: 0] += 1
        noteBattery(handle, value)
        // Changed in place: a copy of a thousand entries per notification is what a fast
        // device would feel.
        arrivals[handle, default: []].append(time)
        let cutoff = time.addingTimeInterval(-1)
        if let first = arrivals[handle]?.first, first <= cutoff {
            let stale = arrivals[handle]!.firstIndex { $0 > cutoff } ?? arrivals[handle]!.count
            arrivals[handle]!.removeFirst(stale)
        }
        if paused.contains(handle) {
            held[handle, default: []].append(reading)
            if held[handle]!.count > Self.logLimit { held[handle]!.removeFirst(held[handle]!.count - Self.logLimit) }
        } else {
            append([reading], to: handle)
        }
        scheduleNotify()
    }

    func append(_ readings: [Reading], to handle: UInt16) {
        logs[handle, default: []].append(contentsOf: readings)
        let over = logs[handle]!.count - Self.logLimit
        if over > 0 { logs[handle]!.removeFirst(over) }
    }

    func scheduleNotify() {
        guard !notifyScheduled else { return }
        notifyScheduled = true
        Task { [weak self, clock] in
            try? await clock.sleep(for: Self.notifyInterval)
            guard let self else { return }
            self.notifyScheduled = false
            self.observers.notify()
        }
    }
}
