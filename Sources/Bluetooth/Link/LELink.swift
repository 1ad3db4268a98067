// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation

/// One LE connection in either role, from LE Connection Complete to Disconnection Complete.
///
/// FavBlue's GATT client and its server share the link's one ATT bearer (Core v5.4, Vol 3,
/// Part F, §3.2.11): `bearer` carries FavBlue's requests, `server` answers the peer's from
/// FavBlue's own database, and both use one MTU. The Security Manager's run is the link's too.
/// `HCIConnector` makes links by connecting, `HCIPeripheral` by advertising; the host's
/// `LinkTable` reassembles each link's packets once and hands every frame to its maker.
final class LELink: @unchecked Sendable {
    /// FavBlue's role on the link.
    enum Role: Sendable { case central, peripheral }

    let role: Role
    let handle: UInt16
    /// The address the link was made with.
    let address: DeviceID
    let outbox: ACLOutbox
    /// FavBlue's requests to the peer, one at a time.
    let bearer: ATTBearer

    /// Guards the server side: `server`, the indications.
    let lock = NSLock()
    var server: ATTServer
    /// The peer's identity once it is known to be bonded: its client side is kept when the link ends.
    private var bondedClient: DeviceID?
    /// Indications waiting for the one before to be confirmed (§3.4.7.2), oldest first.
    private var indications: [Pending] = []
    /// The characteristic whose indication is awaited.
    private var indicating: ServedCharacteristicID?

    // Guarded by the maker's lock (the connector's, or `lock` on the peripheral's links):
    /// The peer as reported: its identity once pairing or a bond reveals it, else its address.
    var device: DeviceID
    /// The pairing under way on it, if any.
    var pairing: PairingRun?
    /// The last Encryption Change: nil until one came, else its status (0 when encrypted).
    var encryption: UInt8?
    /// Whether the key handed to the controller was made with a code.
    var pendingAuthenticated = false
    /// The peer asked to be paired on it, and the user was asked.
    var pairingRequested = false
    /// The user (or a newer request) is ending it, so its end is no failure.
    var ending = false
    /// FavBlue's client on it: the chat's characteristics once known; notifications wait in
    /// `early` until `ready`; the primary services found while connecting, taken once.
    var chat: HCIConnector.ChatChannel?
    var ready = false
    var early: [[UInt8]] = []
    var primaries: [ServiceRange]?

    private struct Pending {
        /// Nil for what FavBlue's own Generic Attribute indicates (Service Changed).
        let id: ServedCharacteristicID?
        let handle: UInt16
        let value: [UInt8]
    }

    init(role: Role, handle: UInt16, address: DeviceID, device: DeviceID? = nil, outbox: ACLOutbox,
         attTimeout: Double, server: ATTServer) {
        self.role = role
        self.handle = handle
        self.address = address
        self.device = device ?? address
        self.outbox = outbox
        self.server = server
        bearer = ATTBearer(timeout: attTimeout) { pdu in
            outbox.send(frame: L2CAPFrame(channel: L2CAPFrame.attChannel, payload: pdu).bytes)
        }
    }

    /// The peer as the peripheral role's events name it.
    var central: PeripheralCentral { PeripheralCentral(id: String(handle), address: address.address) }

    func send(att pdu: [UInt8]) {
        outbox.send(frame: L2CAPFrame(channel: L2CAPFrame.attChannel, payload: pdu).bytes)
    }

    func send(smp pdu: [UInt8]) {
        outbox.send(frame: L2CAPFrame(channel: L2CAPFrame.smpChannel, payload: pdu).bytes)
    }

    func send(signalling command: SignallingCommand) {
        outbox.send(frame: L2CAPFrame(channel: L2CAPFrame.signallingChannel, payload: command.bytes).bytes)
    }

    /// The link ended: FavBlue's waiting request fails, and its buffers go back to the controller's pool.
    func closed() {
        bearer.fail(.linkEnded)
        outbox.close()
    }

    // MARK: The server side

