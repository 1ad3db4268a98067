// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation

/// Keeps a connector's events for a test to read and wait on.
public final class EventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [ConnectionEvent] = []
    private var task: Task<Void, Never>?

    public init(_ connector: DeviceConnector) {
        let stream = connector.events
        task = Task { [weak self] in for await event in stream { self?.lock.withLock { self?.events.append(event) } } }
    }

    deinit { task?.cancel() }

    /// Devices whose link went unanswered and was made once more.
    public var unanswered: [DeviceID] { lock.withLock { events.compactMap { if case .unanswered(let d) = $0 { d } else { nil } } } }
    public var states: [ConnectionState] { lock.withLock { events.compactMap { if case .state(let s) = $0 { s } else { nil } } } }
    public var received: [ChatMessage] { lock.withLock { events.compactMap { if case .received(let m) = $0 { m } else { nil } } } }
    /// The devices whose services were said to have changed, in order.
    public var changedServices: [DeviceID] {
        lock.withLock { events.compactMap { if case .servicesChanged(let d) = $0 { d } else { nil } } }
    }
    /// The signals read while connected, in order.
    public var signals: [(device: DeviceID, rssi: Int)] {
        lock.withLock { events.compactMap { if case .signal(let d, let r, _) = $0 { (d, r) } else { nil } } }
    }
    /// The notifications and indications reported for `handle`, in order.
    public func notified(_ handle: UInt16) -> [[UInt8]] {
        lock.withLock { events.compactMap { if case .notified(_, handle, let value, _) = $0 { value } else { nil } } }
    }
    /// The addresses an attempt went on to after the device moved, in order.
    public var retries: [DeviceID] {
        lock.withLock { events.compactMap { if case .retrying(_, let a) = $0 { a } else { nil } } }
    }
    public var services: [ServiceID]? {
        lock.withLock { events.lazy.compactMap { if case .services(_, let l) = $0 { l } else { nil } }.first }
    }

    /// Waits until `condition` holds, up to `timeout` seconds (a real peer can take its time);
    /// says whether it did.
    @discardableResult
    public func wait(timeout: Double = 15, until condition: @escaping (EventLog) -> Bool) async -> Bool {
        await eventually(timeout: timeout) { condition(self) }
        return condition(self)
    }

    /// Waits for a state matching `match`, and gives the newest such.
    @discardableResult
    public func wait(for match: @escaping (ConnectionState) -> Bool, timeout: Double = 15) async -> ConnectionState? {
        await wait(timeout: timeout) { $0.states.contains(where: match) }
        return states.last(where: match)
    }
}
