// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import Localization

/// Connects one LE device at a time through FavBlue's own HCI host and chats over GATT.
/// It is a client of an `HCIHost`, which it may share with an `HCIScanner`, so scanning
/// goes on while connected where the controller allows it.
///
/// Threads: `worker`, a serial queue, runs what the user asks for (connect, disconnect, send)
/// with blocking HCI commands and ATT requests. The host's read thread decodes ACL, answers
/// the peer's signalling, SMP and ATT server requests on its own (sending never blocks there),
/// hands ATT responses to the waiting request and delivers notifications as they come.
/// Neither ever runs on the main thread; both report through `events` (see `DeviceConnector`).
///
/// The host holds its clients weakly: whoever makes the connector keeps it for as long as it is used.
public final class HCIConnector: DeviceConnector, HCIHostClient, LinkOwner, @unchecked Sendable {
    // MARK: Configuration
    let host: HCIHost
    let connectTimeout: Double
    let attTimeout: Double
    let parameters: LEConnectionParameters
    let log: @Sendable (String) -> Void
    /// FavBlue's own database, which the device reads from on each link (GAP, GATT, a served setup).
    let attributes: LocalAttributes
    /// The bonds, for encrypting links to bonded devices and for the controller's resolving list;
    /// set by whoever pairs.
    var keyring: HCIKeyring? {
        didSet {
            if oldValue !== keyring { oldValue?.stopTelling(self) }
            keyring?.onChange(of: self) { [weak self] in self?.bondsChanged() }
        }
    }
    /// The bonded devices the controller follows by identity.
    let resolvingList: HCIResolvingList
    /// A device that is not bonded asks to be paired (a Security Request), once per connection;
    /// called on the read thread, so it must return at once.
    var onPairingRequest: (@Sendable (DeviceID) -> Void)?
    /// Where each device is heard now, so a device that changes its address is reached where
    /// it is; set before the first connect. Nil reaches a device at its own address.
    public var addresses: HeardAddresses?

    // MARK: Threads
    let worker = DispatchQueue(label: "favblue-connector")
    /// Replies the controller expects promptly (parameter updates), apart from a busy worker.
    let replies = DispatchQueue(label: "favblue-connector-replies")
    /// Reads the connected link's signal once a second.
    let signal = DispatchQueue(label: "favblue-connector-signal")
    let streams = ConnectionStreams()

    // MARK: State, guarded by `lock`
    /// Wakes the worker when a connection completes or ends, or the user changes their mind.
    let lock = NSCondition()
    /// Bumped by every user request, so work for an older one stops at its next check.
    var generation = 0
    /// The connection being made, while the worker waits for LE Connection Complete.
    var attempt: Attempt?
    /// The connection, from LE Connection Complete to Disconnection Complete.
    var link: LELink?
    /// The generation of a connection made to pair, while it is being made; nil once called off.
    var connectingToPair: Int?
    /// Why the host ended, once it has.
    var hostEnded: ScanFailure?
    /// What the controller offers, once this connector set it up.
    var controller: LEController?

    /// A connection being made.
    struct Attempt {
        let device: DeviceID
        let address: DeviceID
        var complete: LEConnectionComplete?
        /// LE Create Connection Cancel was sent, so a completion with status 0x02 answers it.
        var cancelled = false
    }

    /// The characteristics a chat uses.
    struct ChatChannel {
        let service: ChatService
        let txValue: UInt16
        let rxValue: UInt16
        let writeWithResponse: Bool
    }

    /// Creates a connector on `host` and registers it as the host's client.
    /// - Parameters:
    ///   - connectTimeout: seconds to wait for the device before giving up (10).
    ///   - attTimeout: seconds to wait for each ATT response (30, the spec's transaction timeout).
    public init(host: HCIHost, connectTimeout: Double = 10, attTimeout: Double = 30,
                parameters: LEConnectionParameters = LEConnectionParameters(),
                attributes: LocalAttributes = LocalAttributes(),
                log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.host = host
        self.attributes = attributes
        self.connectTimeout = connectTimeout
        self.attTimeout = attTimeout
        self.parameters = parameters
        self.log = log
        resolvingList = HCIResolvingList(host: host, log: log)
        host.add(self)
    }

    deinit { keyring?.stopTelling(self) }

