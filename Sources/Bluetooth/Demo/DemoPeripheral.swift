// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import Localization

/// The `demo` source as the device: an adapter that takes every advertisement and serves every
/// setup, and a phone nearby ("Demo Phone") that acts as a phone app would, on its own. While a
/// connectable advertisement (or the server's own, while serving) is on air it finds it,
/// connects, reads the first readable characteristic, writes "hello" to the first writable
/// one, follows the first that notifies or indicates, and hears what Send sends; it leaves
/// when serving stops. So every part of Act as a Device can be tried without hardware.
public final class DemoPeripheral: DevicePeripheral, @unchecked Sendable {
    public let events = Feed<PeripheralEvent>()
    public var unavailableReason: String? { nil }

    /// The phone, as the log names it.
    public static let phone = PeripheralCentral(id: "demo-phone", address: "5E:A1:10:DE:ED:01")

    private let queue = DispatchQueue(label: "favblue-demo-peripheral")
    private let pace: Double
    private let lock = NSLock()
    private var on: [String: Advertisement] = [:]
    private var served: ServerSetup?
    private var connected = false
    private var followed: Set<ServedCharacteristicID> = []
    /// Bumped by every change, so the phone's steps for an older state stop.
    private var generation = 0

    /// `pace` is the seconds between the phone's steps.
    public init(pace: Double = 0.8) { self.pace = pace }

    public func adapterFacts() async throws(PeripheralError) -> AdapterFacts {
        var facts = AdapterFacts(name: L10n.tr("Demo adapter"), manufacturer: nil, bluetoothVersion: "5.3", address: "C0:FA:B1:0E:DE:00",
                                 addressType: "random", features: [.extendedAdvertising: true, .phy2M: true, .coded: true,
                                                                   .privacy: true, .dataLength: true],
                                 advertisingSets: 8, maximumAdvertisingLength: 1_650, resolvingListSize: 8,
                                 roles: ["central", "peripheral"], route: "demo")
        facts.advertisingAddress = "C0:FA:B1:0E:DE:00"
        return facts
    }

    public func startAdvertising(_ advertisement: Advertisement) async throws(PeripheralError) {
        lock.withLock { on[advertisement.id] = advertisement }
        events.yield(.advertising(id: advertisement.id, on: true))
        visit()
    }

    public func stopAdvertising(id: String) async {
        guard lock.withLock({ on.removeValue(forKey: id) }) != nil else { return }
        events.yield(.advertising(id: id, on: false))
    }

    public func serve(_ setup: ServerSetup) async throws(PeripheralError) {
        lock.withLock {
            served = setup
            followed = []
        }
        visit()
    }

    public func stopServing() async {
        let was = lock.withLock { () -> Bool in
            defer {
                served = nil
                connected = false
                followed = []
                generation += 1
            }
            return connected
        }
        if was { events.yield(.disconnected(Self.phone, reason: L10n.tr("The device ended the connection."))) }
    }

    public func setValue(_ value: [UInt8], of characteristic: ServedCharacteristicID) async {}

    public func send(_ value: [UInt8], of characteristic: ServedCharacteristicID) async -> Int {
        guard let indicate = lock.withLock({ () -> Bool? in
            guard connected, followed.contains(characteristic), let c = self.characteristic(characteristic) else { return nil }
            return !c.properties.contains(.notify) && c.properties.contains(.indicate)
        }) else { return 0 }
        events.yield(.sent(Self.phone, characteristic, value, indicate: indicate))
        if indicate {
            queue.asyncAfter(deadline: .now() + 0.05) { [events] in events.yield(.confirmed(Self.phone, characteristic)) }
        }
        return 1
    }

    // MARK: The phone

    private func characteristic(_ id: ServedCharacteristicID) -> ServedCharacteristic? {
        served?.services[safe: id.service]?.characteristics[safe: id.characteristic]
    }

    /// The phone comes when something connectable is on air and a server runs, once per connection.
    private func visit() {
        let plan = lock.withLock { () -> (Int, [ServedCharacteristicID: ServedCharacteristic])? in
            guard !connected, let served, on.values.contains(where: { $0.kind == .connectable }) else { return nil }
            connected = true
            generation += 1
            var all: [ServedCharacteristicID: ServedCharacteristic] = [:]
            for (s, service) in served.services.enumerated() {
                for (c, characteristic) in service.characteristics.enumerated() {
                    all[ServedCharacteristicID(service: s, characteristic: c)] = characteristic
                }
            }
            return (generation, all)
        }
        guard let (generation, all) = plan else { return }
        let ordered = all.sorted { ($0.key.service, $0.key.characteristic) < ($1.key.service, $1.key.characteristic) }
        var steps: [PeripheralEvent] = [.connected(Self.phone), .mtu(Self.phone, 247)]
        if let read = ordered.first(where: { $0.value.properties.contains(.read) }) { steps.append(.read(Self.phone, read.key)) }
        if let written = ordered.first(where: { !$0.value.properties.isDisjoint(with: [.write, .writeWithoutResponse]) }) {
            steps.append(.wrote(Self.phone, written.key, Array("hello".utf8), withResponse: written.value.properties.contains(.write)))
        }
        if let follows = ordered.first(where: { !$0.value.properties.isDisjoint(with: [.notify, .indicate]) }) {
            steps.append(.subscribed(Self.phone, follows.key, indicate: !follows.value.properties.contains(.notify)))
        }
        for (i, step) in steps.enumerated() {
            queue.asyncAfter(deadline: .now() + pace * Double(i + 1)) { [weak self] in
                guard let self else { return }
                let current = self.lock.withLock { () -> Bool in
                    guard self.generation == generation else { return false }
                    if case .subscribed(_, let id, _) = step { self.followed.insert(id) }
                    return true
                }
                if current { self.events.yield(step) }
            }
        }
    }
}
