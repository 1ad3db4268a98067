// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import Localization

/// The worker's side: connecting, ending and writing, one request after another.
extension HCIConnector {
    func isCurrent(_ generation: Int) -> Bool { lock.withLock { self.generation == generation } }

    // MARK: Connect

    /// Connects to `device`; `pairing`, when given, runs on the new link before discovery.
    func runConnect(to device: DeviceID, generation: Int, pairing: ((LELink) -> Void)? = nil) {
        guard isCurrent(generation) else { return }
        // One active connection: the current one goes first (and says so).
        endCurrentLink(reportIdle: true)
        guard isCurrent(generation) else { return }
        if let ended = lock.withLock({ hostEnded }) {
            streams.set(.failed(.adapterGone(ended.detail)))
            return
        }
        streams.set(.connecting(device))
        host.start()
        // A link made and then never answered (a lost CONNECT_IND on the air) is dropped and
        // made once more, at the newest address; a second such link fails as any other.
        var triedAgain = false
        while true {
            do {
                let setup = try controllerSetup()
                guard let link = try establish(device, setup: setup, generation: generation) else { return }
                if let pairing {
                    pairing(link)
                } else if !encryptIfBonded(link), !triedAgain {
                    triedAgain = true
                    tryAgainUnanswered(device, why: "the encryption")
                    continue
                }
                guard isCurrent(generation) else { return }
                // The first ATT request, Exchange MTU, gets 2 s the first time: a silent link is made again.
                if !exchangeMTU(on: link, within: triedAgain ? nil : Self.unansweredAfter), !triedAgain, isCurrent(generation) {
                    triedAgain = true
                    tryAgainUnanswered(device, why: "the first ATT request")
                    continue
                }
                try openChat(on: link, generation: generation)
                return
            } catch .notEstablished(let code) where !triedAgain && isCurrent(generation) {
                triedAgain = true
                tryAgainUnanswered(device, why: "the connection (0x\(String(code, radix: 16)))")
            } catch let failure {
                guard isCurrent(generation) else { return }
                endCurrentLink(reportIdle: false)
                // A link that ended on its own (or with the host) has said why already.
                if case .connecting = streams.state { streams.set(.failed(failure)) }
                if case .connected = streams.state { streams.set(.failed(failure)) }
                return
            }
        }
    }

    /// Drops the link the device never answered and says the attempt goes on.
    private func tryAgainUnanswered(_ device: DeviceID, why: String) {
        log("\(device) did not answer \(why); dropping the link and trying once more at \(addresses?.current(device) ?? device)")
        endCurrentLink(reportIdle: false)
        streams.emit(.unanswered(device))
    }

    /// The controller as the host read it, with FavBlue's kept identity address, so a bonded
    /// device recognises it (else a new static one); the resolving list is filled once.
    func controllerSetup() throws(ConnectionFailure) -> LEController {
        if let setup = lock.withLock({ controller }) { return setup }
        do throws(ScanFailure) {
            let setup = try host.links.controller(on: host, wanted: keyring?.local.address.wireBytes ?? (0..<6).map { _ in UInt8.random(in: 0...255) })
            // Without a random address of its own, Bumble drops ATT traffic; it is said.
            if !setup.addressTaken { log("the controller refused a random address; connecting with the public one") }
            if let keyring { resolvingList.rebuild(keyring.all, localIRK: keyring.local.irk) }
            lock.withLock { controller = setup }
            return setup
        } catch {
            throw Self.failure(error)
        }
    }

    func makeLink(_ device: DeviceID, address: DeviceID, handle: UInt16, setup: LEController) -> LELink {
        let host = self.host
        let outbox = ACLOutbox(handle: handle, bufferSize: setup.bufferSize, bufferCount: setup.bufferCount,
                               credits: host.links.credits(count: setup.bufferCount)) { bytes in
            try? host.sendACL(bytes)
        }
        let link = LELink(role: .central, handle: handle, address: address, device: device, outbox: outbox,
                          attTimeout: attTimeout, server: ATTServer(database: attributes.database, receiveMTU: Self.clientMTU))
        lock.withLock { self.link = link }
        host.links.open(link, for: self)
        return link
    }

    /// MTU, discovery and subscription, then `connected`, then the list of services.
    /// Exchanges ATT_MTU, once per link; false only when the device did not answer in time
    /// (any other failure is left to the requests that follow, which meet it again).
    private func exchangeMTU(on link: LELink, within: Double?) -> Bool {
        do {
            try GATTClient(bearer: link.bearer).exchangeMTU(Self.clientMTU, within: within)
            log("ATT_MTU \(link.bearer.mtu)")
        } catch .timeout {
            return false
        } catch {}
        return true
    }

    private func openChat(on link: LELink, generation: Int) throws(ConnectionFailure) {
        do {
            let gatt = GATTClient(bearer: link.bearer)
            // Before "connected": the browser's discovery, which follows at once, takes this list.
            let services = try gatt.primaryServices()
            lock.withLock { link.primaries = services }
            let found = try gatt.findChat(in: services)
            log("chat: \(found.map { "\($0.channel)" } ?? "none")")
            var service: ChatService?
            if let found {
                lock.withLock { link.chat = found.channel }
                try gatt.subscribe(found.cccd, indicate: found.indicate)
                service = found.channel.service
            }
            lock.lock()
            guard self.generation == generation, self.link === link else { lock.unlock(); return }
            streams.set(.connected(link.device, service: service))
            link.ready = true
            for value in link.early { streams.emit(.received(ChatMessage.received(value, from: link.device))) }
            link.early = []
            lock.unlock()
            readSignal(of: link, after: 1)
            lock.withLock {
                if self.link === link { streams.emit(.services(link.device, services.map(\.uuid.serviceID))) }
            }
        } catch .aborted, .linkEnded {
            return
        } catch .error(.insufficientAuthentication, _, _) {
            noteAuthenticationWanted(on: link)
            throw .needsPairing
        } catch .error(.insufficientEncryption, _, _), .error(.encryptionKeySizeTooShort, _, _) {
            throw .needsPairing
        } catch .timeout {
            throw .protocolError(L10n.format("no answer within {} seconds", Int(attTimeout.rounded())))
        } catch {
            throw .protocolError(error.description)
        }
    }

