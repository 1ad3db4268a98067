// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation

/// A peripheral route for owner and view-model tests: it keeps what it was asked to do, refuses
/// when told to, and plays what centrals do through `feed`.
public final class FakePeripheral: DevicePeripheral, @unchecked Sendable {
    public let feed = Feed<PeripheralEvent>()
    public var events: Feed<PeripheralEvent> { feed }
    public var unavailableReason: String?
    private let lock = NSLock()
    private var started: [Advertisement] = []
    private var served: ServerSetup?
    private var sent: [(ServedCharacteristicID, [UInt8])] = []
    /// Refuses the next start with this error.
    public var refuseNext: PeripheralError?
    public var facts = AdapterFacts(features: [.extendedAdvertising: true, .phy2M: true, .coded: false], advertisingSets: 4,
                                    maximumAdvertisingLength: 251, roles: ["central", "peripheral"], route: "hci")
    public var subscribers = 1

    public init(unavailable: String? = nil) { unavailableReason = unavailable }

    public var advertising: [Advertisement] { lock.withLock { started } }
    public var serving: ServerSetup? { lock.withLock { served } }
    public var sends: [(ServedCharacteristicID, [UInt8])] { lock.withLock { sent } }

    public func adapterFacts() async throws(PeripheralError) -> AdapterFacts {
        if let unavailableReason { throw .unavailable(unavailableReason) }
        return facts
    }

    public func startAdvertising(_ advertisement: Advertisement) async throws(PeripheralError) {
        if let refusal = lock.withLock({ () -> PeripheralError? in defer { refuseNext = nil }; return refuseNext }) { throw refusal }
        lock.withLock {
            started.removeAll { $0.id == advertisement.id }
            started.append(advertisement)
        }
        feed.yield(.advertising(id: advertisement.id, on: true))
    }

    public func stopAdvertising(id: String) async {
        lock.withLock { started.removeAll { $0.id == id } }
        feed.yield(.advertising(id: id, on: false))
    }

    public func serve(_ setup: ServerSetup) async throws(PeripheralError) { lock.withLock { served = setup } }
    public func stopServing() async { lock.withLock { served = nil } }
    public func setValue(_ value: [UInt8], of characteristic: ServedCharacteristicID) async {}

    public func send(_ value: [UInt8], of characteristic: ServedCharacteristicID) async -> Int {
        lock.withLock { sent.append((characteristic, value)) }
        return subscribers
    }
}
