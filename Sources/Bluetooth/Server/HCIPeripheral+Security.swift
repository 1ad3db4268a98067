// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import Localization

/// The Security Manager as the responder: a central's Pairing Request, its encryption with the
/// key made or kept, and the bond (Core v5.4, Vol 3, Part H; Vol 4, Part E, §7.7.65.5).
extension HCIPeripheral {
    /// An SMP PDU from a central (the read thread).
    func receiveSMP(_ payload: [UInt8], on link: LELink) {
        link.lock.lock()
        defer { link.lock.unlock() }
        if let run = link.pairing, run.session.isRunning {
            perform(run.session.receive(payload), run, on: link)
            return
        }
        guard case .pairingRequest? = try? SMPPDU.decode(payload) else { return }
        guard let security, let own = lock.withLock({ controller?.address }) else {
            link.send(smp: SecurityManager.pairingNotSupported)
            return
        }
        let local = SMPSession.Party(type: 1, octets: own.reversed())
        let responder = SMPSession(role: .responder, crypto: security.crypto, local: local, remote: SMPSession.Party(link.address),
                                   identity: .init(irk: security.keyring.local.irk, address: local))
        let run = PairingRun(session: responder)
        link.pairing = run
        perform(responder.receive(payload), run, on: link)
    }

    /// The user's answer to the question a central's pairing asked.
    public func answerPairing(central: PeripheralCentral, _ answer: PairingAnswer) {
        guard let link = lock.withLock({ links.values.first { $0.central == central } }) else { return }
        link.lock.lock()
        defer { link.lock.unlock() }
        guard let run = link.pairing else { return }
        perform(run.session.answer(answer), run, on: link)
    }

    /// Carries out what the responder asks; called with the link's lock held.
    private func perform(_ actions: [SMPAction], _ run: PairingRun, on link: LELink) {
        guard !actions.isEmpty else { return }
        for action in actions {
            switch action {
            case .send(let pdu):
                link.send(smp: pdu.bytes)
            case .key(let key):
                run.key = key
            case .encrypt:
                break  // the central encrypts
            case .ask(let question):
                run.promptID += 1
                let prompt = PairingPrompt(id: Int(link.handle) << 16 | run.promptID, device: link.address, question: question) { [weak self] answer in
                    self?.answerPairing(central: link.central, answer)
                }
                // Not under the link's lock: an answer given at once comes back through it.
                let ask = self.ask
                replies.async { ask?(prompt) }
            case .finished(let identity, let bond):
                run.end(.success((identity, bond)))
                link.device = identity
                if bond != nil { link.bondedLocked(as: identity, recalling: false, in: attributes) }
                log("paired with central \(link.address) as \(identity)\(bond == nil ? ", no bond" : "")")
                if let bond, let security {
                    Task { try? await security.keep(bond) }
                }
            case .failed(let failure):
                run.end(.failure(failure))
                log("pairing with central \(link.address) failed: \(failure.message)")
            }
        }
        run.restartTimer(after: PairingRun.after(on: replies), lock: link.lock, current: { [weak link, weak run] in link?.pairing === run }) { [weak self] actions in
            self?.perform(actions, run, on: link)
        }
    }

    /// LE Long Term Key Request: the key this pairing made, else the bond's, else none (the read thread).
    func keyRequested(handle: UInt16, rand: UInt64, ediv: UInt16, on host: HCIHost) {
        guard let link = lock.withLock({ links[handle] }) else { return }
        let fresh = link.lock.withLock { link.pairing?.key }
        var key = fresh
        var authenticated = link.lock.withLock { link.pairing?.session.method } != .justWorks && fresh != nil
        // A Secure Connections bond is asked for with EDIV and Rand 0; a legacy one with the pair FavBlue gave.
        if key == nil, let bond = keyring?.bond(for: link.lock.withLock { link.device }), let ltk = bond.ltk,
           bond.secureConnections ? ediv == 0 && rand == 0 : bond.ediv == ediv && bond.rand == rand {
            key = ltk.reversed()
            authenticated = bond.authenticated
            link.lock.withLock { link.device = bond.identity }
        }
        link.lock.withLock { link.pendingAuthenticated = authenticated }
        let found = key
        replies.async { [self] in
            if let key = found {
                _ = try? host.command(.leLongTermKeyRequestReply(handle: handle, ltk: key))
            } else {
                log("no key for central \(link.address): encryption refused")
                _ = try? host.command(.leLongTermKeyRequestNegativeReply(handle: handle))
            }
        }
    }

    /// Encryption Change on a central's link (the read thread).
    func encryptionChanged(handle: UInt16, status: UInt8, enabled: Bool) {
        guard let link = lock.withLock({ links[handle] }) else { return }
        link.lock.lock()
        let on = status == 0 && enabled
        link.server.security = LinkSecurity(encrypted: on, authenticated: on && link.pendingAuthenticated)
        let authenticated = link.server.security.authenticated
        let identity = link.device
        var recalled: [ATTServerNote] = []
        if let run = link.pairing {
            perform(run.session.encrypted(status: status), run, on: link)
        } else if on, keyring?.bond(for: identity) != nil {
            // Encrypted with a bond's key: the bonded central's client side comes back.
            recalled = link.bondedLocked(as: identity, recalling: true, in: attributes)
        }
        link.lock.unlock()
        if on { feed.yield(.encrypted(link.central, authenticated: authenticated)) }
        // Its subscriptions held: the page lists them as the central's own.
        tell(recalled, on: link)
    }
}