    /// A bond was made or removed: the resolving list follows, between two requests.
    private func bondsChanged() {
        worker.async { [self] in
            guard lock.withLock({ controller != nil }), let keyring else { return }
            resolvingList.sync(keyring.all, localIRK: keyring.local.irk)
        }
    }

    // MARK: DeviceConnector

    public var events: Feed<ConnectionEvent> { streams.events }

    public var state: ConnectionState { streams.state }

    public func connect(to device: DeviceID) {
        let generation = supersede()
        worker.async { [self] in runConnect(to: device, generation: generation) }
    }

    public func cancel() { disconnect() }

    public func disconnect() {
        let generation = supersede()
        worker.async { [self] in runDisconnect(generation: generation) }
    }

    public func disconnectBeforeQuitting(within timeout: TimeInterval) {
        disconnect()
        // The worker is serial: this runs once the disconnect has. A controller left with the
        // link up keeps the device from advertising to the next host.
        let told = DispatchSemaphore(value: 0)
        worker.async { told.signal() }
        _ = told.wait(timeout: .now() + timeout)
    }

    public func send(_ text: String) async throws(ChatSendError) {
        let result: Result<Void, ChatSendError> = await withCheckedContinuation { continuation in
            worker.async { [self] in continuation.resume(returning: runSend(text)) }
        }
        try result.get()
    }

    /// Starts a new user request: older work stops waiting at once.
    func supersede() -> Int {
        lock.lock()
        defer { lock.unlock() }
        generation += 1
        link?.bearer.fail(.aborted)
        lock.broadcast()
        return generation
    }

    // MARK: HCIHostClient (the read thread)

    public func host(_ host: HCIHost, didReceive event: HCIEvent) {
        let decoded: LinkEvent?
        do {
            decoded = try LinkEvent.decode(event)
        } catch {
            log("skipped a malformed connection event: \(error)")
            return
        }
        guard let decoded else { return }
        switch decoded {
        case .connectionComplete(let complete) where complete.role == 1:
            // A central connected to FavBlue's own advertisement: the peripheral role's link.
            break
        case .connectionComplete(let complete):
            lock.lock()
            // A late answer to a cancel is no answer to the attempt after it.
            if complete.status == 0x02, attempt?.cancelled == false {
                lock.unlock()
            } else if attempt != nil, attempt?.complete == nil {
                attempt?.complete = complete
                lock.broadcast()
                lock.unlock()
            } else {
                lock.unlock()
                // A connection nobody waits for (it won a race with a cancel): end it.
                if complete.status == 0 {
                    replies.async { _ = try? host.command(.disconnect(handle: complete.handle), expectStatus: true) }
                }
            }
        case .disconnectionComplete(_, let handle, let reason):
            linkEnded(handle: handle, reason: reason)
        case .remoteParameterRequest(let handle, let request):
            // The peripheral role answers for its own links.
            guard lock.withLock({ link?.handle == handle }) else { return }
            replies.async {
                _ = try? host.command(.leRemoteConnectionParameterReply(handle: handle, request))
            }
        case .completedPackets, .connectionUpdateComplete, .longTermKeyRequest, .advertisingSetTerminated:
            break
        case .encryptionChange(let status, let handle, let enabled):
            encryptionChanged(handle: handle, status: status != 0 ? status : (enabled ? 0 : 0x1F))
        }
    }

    func host(_ host: HCIHost, didReceive frame: L2CAPFrame, on link: LELink) {
        do {
            switch frame.channel {
            case L2CAPFrame.attChannel: try receiveATT(frame.payload, on: link)
            case L2CAPFrame.signallingChannel: try receiveSignalling(frame.payload, on: link)
            case L2CAPFrame.smpChannel: receiveSMP(frame.payload, on: link)
            default:
                log("ignored L2CAP channel 0x\(String(frame.channel, radix: 16))")
            }
        } catch {
            // A peer's malformed data costs that frame, never the app.
            log("skipped malformed ACL data: \(error)")
        }
    }

    public func hostDidClose(_ host: HCIHost, reason: ScanFailure) {
        lock.lock()
        hostEnded = reason
        let active = (link.map { !$0.ending } ?? false) || attempt != nil
        link?.bearer.fail(.linkEnded)
        link?.pairing?.end(.failure(.connectionLost))
        link = nil
        if active { streams.set(.failed(.adapterGone(reason.detail))) }
        lock.broadcast()
        lock.unlock()
    }