    /// Answers the peer's request from FavBlue's database and says what the peer did, with the
    /// characteristic an arriving confirmation confirms; the next indication waiting goes out.
    func answer(_ payload: [UInt8]) -> (notes: [ATTServerNote], confirmed: ServedCharacteristicID?) {
        lock.lock()
        server.follow(mtu: bearer.mtu)
        let (answer, notes) = server.receive(payload)
        var confirmed: ServedCharacteristicID?
        var next: Pending?
        if notes.contains(.confirmed) {
            confirmed = indicating
            // No characteristic of the setup's: Service Changed, so the client knows this database now.
            if indicating == nil { server.serviceChangedConfirmed() }
            indicating = nil
            if !indications.isEmpty { next = indications.removeFirst() }
        }
        lock.unlock()
        if let answer { send(att: answer) }
        for case .mtu(let mtu) in notes { bearer.mtu = mtu }
        if let next { indicate(next) }
        return (notes, confirmed)
    }

    /// Notifies or indicates `value` where the peer subscribed to it at `configuration`; says whether it did.
    func push(_ value: [UInt8], of id: ServedCharacteristicID, at handle: UInt16, configuration: UInt16) -> Bool {
        lock.lock()
        let bits = server.configuration(at: configuration)
        let mtu = server.mtu
        lock.unlock()
        if bits & 1 != 0 {
            // Cut to ATT_MTU − 3, as the Core allows (Vol 3, Part F, §3.4.7.1).
            send(att: ATTPDU.notification(handle: handle, value: Array(value.prefix(mtu - 3))).bytes)
        } else if bits & 2 != 0 {
            indicate(Pending(id: id, handle: handle, value: value))
        } else {
            return false
        }
        return true
    }

    /// Sends an indication now, or queues it behind the one awaiting confirmation (§3.4.7.2).
    private func indicate(_ pending: Pending) {
        lock.withLock { indicateLocked(pending) }
    }

    /// `indicate`, for a caller that holds `lock`.
    private func indicateLocked(_ pending: Pending) {
        guard !server.awaitingConfirmation else { return indications.append(pending) }
        indicating = pending.id
        server.awaitingConfirmation = true
        send(att: ATTPDU.indication(handle: pending.handle, value: Array(pending.value.prefix(server.mtu - 3))).bytes)
    }

    /// The peer is bonded as `identity`: with `recalling`, its client side comes back as its last
    /// link left it (a database changed since makes a robust-caching client change-unaware; its
    /// subscriptions hold); either way it is kept when this link ends.
    /// Returns the subscriptions that came back, as notes.
    @discardableResult
    func bonded(as identity: DeviceID, recalling: Bool, in attributes: LocalAttributes) -> [ATTServerNote] {
        lock.withLock { bondedLocked(as: identity, recalling: recalling, in: attributes) }
    }

    /// `bonded`, for a caller that holds `lock`.
    @discardableResult
    func bondedLocked(as identity: DeviceID, recalling: Bool, in attributes: LocalAttributes) -> [ATTServerNote] {
        guard bondedClient == nil else { return [] }
        bondedClient = identity
        guard recalling, let memory = attributes.recall(identity) else { return [] }
        let notes = server.recall(memory)
        // Its subscription to Service Changed held, and what it knew has changed: it is told the
        // whole range changed, so it finds the services again (Vol 3, Part G, §7.1).
        let database = server.database
        if server.knewAnotherDatabase, let handle = database.serviceChangedHandle,
           let configuration = database.serviceChangedConfiguration, server.configuration(at: configuration) & 2 != 0 {
            indicateLocked(Pending(id: nil, handle: handle, value: [0x01, 0x00, 0xFF, 0xFF]))
        }
        return notes
    }

    /// The link ended: a bonded peer's client side is kept for its next link.
    func keepClient(in attributes: LocalAttributes) {
        lock.withLock {
            if let bondedClient { attributes.keep(server.memory, of: bondedClient) }
        }
    }

    // MARK: Signalling

    /// Answers an L2CAP signalling command (Vol 3, Part A, §4) and returns it for the maker to act on.
    func answerSignalling(_ payload: [UInt8]) throws(DecodeError) -> SignallingCommand {
        let command = try SignallingCommand.decode(payload)
        if role == .peripheral, case .connectionParameterUpdateRequest(let id, _) = command {
            // Only a peripheral sends this; a central that does is refused (§4.20).
            send(signalling: .commandReject(identifier: id, reason: 0))
        } else if let answer = command.answer {
            send(signalling: answer)
        }
        return command
    }
}
