// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import Localization

/// What the pairer gives the connector for one pairing.
struct PairingContext: Sendable {
    let crypto: any PairingCrypto
    let localIRK: [UInt8]
    let ask: @Sendable (PairingQuestion) -> Void
}

/// The Security Manager on the HCI route: pairing on request, and encryption of every link to a bonded device.
extension HCIConnector {

    /// Connects to `device` if it is not the current link, then pairs on the worker.
    func pair(_ device: DeviceID, _ context: PairingContext) async -> Result<(DeviceID, Bond?), PairingFailure> {
        await withCheckedContinuation { continuation in
            let current = lock.withLock { link.map { $0.device == device && !$0.ending } ?? false }
            if current {
                worker.async { [self] in
                    let link = lock.withLock { self.link }
                    guard let link else { continuation.resume(returning: .failure(.connectionLost)); return }
                    continuation.resume(returning: runPairing(on: link, context, generation: lock.withLock { generation }))
                }
            } else {
                let generation = supersede()
                lock.withLock { connectingToPair = generation }
                worker.async { [self] in
                    var result: Result<(DeviceID, Bond?), PairingFailure> = .failure(.connectionLost)
                    var ran = false
                    runConnect(to: device, generation: generation) { link in
                        ran = true
                        result = self.runPairing(on: link, context, generation: generation)
                    }
                    let cancelled = lock.withLock {
                        defer { connectingToPair = nil }
                        return connectingToPair != generation
                    }
                    // Called off while connecting; else, not connected, the connection's own failure says why.
                    if !ran, cancelled {
                        result = .failure(.declined)
                    } else if !ran, case .failed(let failure) = streams.state {
                        result = .failure(.other(failure.message))
                    }
                    continuation.resume(returning: result)
                }
            }
        }
    }

    /// Says no to `device`'s own request to pair: it hears Pairing Failed, Pairing Not Supported.
    func declinePairingRequest(from device: DeviceID) {
        lock.lock()
        defer { lock.unlock() }
        guard let link, link.device == device, link.pairing == nil else { return }
        link.send(smp: SecurityManager.pairingNotSupported)
    }

    /// Calls off the pairing under way: the device hears Pairing Failed.
    func cancelPairing() {
        lock.lock()
        if connectingToPair != nil, link?.pairing == nil {
            // Still connecting: stop that, and the pairing with it.
            connectingToPair = nil
            lock.unlock()
            let current = supersede()
            worker.async { [self] in runDisconnect(generation: current) }
            return
        }
        guard let link, let run = link.pairing else { lock.unlock(); return }
        schedule(run.session.cancel(), run, on: link)
        lock.unlock()
    }

    /// Runs one pairing on `link` and waits for its end; called on the worker.
    func runPairing(on link: LELink, _ context: PairingContext, generation: Int) -> Result<(DeviceID, Bond?), PairingFailure> {
        guard let own = lock.withLock({ controller?.connectingFrom }) else {
            return .failure(.unavailable(L10n.tr("The adapter did not say its own address, which pairing needs.")))
        }
        let initiator = SMPSession(role: .initiator, crypto: context.crypto, local: own, remote: SMPSession.Party(link.address),
                                   identity: .init(irk: context.localIRK, address: own))
        let run = PairingRun(session: initiator, ask: context.ask)
        lock.lock()
        guard self.link === link, link.pairing == nil else {
            lock.unlock()
            return .failure(.other(L10n.tr("another pairing is under way.")))
        }
        link.pairing = run
        schedule(initiator.start(), run, on: link)
        while run.outcome == nil, self.link === link, self.generation == generation, hostEnded == nil {
            lock.wait()
        }
        if run.outcome == nil {
            // A newer request, or the link or adapter went: the device hears that pairing is off.
            schedule(initiator.cancel(), run, on: link)
            run.end(.failure(self.link === link && hostEnded == nil ? .declined : .connectionLost))
        }
        link.pairing = nil
        let outcome = run.outcome!
        if case .success(let (identity, _)) = outcome, identity != link.device, self.link === link {
            // Pairing revealed who it is: the link is that device's from now on.
            let old = link.device
            link.device = identity
            if case .connected(old, let service) = streams.state { streams.set(.connected(identity, service: service)) }
        }
        lock.unlock()
        if case .success(let (identity, bond)) = outcome {
            log("paired with \(link.address) as \(identity)\(bond == nil ? ", no bond" : "")")
        }
        return outcome
    }

