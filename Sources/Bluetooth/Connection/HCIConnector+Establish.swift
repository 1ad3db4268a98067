// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation

/// Making the link: where a device is reached, and following it when it takes a new address
/// while the controller waits for it.
extension HCIConnector {
    /// LE Create Connections per attempt at most: the first and two at newer addresses.
    static let maxTries = 3
    /// How often a waiting attempt looks whether the device moved, seconds.
    static let followInterval = 0.1
    /// How long an attempt through the resolving list may wait while the host hears the device
    /// at a private address it resolves itself, before the list is no longer trusted, seconds.
    static let listGrace = 1.0
    /// Reports at that address the host must hear first.
    static let listContradictions = 2
    /// How long a link made may stay unanswered (LE Enable Encryption) before it is dropped
    /// and made once more, seconds.
    static let unansweredAfter = 2.0

    /// Where an LE Create Connection goes: an address and its Peer_Address_Type (§7.8.12).
    struct Target: Equatable {
        let address: DeviceID
        let peerType: UInt8
    }

    /// Where `device` is reached now: a bonded device the controller follows, at its identity
    /// (§7.8.12: Peer_Address_Type 2 or 3); any other, at the newest address heard for its row.
    func target(for device: DeviceID) -> Target {
        if let identity = keyring?.bond(for: device)?.identity, resolvingList.holds(identity) {
            return Target(address: identity, peerType: identity.kind == .leRandom ? 3 : 2)
        }
        let address = addresses?.current(device) ?? device
        return Target(address: address, peerType: address.kind == .leRandom ? 1 : 0)
    }

    /// Connects where `device` is heard now and waits for it, the timeout, or the user. When it
    /// takes a newer address meanwhile, the attempt is cancelled and made there, at most
    /// `maxTries` times within the one timeout. Returns nil when the user chose otherwise meanwhile.
    func establish(_ device: DeviceID, setup: LEController, generation: Int) throws(ConnectionFailure) -> LELink? {
        let deadline = Date().addingTimeInterval(connectTimeout)
        var target = target(for: device)
        var tries = 1
        while true {
            switch try attempt(device, at: target, setup: setup, generation: generation, until: deadline,
                               following: tries < Self.maxTries) {
            case .made(let complete):
                // The controller names the private address it found a device at that it resolved.
                let address = complete.peerPrivateAddress.map { DeviceID(wireBytes: $0, kind: .leRandom) } ?? target.address
                log("connected to \(device)\(address == device ? "" : " at \(address)"), handle \(complete.handle)")
                let link = makeLink(device, address: address, handle: complete.handle, setup: setup)
                // A connection made after all is kept until the newer request ends it.
                return isCurrent(generation) ? link : nil
            case .superseded:
                return nil
            case .moved(let newer):
                tries += 1
                log("\(device) changed its address; trying \(newer.address)")
                streams.emit(.retrying(device, at: newer.address))
                target = newer
            case .listDidNotResolve(let heard):
                // The air contradicts the controller's claim: trust it no longer this session.
                if resolvingList.distrust() {
                    log("resolving list: the controller did not connect to \(device) in \(Self.listGrace) s while FavBlue heard it "
                        + "at \(heard.address) and resolved it; connecting there, and resolving on the host for the rest of this session")
                }
                tries += 1
                streams.emit(.retrying(device, at: heard.address))
                target = heard
            case .noAnswer:
                throw .noAnswer(seconds: Int(connectTimeout.rounded()))
            }
        }
    }

    private enum Outcome {
        case made(LEConnectionComplete)
        case superseded
        case moved(Target)
        /// Waiting through the resolving list while the host heard the device elsewhere.
        case listDidNotResolve(Target)
        case noAnswer
    }

    /// One LE (Extended) Create Connection to `target`, until it completes, `deadline` passes,
    /// the user asks otherwise, or (`following`) the device is heard at another address.
    private func attempt(_ device: DeviceID, at target: Target, setup: LEController, generation: Int,
                         until deadline: Date, following: Bool) throws(ConnectionFailure) -> Outcome {
        let peer = target.address.wireBytes
        let command: HCICommand = setup.extended
            ? .leExtendedCreateConnection(peer: peer, peerType: target.peerType, ownRandom: setup.addressTaken, parameters)
            : .leCreateConnection(peer: peer, peerType: target.peerType, ownRandom: setup.addressTaken, parameters)
        lock.withLock { attempt = Attempt(device: device, address: target.address) }
        let path = target.peerType >= 2 ? ", which the controller resolves" : ""
        log("\(command.name) to \(target.address)\(target.address == device ? "" : " (\(device))")\(path)")
        let status: [UInt8]
        do {
            status = try host.command(command, expectStatus: true, rawStatus: true)
        } catch {
            lock.withLock { attempt = nil }
            throw Self.failure(error)
        }
        if let code = status.first, code != 0 {
            lock.withLock { attempt = nil }
            throw .controller(code: code)
        }
        var moved: Target?
        var contradicted: Target?
        let throughList = target.peerType >= 2
        let started = Date()
        lock.lock()
        while attempt?.complete == nil, self.generation == generation, hostEnded == nil, Date() < deadline {
            _ = lock.wait(until: min(deadline, Date().addingTimeInterval(Self.followInterval)))
            if following, attempt?.complete == nil, case let now = self.target(for: device), now != target {
                moved = now
                break
            }
            if throughList, following, attempt?.complete == nil, Date().timeIntervalSince(started) >= Self.listGrace,
               let addresses, case let heard = addresses.current(device), heard != target.address,
               AddressType(heard) == .resolvablePrivate {
                if addresses.reports(at: heard, for: device) >= Self.listContradictions {
                    contradicted = Target(address: heard, peerType: 1)
                    break
                }
            }
        }
        var complete = attempt?.complete
        let gaveUp = complete == nil && hostEnded == nil
        if gaveUp { attempt?.cancelled = true }
        lock.unlock()
        if gaveUp {
            // Cancel; the controller then reports the attempt with status 0x02 (§7.8.13), unless
            // the connection won the race.
            _ = try? host.command(.leCreateConnectionCancel)
            let cancelDeadline = Date().addingTimeInterval(1)
            lock.lock()
            while attempt?.complete == nil, hostEnded == nil, lock.wait(until: cancelDeadline) {}
            complete = attempt?.complete
            lock.unlock()
        }
        lock.lock()
        attempt = nil
        let current = self.generation == generation
        let ended = hostEnded
        lock.unlock()
        if let ended { throw .adapterGone(ended.detail) }
        if let complete, complete.status == 0 { return .made(complete) }
        guard current else { return .superseded }
        if let code = complete?.status, code != 0x02 {
            throw code == 0x3E ? .notEstablished(code: code) : .controller(code: code)
        }
        if let contradicted { return .listDidNotResolve(contradicted) }
        return moved.map(Outcome.moved) ?? .noAnswer
    }
}
