// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation

// MARK: - Devices that change their private address (not bonded)

extension LiveDevices {
    /// Whether `o` (from an address not listed) is held back as the possible new address of a
    /// listed device, by the one folding rule (`AddressFolding`): only a private address that is
    /// neither bonded nor kept (a favorite, the connected device) may be folded.
    func holdAsGhost(_ o: Observation) -> Bool {
        // A class's properties are accessed apart, so reading `devices` while `folding` changes is fine.
        guard let candidate = folding.hold(o, foldable: foldable(o.id), now: now(), lastSeen: { self.devices[$0]?.lastSeen })
        else { return false }
        // Most likely the row's next address: a connection waiting for the row goes there at once.
        heard.note(o.id, for: candidate)
        return true
    }

    /// A private address that is neither bonded nor kept: the only kind the rule may fold.
    private func foldable(_ id: DeviceID) -> Bool {
        AddressType(id) == .resolvablePrivate && !keepsListed(id) && !keepsSightings(id)
    }

    /// Decides the held-back addresses (with `onlyDue`, those whose time is up): one whose listed
    /// device stayed silent joins its row; one whose device was heard again is a device of its own.
    func settleGhosts(onlyDue: Bool = false) {
        guard folding.isHolding else { return }
        let decided = folding.settle(newest: newest, now: now(), onlyDue: onlyDue, lastSeen: { self.devices[$0]?.lastSeen })
        for settled in decided {
            if let row = settled.row {
                self.devices[row]?.noteAddressChange()
            } else {
                // The row was heard again where it was: it is still there.
                heard.note(self.devices[settled.candidate]?.heardAddress, for: settled.candidate)
            }
            for o in settled.reports { admit(o) }
        }
    }

    /// Folds `o` into its device, listing the device if new, and keeps the payload index in step.
    func admit(_ o: Observation) {
        // Most reports are from fixed addresses: the address type is the cheap test, so it comes first.
        let indexed = AddressType(o.id) == .resolvablePrivate && foldable(o.id)
        var before: [UInt8]?
        // One lookup for the common case, a device already listed.
        if let at = devices.index(forKey: o.id) {
            let heardBefore = devices.values[at].heardAddress
            if indexed { before = devices.values[at].lastPayload }
            devices.values[at].fold(o)
            if o.heardAs != heardBefore { heard.note(o.heardAs, for: o.id) }
        } else {
            devices[o.id] = LiveDevice(o)
            if o.heardAs != nil { heard.note(o.heardAs, for: o.id) }
        }
        // A connector waiting on the controller to resolve this device counts where it is heard.
        if let heardAs = o.heardAs { heard.count(heardAs, for: o.id) }
        guard indexed, let now = devices[o.id]?.lastPayload else { return }
        folding.index(o.id, from: before, to: now)
    }

    /// Keeps the row of `old` under `identity`, which pairing showed it to be: one row, its
    /// readings kept, the old address listed as an earlier one.
    public func move(_ old: DeviceID, to identity: DeviceID) {
        guard old != identity, let device = devices[old] else { return }
        forget(old)
        if devices[identity] != nil {
            devices[identity]!.noteFormer(device.currentAddress)
        } else {
            devices[identity] = LiveDevice(device, movedTo: identity)
        }
        folding.alias(old, to: identity)
        notify(.devices)
    }

    /// The device `id` is now listed as (its identity once resolved, or the row its new address
    /// was folded into); nil while it is listed as itself or gone.
    public func listed(as id: DeviceID) -> DeviceID? {
        guard devices[id] == nil, let alias = folding.aliases[id], devices[alias] != nil else { return nil }
        return alias
    }

    /// Drops `id`, its place in the payload index and the addresses that led to it.
    func forget(_ id: DeviceID) {
        guard let device = devices.removeValue(forKey: id) else { return }
        heard.forget(id)
        sensorSampler.forget(id)
        // Its later addresses are the only aliases that lead to it.
        folding.forget(id, payload: device.lastPayload, addresses: device.formerAddresses.dropFirst() + [device.currentAddress])
    }
}