    /// An SMP PDU from the device (the read thread).
    func receiveSMP(_ payload: [UInt8], on link: LELink) {
        lock.lock()
        defer { lock.unlock() }
        let pdu = try? SMPPDU.decode(payload)
        if let run = link.pairing {
            if case .securityRequest? = pdu { return log("ignored a Security Request: pairing is under way") }
            schedule(run.session.receive(payload), run, on: link)
            return
        }
        guard let keyring else {
            // No Security Manager on this connector (nobody to pair through): say so.
            if let answer = SecurityManager.answer(to: payload) {
                link.send(smp: answer)
            }
            return
        }
        // Not pairing: a bonded device's Security Request is answered with encryption, any other
        // device's asks the user (once per connection); a Pairing Request (a peripheral may not
        // send one) is refused.
        switch pdu {
        case .securityRequest(let authReq)?:
            // Bonding_Flags 10 and 11 and bits 6–7 are reserved (Vol 3, Part H, §3.6.7, §3.5.1).
            guard authReq & 0xC0 == 0, authReq & 0x03 < 2 else {
                return log("ignored a Security Request with reserved bits (AuthReq 0x\(String(authReq, radix: 16)))")
            }
            if let bond = keyring.bond(for: link.device), bond.ltk != nil {
                if link.encryption != 0 { replies.async { [self] in startEncryption(bond, on: link) } }
            } else if !link.pairingRequested {
                link.pairingRequested = true
                onPairingRequest?(link.device)
            } else {
                log("ignored a repeated Security Request from \(link.device)")
            }
        case .pairingRequest?:
            link.send(smp: SecurityManager.pairingNotSupported)
        default:
            break
        }
    }

    /// Encryption Change on `handle` (the read thread).
    func encryptionChanged(handle: UInt16, status: UInt8) {
        lock.lock()
        defer { lock.unlock() }
        guard let link, link.handle == handle else { return }
        link.encryption = status
        let bond = status == 0 ? keyring?.bond(for: link.device) : nil
        link.lock.withLock { link.server.security = LinkSecurity(encrypted: status == 0, authenticated: bond?.authenticated ?? false) }
        if let run = link.pairing {
            schedule(run.session.encrypted(status: status), run, on: link)
        } else if let bond {
            // Encrypted with a bond's key: the bonded peripheral's client side comes back.
            link.bonded(as: bond.identity, recalling: true, in: attributes)
        }
        lock.broadcast()
    }

    /// Hands `actions` to the replies queue in order; called with the lock held.
    private func schedule(_ actions: [SMPAction], _ run: PairingRun, on link: LELink) {
        guard !actions.isEmpty else { return }
        for action in actions {
            switch action {
            case .finished(let identity, let bond):
                run.end(.success((identity, bond)))
                if bond != nil { link.bonded(as: identity, recalling: false, in: attributes) }
                lock.broadcast()
            case .failed(let failure):
                run.end(.failure(failure))
                lock.broadcast()
            default:
                break
            }
        }
        replies.async { [self] in
            for action in actions {
                switch action {
                case .send(let pdu):
                    link.send(smp: pdu.bytes)
                case .ask(let question):
                    run.ask?(question)
                case .encrypt(let ltk, let ediv, let rand):
                    do {
                        _ = try host.command(.leEnableEncryption(handle: link.handle, ltk: ltk, ediv: ediv, rand: rand),
                                             expectStatus: true)
                    } catch {
                        encryptionChanged(handle: link.handle, status: 0x1F)
                    }
                case .key, .finished, .failed:
                    break
                }
            }
        }
        run.restartTimer(after: PairingRun.after(on: replies), lock: lock, current: { [weak link, weak run] in link?.pairing === run }) { [weak self] actions in
            self?.schedule(actions, run, on: link)
        }
    }

    /// The user's answer to the pairing question on the current link.
    func answerPairing(_ answer: PairingAnswer) {
        lock.lock()
        defer { lock.unlock() }
        guard let link, let run = link.pairing else { return }
        schedule(run.session.answer(answer), run, on: link)
    }

    /// Encrypts a new link to a bonded device with its stored key and waits (5 s) for the answer.
    /// A device that lost its key (status 0x06) stays unencrypted: a request that needs
    /// encryption then offers Pair again.
    /// Encrypts a link to a bonded device with its bond; false when the device never answered
    /// (no Encryption Change within `unansweredAfter`, or 0x1F): a link made, then left silent.
    @discardableResult
    func encryptIfBonded(_ link: LELink) -> Bool {
        guard let bond = keyring?.bond(for: link.device), bond.ltk != nil else { return true }
        startEncryption(bond, on: link)
        let deadline = Date().addingTimeInterval(Self.unansweredAfter)
        lock.lock()
        while link.encryption == nil, self.link === link, lock.wait(until: deadline) {}
        let status = link.encryption
        lock.unlock()
        switch status {
        case 0?: log("link to \(link.device) encrypted with its bond")
        case 0x06?:
            // The device forgot the pairing (reset, or paired elsewhere): the pages offer Pair again.
            log("\(link.device) has lost its key; pair again to encrypt")
            keyring?.markLost(bond.identity)
        case 0x1F?:
            log("encryption with \(link.device) failed: 0x1f")
            return false
        case let code?: log("encryption with \(link.device) failed: 0x\(String(code, radix: 16))")
        case nil:
            log("no answer to LE Enable Encryption")
            return false
        }
        return true
    }

    private func startEncryption(_ bond: Bond, on link: LELink) {
        guard let ltk = bond.ltk else { return }
        do {
            _ = try host.command(.leEnableEncryption(handle: link.handle, ltk: ltk.reversed(), ediv: bond.ediv ?? 0,
                                                     rand: bond.rand ?? 0), expectStatus: true)
        } catch {
            encryptionChanged(handle: link.handle, status: 0x1F)
        }
    }
}
