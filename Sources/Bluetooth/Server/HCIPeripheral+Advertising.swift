// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import Localization

/// Advertising sets and the controller's abilities (Core v5.4, Vol 4, Part E, §7.8).
extension HCIPeripheral {
    /// Runs `body` on the worker and hands back what it returned.
    func onWorker<T: Sendable>(_ body: @escaping @Sendable () throws(PeripheralError) -> T) async throws(PeripheralError) -> T {
        let result: Result<T, PeripheralError> = await withCheckedContinuation { continuation in
            worker.async {
                do throws(PeripheralError) { continuation.resume(returning: .success(try body())) } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        return try result.get()
    }

    /// A command whose refusal is said as the adapter's.
    func send(_ command: HCICommand, on host: HCIHost) throws(PeripheralError) {
        do { _ = try host.command(command) } catch {
            throw .refused(L10n.format("The adapter refused to advertise: {}", error.detail))
        }
    }

    /// The controller as the host read it, with the advertising sets and data it takes, once per host.
    func controllerSetup(_ host: HCIHost) throws(PeripheralError) -> Controller {
        if let setup = lock.withLock({ controller }) { return setup }
        let le: LEController
        do { le = try host.links.controller(on: host, wanted: keyring?.local.address.wireBytes ?? ownAddress) } catch {
            throw .unavailable(error.message)
        }
        var sets = 1, maximum = 31
        if le.extended {
            if let reply = try? host.command(.leReadNumberOfSupportedAdvertisingSets), reply.count >= 2 { sets = max(1, Int(reply[1])) }
            if let reply = try? host.command(.leReadMaximumAdvertisingDataLength), reply.count >= 3 {
                maximum = max(31, Int(reply[1]) | Int(reply[2]) << 8)
            }
        }
        let setup = Controller(le: le, sets: sets, maximumLength: maximum)
        lock.withLock { controller = setup }
        return setup
    }

    public func adapterFacts() async throws(PeripheralError) -> AdapterFacts {
        try await onWorker { [self] () throws(PeripheralError) -> AdapterFacts in
            let host = try currentHost()
            let setup = try controllerSetup(host)
            var facts = AdapterFacts(features: setup.features, roles: ["central", "peripheral"], route: "hci")
            if let v = try? host.command(.readLocalVersion), v.count >= 9 {
                facts.bluetoothVersion = AdapterFacts.version(hci: v[1])
                facts.manufacturer = CompanyNames.name(UInt16(v[5]) | UInt16(v[6]) << 8)
            }
            if let a = try? host.command(.readBDAddr), a.count >= 7, a[1...6].contains(where: { $0 != 0 }) {
                facts.address = DeviceID(wireBytes: Array(a[1...6]), kind: .lePublic).address
                facts.addressType = "public"
            } else {
                facts.address = DeviceID(wireBytes: setup.address, kind: .leRandom).address
                facts.addressType = "random"
            }
            facts.advertisingAddress = DeviceID(wireBytes: setup.address, kind: .leRandom).address
            facts.advertisingSets = setup.sets
            facts.maximumAdvertisingLength = setup.maximumLength
            if let r = try? host.command(.leReadResolvingListSize), r.count >= 2 { facts.resolvingListSize = Int(r[1]) }
            return facts
        }
    }

    public func startAdvertising(_ advertisement: Advertisement) async throws(PeripheralError) {
        try await onWorker { [self] () throws(PeripheralError) in try runStart(advertisement) }
        feed.yield(.advertising(id: advertisement.id, on: true))
    }

    private func runStart(_ ad: Advertisement) throws(PeripheralError) {
        let host = try currentHost()
        let c = try controllerSetup(host)
        let limits = AdvertisingLimits(extended: c.extended, maximumExtendedLength: c.maximumLength, sets: c.sets,
                                       phy2M: c.features[.phy2M] ?? false, coded: c.features[.coded] ?? false)
        if let problem = ad.problems(limits: limits, company: CompanyNames.name).first { throw .refused(problem.message) }
        let existing = lock.withLock { sets[ad.id] }
        let scannable = ad.kind == .scannable || (ad.kind == .connectable && !ad.extended)
        if c.extended {
            let taken = lock.withLock { Set(sets.values.map(\.handle)) }
            guard let handle = existing?.handle ?? (0..<UInt8(min(c.sets, 0xEF))).first(where: { !taken.contains($0) }) else {
                throw .noFreeSet(c.sets)
            }
            if existing != nil { try? send(.leSetExtendedAdvertisingEnable(false, set: handle), on: host) }
            var properties: UInt16 = ad.extended ? 0 : 0x10
            if ad.kind == .connectable { properties |= 0x01 }
            if scannable { properties |= 0x02 }
            let phy: (Advertisement.PHY) -> UInt8 = { $0 == .le1M ? 1 : $0 == .le2M ? 2 : 3 }
            try send(.leSetExtendedAdvertisingParameters(set: handle, properties: properties, intervalMs: ad.intervalMilliseconds,
                                                         primaryPHY: ad.extended ? phy(ad.primaryPHY) : 1,
                                                         secondaryPHY: ad.extended ? phy(ad.secondaryPHY) : 1), on: host)
            try send(.leSetAdvertisingSetRandomAddress(set: handle, address: c.address), on: host)
            if !(ad.extended && ad.kind == .scannable) {
                for command in HCICommand.leSetExtendedAdvertisingData(set: handle, ad.data.encoded) { try send(command, on: host) }
            }
            if scannable {
                for command in HCICommand.leSetExtendedAdvertisingData(set: handle, ad.scanResponse.encoded, scanResponse: true) {
                    try send(command, on: host)
                }
            }
            let duration = ad.durationSeconds.map { UInt16(clamping: Int(($0 * 100).rounded())) } ?? 0
            try send(.leSetExtendedAdvertisingEnable(true, set: handle, duration: duration), on: host)
            lock.withLock { sets[ad.id] = AdvertisingSet(handle: handle, advertisement: ad) }
        } else {
            if existing == nil, !lock.withLock({ sets.isEmpty }) { throw .noFreeSet(1) }
            if existing != nil { try? send(.leSetAdvertisingEnable(false), on: host) }
            existing?.stopWork?.cancel()
            let type: UInt8 = ad.kind == .connectable ? 0x00 : ad.kind == .scannable ? 0x02 : 0x03
            try send(.leSetAdvertisingParameters(intervalMs: ad.intervalMilliseconds, type: type, ownRandom: true), on: host)
            try send(.leSetAdvertisingData(ad.data.encoded), on: host)
            try send(.leSetAdvertisingData(ad.scanResponse.encoded, scanResponse: true), on: host)
            try send(.leSetAdvertisingEnable(true), on: host)
            var set = AdvertisingSet(handle: 0, advertisement: ad)
            if let seconds = ad.durationSeconds {
                // Legacy advertising has no duration of its own: FavBlue stops it.
                let work = DispatchWorkItem { [weak self] in self?.runStop(ad.id) }
                worker.asyncAfter(deadline: .now() + seconds, execute: work)
                set.stopWork = work
            }
            lock.withLock { sets[ad.id] = set }
        }
        log("advertising “\(ad.label)”: \(Hex.spaced(ad.data.encoded))")
    }

    public func stopAdvertising(id: String) async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            worker.async { [self] in
                runStop(id)
                done.resume()
            }
        }
    }