    /// An encrypted link refused for want of authentication: a bond made without a code is not
    /// enough for this device, so pairing again is offered (not encrypting and failing again).
    func noteAuthenticationWanted(on link: LELink) {
        guard lock.withLock({ link.encryption == 0 }) else { return }
        keyring?.noteAuthenticationWanted(by: lock.withLock { link.device })
    }

    // MARK: Signal while connected

    public var readsSignalWhileConnected: Bool { true }

    /// Reads the link's RSSI (HCI Read RSSI) every `seconds` while it lasts: a connected device
    /// stops advertising, so this is the only signal there is. A controller that cannot answer
    /// is asked no more.
    func readSignal(of link: LELink, after seconds: Double) {
        signal.asyncAfter(deadline: .now() + seconds) { [weak self] in
            guard let self, self.lock.withLock({ self.link === link && link.ready && !link.ending }) else { return }
            guard let answer = try? self.host.command(.readRSSI(handle: link.handle), timeout: 1) else {
                return self.log("Read RSSI: no answer; the signal is not followed while connected")
            }
            if let rssi = HCICommand.rssi(fromReadRSSI: answer) {
                let device = self.lock.withLock { link.device }
                self.streams.emit(.signal(device, rssi: rssi, at: Date()))
            }
            self.readSignal(of: link, after: 1)
        }
    }

    // MARK: Disconnect

    func runDisconnect(generation: Int) {
        guard isCurrent(generation) else { return }
        endCurrentLink(reportIdle: true)
        if case .failed = streams.state { return }
        streams.set(.idle)
    }

    /// Ends the connection there is, if any, and waits (up to 3 s) for Disconnection Complete.
    func endCurrentLink(reportIdle: Bool) {
        lock.lock()
        guard let current = link else { lock.unlock(); return }
        current.ending = true
        current.bearer.fail(.aborted)
        lock.unlock()
        if reportIdle { streams.set(.disconnecting(current.device)) }
        _ = try? host.command(.disconnect(handle: current.handle), expectStatus: true)
        let deadline = Date().addingTimeInterval(3)
        lock.lock()
        while link === current, hostEnded == nil, lock.wait(until: deadline) {}
        if link === current { link = nil }
        lock.unlock()
        if reportIdle { streams.set(.idle) }
    }

    // MARK: Send

    func runSend(_ text: String) -> Result<Void, ChatSendError> {
        guard let link = lock.withLock({ self.link }), let chat = lock.withLock({ link.ready ? link.chat : nil }) else {
            return .failure(.notConnected)
        }
        for part in ChatSplitter.parts(of: text, limit: link.bearer.mtu - 3) {
            if chat.writeWithResponse {
                do {
                    let answer = try link.bearer.request(.writeRequest(handle: chat.rxValue, value: part))
                    guard answer == .writeResponse else { return .failure(.rejected(L10n.tr("unexpected answer"))) }
                } catch .error(.insufficientAuthentication, _, _) {
                    noteAuthenticationWanted(on: link)
                    return .failure(.needsPairing)
                } catch .error(.insufficientEncryption, _, _), .error(.encryptionKeySizeTooShort, _, _) {
                    return .failure(.needsPairing)
                } catch .error(let code, _, _) {
                    return .failure(.rejected(ATTError.error(code, request: 0x12, handle: chat.rxValue).description))
                } catch .timeout {
                    // The bearer is spent after a timeout (Vol 3, Part F, §3.3.3): end the link.
                    worker.async { [self] in
                        endCurrentLink(reportIdle: false)
                        streams.set(.failed(.protocolError(L10n.tr("the device stopped answering"))))
                    }
                    return .failure(.timedOut)
                } catch {
                    return .failure(.connectionLost)
                }
            } else {
                guard lock.withLock({ self.link === link }) else { return .failure(.connectionLost) }
                link.outbox.send(frame: L2CAPFrame(channel: L2CAPFrame.attChannel,
                                                   payload: ATTPDU.writeCommand(handle: chat.rxValue, value: part).bytes).bytes)
            }
        }
        return .success(())
    }

    /// A host failure in the connection's words.
    static func failure(_ error: ScanFailure) -> ConnectionFailure {
        switch error {
        case .controller(let detail): return .protocolError(detail)
        default: return .adapterGone(error.detail)
        }
    }
}

extension ATTError: CustomStringConvertible {
    /// A short explanation for logs and failure details.
    public var description: String {
        switch self {
        case .error(let code, let request, let handle):
            // Translators: {} is the error in words; then the request, handle and code for a bug report.
            return L10n.format("{} (request 0x{}, handle 0x{}, ATT error 0x{})", code.message,
                               String(request, radix: 16), String(handle, radix: 16), String(code.raw, radix: 16))
        case .timeout: return L10n.tr("no answer in time")
        case .linkEnded: return L10n.tr("the connection ended")
        case .aborted: return L10n.tr("given up")
        case .unexpected(let what): return what
        }
    }
}
