// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import Localization

/// FavBlue as the device on its own HCI host: advertising sets, incoming connections in the
/// peripheral role, and the GATT server on each (Core v5.4, Vol 3, Part F and G). It is a
/// client of the host the scanner and the connector share, and leaves their links alone.
///
/// Threads: `worker`, a serial queue, sends the commands the user's requests need. The host's
/// read thread takes each central's PDUs, answers them from the database at once (sending never
/// blocks there), and reports through `events`; replies the controller waits for (a key,
/// connection parameters) go out on `replies`.
public final class HCIPeripheral: DevicePeripheral, HCIHostClient, LinkOwner, @unchecked Sendable {
    // MARK: Configuration
    let link: HCILink
    let log: @Sendable (String) -> Void
    /// The bonds: the keys a central's encryption asks for, and FavBlue's identity.
    let keyring: HCIKeyring?
    /// Pairing as the responder, where there is a Security Manager to pair with.
    let security: HCISecurity?
    /// The static random address FavBlue advertises from when there is no kept identity, made once.
    let ownAddress: [UInt8] = (0..<6).map { _ in UInt8.random(in: 0...255) }
    /// Asks the user when a central pairs with a code; set by whoever shows the dialogs.
    public var ask: (@Sendable (PairingPrompt) -> Void)?

    // MARK: Threads
    let worker = DispatchQueue(label: "favblue-peripheral")
    let replies = DispatchQueue(label: "favblue-peripheral-replies")

    // MARK: State, guarded by `lock`
    let lock = NSLock()
    var host: HCIHost?
    var controller: Controller?
    /// The advertisements on, by id.
    var sets: [String: AdvertisingSet] = [:]
    /// The centrals' links, by handle; the host's link table hands over their frames.
    var links: [UInt16: LELink] = [:]
    let feed = Feed<PeripheralEvent>()

    /// What the controller offers, read once per host, with what advertising takes.
    struct Controller {
        let le: LEController
        let sets: Int
        let maximumLength: Int
        var extended: Bool { le.extended }
        /// The static random address FavBlue advertises from, as it travels.
        var address: [UInt8] { le.address }
        var features: [AdapterFacts.Feature: Bool] {
            [.dataLength: le.supports(5), .privacy: le.supports(6), .phy2M: le.supports(8), .coded: le.supports(11), .extendedAdvertising: extended]
        }
    }

    /// One advertisement on air.
    struct AdvertisingSet {
        let handle: UInt8
        var advertisement: Advertisement
        /// Set when it stops by itself after a duration (legacy advertising has no duration of its own).
        var stopWork: DispatchWorkItem?
    }

    /// Creates the peripheral on `link`; nothing opens until the first request.
    public init(link: HCILink, keyring: HCIKeyring? = nil, security: HCISecurity? = nil,
                log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.link = link
        self.keyring = keyring ?? security?.keyring
        self.security = security
        self.log = log
    }

    /// The database every link on this controller answers from, the central's links too.
    var attributes: LocalAttributes { link.attributes }

    public var events: Feed<PeripheralEvent> { feed }
    public var unavailableReason: String? { nil }

    /// The host, opened (and this peripheral its client) when there is none or the last one ended.
    func currentHost() throws(PeripheralError) -> HCIHost {
        let opened: HCIHost
        do { opened = try link.host() } catch { throw .unavailable(error.message) }
        let fresh = lock.withLock { () -> Bool in
            guard host !== opened else { return false }
            host = opened
            controller = nil
            sets = [:]
            links = [:]
            return true
        }
        if fresh { opened.add(self) }
        return opened
    }

    // MARK: HCIHostClient (the read thread)

    public func host(_ host: HCIHost, didReceive event: HCIEvent) {
        let decoded: LinkEvent?
        do { decoded = try LinkEvent.decode(event) } catch { return log("skipped a malformed connection event: \(error)") }
        guard let decoded else { return }
        switch decoded {
        case .connectionComplete(let complete) where complete.role == 1 && complete.status == 0:
            accepted(complete, on: host)
        case .disconnectionComplete(_, let handle, let reason):
            ended(handle: handle, reason: reason)
        case .remoteParameterRequest(let handle, let request) where lock.withLock({ links[handle] != nil }):
            replies.async { _ = try? host.command(.leRemoteConnectionParameterReply(handle: handle, request)) }
        case .encryptionChange(let status, let handle, let enabled):
            encryptionChanged(handle: handle, status: status, enabled: enabled)
        case .longTermKeyRequest(let handle, let rand, let ediv):
            keyRequested(handle: handle, rand: rand, ediv: ediv, on: host)
        case .advertisingSetTerminated(let status, let set, let connection):
            setTerminated(set, status: status, connection: connection)
        default:
            break
        }
    }

    func host(_ host: HCIHost, didReceive frame: L2CAPFrame, on link: LELink) {
        switch frame.channel {
        case L2CAPFrame.attChannel: receiveATT(frame.payload, on: link)
        case L2CAPFrame.signallingChannel:
            do { _ = try link.answerSignalling(frame.payload) } catch { log("skipped a malformed signalling command from a central: \(error)") }
        case L2CAPFrame.smpChannel: receiveSMP(frame.payload, on: link)
        default: log("ignored L2CAP channel 0x\(String(frame.channel, radix: 16)) from a central")
        }
    }

    public func hostDidClose(_ host: HCIHost, reason: ScanFailure) {
        let (gone, wasOn) = lock.withLock { () -> ([LELink], [String]) in
            guard self.host === host else { return ([], []) }
            defer {
                links = [:]
                sets = [:]
                self.host = nil
            }
            return (Array(links.values), Array(sets.keys))
        }
        // The end first, so the role keeps what was on for Try Again before the sets go off.
        if !gone.isEmpty || !wasOn.isEmpty { feed.yield(.ended(reason.message)) }
        for link in gone { feed.yield(.disconnected(link.central, reason: reason.detail)) }
        for id in wasOn { feed.yield(.advertising(id: id, on: false)) }
    }

    // MARK: Links

    private func accepted(_ complete: LEConnectionComplete, on host: HCIHost) {
        let address = DeviceID(wireBytes: complete.peerAddress, kind: complete.peerAddressType & 1 == 0 ? .lePublic : .leRandom)
        let database = attributes.database
        let made = lock.withLock { () -> LELink? in
            guard let controller else { return nil }
            let outbox = ACLOutbox(handle: complete.handle, bufferSize: controller.le.bufferSize, bufferCount: controller.le.bufferCount,
                                   credits: host.links.credits(count: controller.le.bufferCount)) { bytes in
                try? host.sendACL(bytes)
            }
            let link = LELink(role: .peripheral, handle: complete.handle, address: address, outbox: outbox,
                              attTimeout: HCIConnector.transactionTimeout, server: ATTServer(database: database))
            links[complete.handle] = link
            return link
        }
        guard let made else { return }
        host.links.open(made, for: self)
        log("central \(address) connected on handle \(complete.handle)")
        feed.yield(.connected(made.central))
        // A legacy set stops when a central connects; FavBlue keeps advertising for the next one.
        worker.async { [self] in resumeLegacyAdvertising() }
    }

    private func ended(handle: UInt16, reason: UInt8) {
        guard let gone = lock.withLock({ links.removeValue(forKey: handle) }) else { return }
        gone.lock.withLock { gone.pairing }?.end(.failure(.connectionLost))
        gone.keepClient(in: attributes)
        feed.yield(.disconnected(gone.central, reason: HCIConnector.failure(disconnectReason: reason).message))
    }
}
