// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import ArgumentParser
import Bluetooth
import DeviceLinks
import Domain
import Foundation

/// The one reader of a Bluetooth connector's events for the whole command: the SMP answers go
/// to the transport open now, and the end of a connection ends that transport. A new transport,
/// after the device's restart, takes over without a second reader of the same events.
final class EventPump: @unchecked Sendable {
    private let lock = NSLock()
    private var current: GATTSMPTransport?
    private var reading: Task<Void, Never>?

    func start(_ connector: DeviceConnector, device: DeviceID, transport: GATTSMPTransport) {
        follow(transport)
        let events = connector.events
        reading = Task { [weak self] in
            for await event in events {
                guard let self else { return }
                switch event {
                case .notified(let from, let handle, let value, _) where from == device:
                    if let now = self.lock.withLock({ self.current }), now.notifications == handle { now.received.yield(value) }
                case .state(let state):
                    if case .connected = state { continue }
                    if case .connecting = state { continue }
                    self.lock.withLock { self.current }?.received.finish()
                default:
                    continue
                }
            }
        }
    }

    func follow(_ transport: GATTSMPTransport) {
        lock.withLock { current = transport }
    }
}
