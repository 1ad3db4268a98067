// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation

// MARK: - Devices that change their private address (not bonded)

extension LiveDevices {
    /// A new private address held back: the one listed device it may continue, and its reports so far.
    struct Ghost {
        let candidate: DeviceID
        /// When the new address was first heard (report time), and when it was held (wall clock).
        let first: Date
        let heldAt: Date
        var reports: [Observation]
    }

    /// How long before a new address a listed device may have fallen silent to be its predecessor.
    static let ghostGap: Double = 2
    /// How long the listed device must stay silent after the new address appears before they are one.
    static let ghostConfirm: Double = 1

    /// Whether `o` (from an address not listed) is held back as the possible new address of a
    /// listed device: its advertising data is byte-identical to that of exactly one private
    /// address, not bonded and not a favorite, heard within the last `ghostGap` seconds.
    func holdAsGhost(_ o: Observation) -> Bool {
        if ghosts[o.id] != nil {
            ghosts[o.id]!.reports.append(o)
            return true
        }
        guard o.heardAs == nil, !o.isScanResponse, !o.rawData.isEmpty, foldable(o.id),
              let listed = payloads[o.rawData] else { return false }
        let recent = listed.filter { id in
            guard id != o.id, let device = devices[id] else { return false }
            let gap = o.timestamp.timeIntervalSince(device.lastSeen)
            return gap >= 0 && gap <= Self.ghostGap
        }
        guard recent.count == 1, let candidate = recent.first else { return false }
        ghosts[o.id] = Ghost(candidate: candidate, first: o.timestamp, heldAt: now(), reports: [o])
        // Most likely the row's next address: a connection waiting for the row goes there at once.
        heard.note(o.id, for: candidate)
        return true
    }

    /// A private address that is neither bonded nor kept: the only kind the rule may fold.
    private func foldable(_ id: DeviceID) -> Bool {
        AddressType(id) == .resolvablePrivate && !keepsListed(id) && !keepsSightings(id)
    }

    /// Decides the held-back addresses: one whose listed device stayed silent for
    /// `ghostConfirm` seconds joins its row; one whose device was heard again is a device of its own.
    func settleGhosts() {
        for (address, ghost) in ghosts {
            let device = devices[ghost.candidate]
            let alive = device.map { $0.lastSeen > ghost.first } ?? false
            // Report time, or the wall clock when reports stop (a replay that ended), so none waits for ever.
            let waited = max(newest.timeIntervalSince(ghost.first), now().timeIntervalSince(ghost.heldAt))
            if device != nil, !alive, waited < Self.ghostConfirm { continue }
            ghosts[address] = nil
            if device != nil, !alive {
                aliases[address] = ghost.candidate
                devices[ghost.candidate]!.noteAddressChange()
            } else {
                // The row was heard again where it was: it is still there.
                heard.note(device?.heardAddress, for: ghost.candidate)
            }
            for var o in ghost.reports {
                if let alias = aliases[address] { o.resolve(to: alias) }
                admit(o)
            }
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
        guard indexed, let now = devices[o.id]?.lastPayload, now != before else { return }
        if let before { unindex(o.id, before) }
        if !now.isEmpty { payloads[now, default: []].insert(o.id) }
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
        aliases[old] = identity
        notify(.devices)
    }

    /// Drops `id`, its place in the payload index and the addresses that led to it.
    func forget(_ id: DeviceID) {
        guard let device = devices.removeValue(forKey: id) else { return }
        heard.forget(id)
        unindex(id, device.lastPayload)
        // Its later addresses are the only aliases that lead to it.
        for address in device.formerAddresses.dropFirst() + [device.currentAddress] where aliases[address] == id {
            aliases[address] = nil
        }
    }

    private func unindex(_ id: DeviceID, _ payload: [UInt8]) {
        payloads[payload]?.remove(id)
        if payloads[payload]?.isEmpty == true { payloads[payload] = nil }
    }
}