    /// Stops set `id`, if it is on; called on the worker.
    func runStop(_ id: String) {
        guard let set = lock.withLock({ sets.removeValue(forKey: id) }), let host = lock.withLock({ self.host }) else { return }
        set.stopWork?.cancel()
        let extended = lock.withLock { controller?.extended ?? false }
        if extended {
            try? send(.leSetExtendedAdvertisingEnable(false, set: set.handle), on: host)
            try? send(.leRemoveAdvertisingSet(set.handle), on: host)
        } else {
            try? send(.leSetAdvertisingEnable(false), on: host)
        }
        feed.yield(.advertising(id: id, on: false))
    }

    /// A legacy connectable set stops when a central connects; it goes on for the next one. Worker.
    func resumeLegacyAdvertising() {
        guard lock.withLock({ controller?.extended == false }), let host = lock.withLock({ self.host }),
              let set = lock.withLock({ sets.values.first }), set.advertisement.kind == .connectable else { return }
        do { try send(.leSetAdvertisingEnable(true), on: host) } catch {
            log("advertising could not go on beside a connection: \(error.message)")
        }
    }

    /// An extended set stopped on its own (the read thread): after a connection it goes on; after
    /// its duration it is over.
    func setTerminated(_ handle: UInt8, status: UInt8, connection: UInt16?) {
        guard let (id, set) = lock.withLock({ sets.first { $0.value.handle == handle } }) else { return }
        if connection != nil {
            let duration = set.advertisement.durationSeconds.map { UInt16(clamping: Int(($0 * 100).rounded())) } ?? 0
            worker.async { [self] in
                guard let host = lock.withLock({ self.host }), lock.withLock({ sets[id] != nil }) else { return }
                try? send(.leSetExtendedAdvertisingEnable(true, set: handle, duration: duration), on: host)
            }
        } else {
            lock.withLock { _ = sets.removeValue(forKey: id) }
            feed.yield(.advertising(id: id, on: false))
        }
    }
}
