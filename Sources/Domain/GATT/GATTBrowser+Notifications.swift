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
        guard let cccd = characteristic.descriptors.first(where: { $0.uuid == "2902" }) else {
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
        noteBattery(handle, value)
        var recent = arrivals[handle, default: []]
        recent.append(time)
        if let first = recent.first, first < time.addingTimeInterval(-1) { recent.removeAll { $0 <= time.addingTimeInterval(-1) } }
        arrivals[handle] = recent
        if paused.contains(handle) {
            held[handle, default: []].append(reading)
            if held[handle]!.count > Self.logLimit { held[handle]!.removeFirst(held[handle]!.count - Self.logLimit) }
        } else {
            append([reading], to: handle)
        }
        scheduleNotify()
    }

    func append(_ readings: [Reading], to handle: UInt16) {
        var log = logs[handle, default: []]
        log.append(contentsOf: readings)
        if log.count > Self.logLimit { log.removeFirst(log.count - Self.logLimit) }
        logs[handle] = log
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
