// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation

/// The one rule that folds a device's new private address into the row of its old one, when no
/// bond says who it is: the live model and `favblue-scan` both fold by it.
///
/// A report from an address not listed is held back when its advertising data is byte-identical
/// to that of exactly one listed private address heard within `gap` seconds before it. If that
/// device then stays silent for `confirm` seconds, the new address joins its row; if it is heard
/// again, the new address is a device of its own. Two devices heard at once are never one, and a
/// room of identical devices (several candidates) is never folded.
public struct AddressFolding: Sendable {
    /// How long before a new address a listed device may have fallen silent to be its predecessor, seconds.
    public static let gap: Double = 2
    /// How long the listed device must stay silent after the new address appears, seconds.
    public static let confirm: Double = 1

    /// A new address held back, the one listed device it may continue, and its reports so far.
    struct Held: Sendable {
        let candidate: DeviceID
        /// When the new address was first heard (report time), and when it was held (wall clock).
        let first: Date
        let heldAt: Date
        var reports: [Observation]
    }

    /// What became of a held address.
    public struct Settled: Sendable {
        /// The held address.
        public let address: DeviceID
        /// The row it was held for.
        public let candidate: DeviceID
        /// Whether it joined that row; else it is a device of its own.
        public let joined: Bool
        /// The row it joined, if it did.
        public var row: DeviceID? { joined ? candidate : nil }
        /// Its reports so far, in order, named after the row they now belong to.
        public let reports: [Observation]
    }

    /// Addresses seen to be a device's new address, to the row that device keeps.
    public private(set) var aliases: [DeviceID: DeviceID] = [:]
    private var held: [DeviceID: Held] = [:]
    /// The held addresses in the order they were held, from `head` on; one decided meanwhile is
    /// skipped when reached.
    private var queue: [DeviceID] = []
    private var head = 0
    /// The advertising data of the foldable rows, to find the one a new address continues.
    private var payloads: [[UInt8]: Set<DeviceID>] = [:]

    public init() {}

    /// Whether any address is held back now.
    public var isHolding: Bool { !held.isEmpty }

    /// Whether `o`, from an address that is not listed, is held back as the possible next address
    /// of a listed device; `foldable` says whether its address may be folded at all (a private
    /// address nobody keeps), `lastSeen` when a listed device was last heard. Returns the row it
    /// may continue, or nil when it is let through.
    public mutating func hold(_ o: Observation, foldable: Bool, now: Date, lastSeen: (DeviceID) -> Date?) -> DeviceID? {
        if held[o.id] != nil {
            held[o.id]!.reports.append(o)
            return held[o.id]!.candidate
        }
        guard o.heardAs == nil, !o.isScanResponse, !o.rawData.isEmpty, foldable, let listed = payloads[o.rawData] else { return nil }
        var candidate: DeviceID?
        for id in listed where id != o.id {
            guard let seen = lastSeen(id) else { continue }
            let silence = o.timestamp.timeIntervalSince(seen)
            guard silence >= 0, silence <= Self.gap else { continue }
            // More than one: identical devices, never folded.
            if candidate != nil { return nil }
            candidate = id
        }
        guard let candidate else { return nil }
        held[o.id] = Held(candidate: candidate, first: o.timestamp, heldAt: now, reports: [o])
        queue.append(o.id)
        return candidate
    }

    /// Whether the address held first is due to be decided as of report time `newest` and wall
    /// clock `now`: cheap, for a caller that settles after every report.
    public func isDue(newest: Date, now: Date) -> Bool {
        guard head < queue.count else { return false }
        guard let ghost = held[queue[head]] else { return true }
        return Self.waited(ghost, newest: newest, now: now) >= Self.confirm
    }

    /// Decides the held addresses as of report time `newest` and wall clock `now`: with `onlyDue`,
    /// those whose time is up, in the order they were held (cheap enough after every report);
    /// else every one that can be told already, also a device of its own whose row was heard
    /// again; with `ended`, all of them (the source is done).
    public mutating func settle(newest: Date, now: Date, onlyDue: Bool = false, ended: Bool = false,
                                lastSeen: (DeviceID) -> Date?) -> [Settled] {
        guard !held.isEmpty else { return [] }
        var candidates: [DeviceID] = []
        if onlyDue, !ended {
            while head < queue.count {
                guard let ghost = held[queue[head]] else { head += 1; continue }
                guard Self.waited(ghost, newest: newest, now: now) >= Self.confirm else { break }
                candidates.append(queue[head])
                head += 1
            }
        } else {
            candidates = held.sorted { $0.value.first < $1.value.first }.map(\.key)
        }
        var settled: [Settled] = []
        for address in candidates {
            guard let ghost = held[address] else { continue }
            let seen = lastSeen(ghost.candidate)
            let alive = seen.map { $0 > ghost.first } ?? false
            if seen != nil, !alive, Self.waited(ghost, newest: newest, now: now) < Self.confirm, !ended { continue }
            held[address] = nil
            let joined = seen != nil && !alive
            if joined { aliases[address] = ghost.candidate }
            let reports = ghost.reports.map { report -> Observation in
                var o = report
                if joined { o.resolve(to: ghost.candidate) }
                return o
            }
            settled.append(Settled(address: address, candidate: ghost.candidate, joined: joined, reports: reports))
        }
        if held.isEmpty {
            queue.removeAll(keepingCapacity: true)
            head = 0
        } else if head > 64, head * 2 > queue.count {
            queue.removeFirst(head)
            head = 0
        }
        return settled
    }

    /// How long `ghost` has waited: in report time, or on the wall clock when reports stop (a
    /// replay that ended), so none waits for ever.
    private static func waited(_ ghost: Held, newest: Date, now: Date) -> Double {
        max(newest.timeIntervalSince(ghost.first), now.timeIntervalSince(ghost.heldAt))
    }

    /// Keeps the index in step: the advertising data of `id`, a foldable row, went from `before` to `now`.
    public mutating func index(_ id: DeviceID, from before: [UInt8]?, to now: [UInt8]) {
        guard now != before else { return }
        if let before { unindex(id, before) }
        if !now.isEmpty { payloads[now, default: []].insert(id) }
    }

    /// Notes that `address` is the row `row` from now on (pairing showed it to be that identity).
    public mutating func alias(_ address: DeviceID, to row: DeviceID) { aliases[address] = row }

    /// Forgets a dropped row: its place in the index, and its later `addresses` that led to it.
    public mutating func forget(_ id: DeviceID, payload: [UInt8], addresses: [DeviceID]) {
        unindex(id, payload)
        for address in addresses where aliases[address] == id { aliases[address] = nil }
    }

    private mutating func unindex(_ id: DeviceID, _ payload: [UInt8]) {
        payloads[payload]?.remove(id)
        if payloads[payload]?.isEmpty == true { payloads[payload] = nil }
    }
}
