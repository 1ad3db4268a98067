// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation

/// The controller's resolving list, kept in step with the bonds (Core v5.4, Vol 6, Part B, §4.7;
/// Vol 4, Part E, §7.8.38–.45). A bonded device in it is connected by its identity address,
/// and the controller finds it at whatever private address it uses now. Where the controller
/// lacks the commands, refuses one, or has no room left, that device is reached at the address
/// heard last instead (`HeardAddresses`).
///
/// Used on the connector's worker only, so no command here overlaps a connection being made;
/// scanning is paused around every change, as the controller requires.
final class HCIResolvingList: @unchecked Sendable {
    private let host: HCIHost
    private let log: @Sendable (String) -> Void
    private let lock = NSLock()
    /// Nil until the controller was asked; false when it lacks the commands.
    private var supported: Bool?
    private var capacity = 0
    /// What each entry holds: the device's IRK and FavBlue's, most significant octet first.
    private var held: [DeviceID: Keys] = [:]

    private struct Keys: Equatable {
        let peer: [UInt8]
        let local: [UInt8]
    }

    init(host: HCIHost, log: @escaping @Sendable (String) -> Void) {
        self.host = host
        self.log = log
    }

    /// Set once the air contradicted the list: the controller did not connect to a device the
    /// host heard and resolved itself. For the rest of the session the host's own way is taken.
    private var distrusted = false

    /// Whether the controller resolves `identity`'s private addresses itself, as far as FavBlue
    /// trusts it to.
    func holds(_ identity: DeviceID) -> Bool { lock.withLock { !distrusted && held[identity] != nil } }

    /// Stops trusting the list for this session; false if it was distrusted already.
    @discardableResult
    func distrust() -> Bool {
        lock.withLock {
            defer { distrusted = true }
            return !distrusted
        }
    }

    /// Asks the controller once whether it has the commands, and fills the list afresh with the
    /// bonds that carry a key; at the controller's first use after it was opened or reset.
    func rebuild(_ bonds: [Bond], localIRK: [UInt8]) {
        guard let commands = try? host.command(.readLocalCommands), HCICommand.supportsResolvingList(commands),
              let size = try? host.command(.leReadResolvingListSize), size.count >= 2 else {
            lock.withLock { supported = false }
            log("resolving list: the controller has none; bonded devices are reached at the address heard last")
            return
        }
        lock.withLock {
            supported = true
            capacity = Int(size[1])
            held = [:]
        }
        host.scanPause.whilePaused {
            // A controller that was not reset may still hold another host's entries.
            _ = send(.leSetAddressResolutionEnable(false))
            _ = send(.leClearResolvingList)
            _ = send(.leSetRPATimeout(seconds: 900))
            for (identity, keys) in Self.wanted(bonds, localIRK: localIRK) { add(identity, keys) }
            _ = send(.leSetAddressResolutionEnable(true))
        }
        let count = lock.withLock { held.count }
        log("resolving list: the controller follows \(count) bonded device(s) by identity (room for \(capacity))")
    }

    /// Brings the list in step with `bonds`: removes what was forgotten, adds what was made.
    func sync(_ bonds: [Bond], localIRK: [UInt8]) {
        guard lock.withLock({ supported }) == true else { return }
        let entries = Self.wanted(bonds, localIRK: localIRK)
        let wanted = Dictionary(entries, uniquingKeysWith: { $1 })
        let current = lock.withLock { held }
        let removals = current.filter { wanted[$0.key] != $0.value }.map(\.key).sorted()
        let additions = entries.filter { current[$0.0] != $0.1 }
        guard !removals.isEmpty || !additions.isEmpty else { return }
        host.scanPause.whilePaused {
            for identity in removals {
                if send(.leRemoveFromResolvingList(identity: identity)) { lock.withLock { held[identity] = nil } }
            }
            for (identity, keys) in additions { add(identity, keys) }
        }
    }

    /// The entries the bonds call for, in identity order.
    private static func wanted(_ bonds: [Bond], localIRK: [UInt8]) -> [(DeviceID, Keys)] {
        bonds.compactMap { bond in bond.irk.map { (bond.identity, Keys(peer: $0.bytes, local: localIRK)) } }
            .sorted { $0.0 < $1.0 }
    }

    private func add(_ identity: DeviceID, _ keys: Keys) {
        guard lock.withLock({ held.count < capacity }) else {
            log("resolving list: full (\(capacity)); \(identity) is reached at the address heard last")
            return
        }
        if send(.leAddToResolvingList(identity: identity, peerIRK: keys.peer, localIRK: keys.local)) {
            lock.withLock { held[identity] = keys }
        } else {
            log("resolving list: \(identity) is reached at the address heard last")
        }
    }

    /// Sends `command`; a refusal (Memory Capacity Exceeded, Command Disallowed) is logged, never thrown.
    private func send(_ command: HCICommand) -> Bool {
        do {
            let answer = try host.command(command, rawStatus: true)
            guard let status = answer.first, status != 0 else { return true }
            log("\(command.name) refused with status 0x\(String(status, radix: 16, uppercase: true))")
            return false
        } catch {
            log("\(command.name): \(error.message)")
            return false
        }
    }
}