    private func receiveATT(_ payload: [UInt8], on link: LELink) throws(DecodeError) {
        guard let opcode = payload.first else { throw .truncated("ATT opcode") }
        // The device's own client asks FavBlue's server on the same bearer (Vol 3, Part F, §3.2.11).
        guard ATTPDU.serverOpcodes.contains(opcode) else { return serve(payload, on: link) }
        let pdu = try ATTPDU.decode(payload)
        if link.bearer.deliver(pdu) { return }
        switch pdu {
        case .notification(let handle, let value):
            deliver(value, handle: handle, on: link)
        case .indication(let handle, let value):
            link.send(att: ATTPDU.confirmation.bytes)
            deliver(value, handle: handle, on: link)
        case .multipleHandleValueNotification(let list):
            for entry in list { deliver(entry.value, handle: entry.handle, on: link) }
        default:
            log("ignored ATT opcode 0x\(String(pdu.opcode, radix: 16))")
        }
    }

    /// Answers the device's request from FavBlue's database.
    private func serve(_ payload: [UInt8], on link: LELink) {
        for note in link.answer(payload).notes {
            switch note {
            case .subscribed(_, let indicate): log("the device subscribed to FavBlue's \(indicate ? "indications" : "notifications")")
            case .refused(let request, let handle, let code):
                log("refused the device's request 0x\(String(request, radix: 16)) on handle \(handle): \(code.raw)")
            default: break
            }
        }
    }

    /// Delivers a chat notification in arrival order; before `connected` is reported it waits.
    /// Any other characteristic's goes to the browser, timed as it arrived.
    private func deliver(_ value: [UInt8], handle: UInt16, on link: LELink) {
        lock.lock()
        defer { lock.unlock() }
        guard let chat = link.chat, chat.txValue == handle else {
            if link.ready { streams.emit(.notified(link.device, handle: handle, value: value, at: Date())) }
            return
        }
        if link.ready {
            streams.emit(.received(ChatMessage.received(value, from: link.device)))
        } else {
            link.early.append(value)
        }
    }

    private func receiveSignalling(_ payload: [UInt8], on link: LELink) throws(DecodeError) {
        let command = try link.answerSignalling(payload)
        if case .connectionParameterUpdateRequest(_, let request) = command, request.isValid {
            // Accepting obliges the central to apply them (Vol 3, Part A, §4.20).
            replies.async { [self] in _ = try? host.command(.leConnectionUpdate(handle: link.handle, request), expectStatus: true) }
        }
    }

    /// Disconnection Complete: the link is gone; unless the user ended it, say why.
    private func linkEnded(handle: UInt16, reason: UInt8) {
        lock.lock()
        defer { lock.unlock() }
        guard let current = link, current.handle == handle else { return }
        current.pairing?.end(.failure(.connectionLost))
        current.keepClient(in: attributes)
        link = nil
        if !current.ending { streams.set(.failed(Self.failure(disconnectReason: reason))) }
        lock.broadcast()
    }

    /// Seconds an ATT transaction may take (Vol 3, Part F, §3.3.3).
    static let transactionTimeout: Double = 30

    /// The ATT_MTU FavBlue asks for: 247 fills one LE Data Length packet (251 bytes) with L2CAP.
    static let clientMTU = 247

    /// The user-facing reason for an HCI disconnection reason (Core v5.4, Vol 1, Part F, §2).
    static func failure(disconnectReason reason: UInt8) -> ConnectionFailure {
        switch reason {
        case 0x08, 0x22, 0x28: return .linkLost
        case 0x13, 0x14, 0x15: return .endedByDevice
        case 0x3E: return .notEstablished(code: reason)
        default: return .other(code: reason)
        }
    }
}

extension ScanFailure {
    /// The explanation without the leading sentence, for a connection failure's own words.
    var detail: String {
        switch self {
        case .unavailable(let d), .permissionDenied(let d), .disconnected(let d), .controller(let d), .badSource(let d),
             .serviceRefused(let d): return d
        case .adapterOff, .adapterBlocked: return message
        }
    }
}
