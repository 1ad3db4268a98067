// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import Localization

/// What a client of an `HCIHost` hears. Callbacks run on the host's read thread, one at a
/// time and in the order the controller sent the packets. A client must return quickly and
/// must not send a command from a callback: its answer could only arrive on this same thread.
public protocol HCIHostClient: AnyObject, Sendable {
    /// An event that no command was waiting for: reports, Inquiry Complete, Remote Name Request
    /// Complete, Disconnection Complete, Number of Completed Packets, and so on.
    func host(_ host: HCIHost, didReceive event: HCIEvent)
    /// The link ended (EOF, a transport error, or `close()`); no callback follows.
    func hostDidClose(_ host: HCIHost, reason: ScanFailure)
}

/// The host side of one HCI link: it owns the transport and reads it on a thread of its own,
/// sends commands and matches their answers, records every packet, and hands everything else
/// to its clients (the scanner and the LE connector). Data goes by handle to the client that
/// made the link (`links`), reassembled once.
///
/// Threading: the read loop runs on the host's thread and delivers to clients there.
/// `command` blocks its caller on a condition until the read loop hands over the matching
/// Command Complete or Command Status, the timeout passes, or the link ends.
public final class HCIHost: @unchecked Sendable {
    private let transport: HCITransport
    private let recorder: PacketRecorder?
    /// Turns the scanner's LE scanning off for a moment, for a client that must change what
    /// the controller may not change while it scans.
    public let scanPause = ScanPause()
    /// The LE links on this controller, in either role.
    let links = LinkTable()
    private let log: @Sendable (String) -> Void

    /// Guards everything below it and wakes whoever waits for an answer or for the end.
    private let state = NSCondition()
    private var clients: [WeakClient] = []
    private var awaited: AwaitedAnswer?
    private var closeReason: ScanFailure?
    /// Set with the snapshot of clients told of the end; later clients are told by `add`.
    private var closeAnnounced = false
    private var started = false
    private var stopRequested = false
    private var running = false
    private var readThread: Thread?

    /// One command in flight at a time: controllers commonly grant a single command credit
    /// (Num_HCI_Command_Packets, Core v5.4, Vol 4, Part E, §4.4), and one outstanding opcode
    /// keeps the matching of answers unambiguous.
    private let commandGate = NSLock()
    /// One packet at a time on the stream. The final close does not take it: a transport closes
    /// safely under a send, which then fails, so a controller that stopped reading cannot hold it.
    private let sendLock = NSLock()
    private var transportClosed = false

    /// Takes ownership of `transport`; `record` receives every packet sent and received.
    public init(transport: HCITransport, record: PacketRecorder? = nil, log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.transport = transport
        self.recorder = record
        self.log = log
    }

    deinit { closeTransport() }

    // MARK: Clients

    /// Registers `client` (held weakly). A client added after the link ended hears why at once.
    public func add(_ client: HCIHostClient) {
        state.lock()
        clients.removeAll { $0.client == nil || $0.client === client }
        clients.append(WeakClient(client: client))
        let reason = closeAnnounced ? closeReason : nil
        state.unlock()
        if let reason { client.hostDidClose(self, reason: reason) }
    }

    /// Unregisters `client`; it hears nothing more.
    public func remove(_ client: HCIHostClient) {
        state.lock()
        clients.removeAll { $0.client == nil || $0.client === client }
        state.unlock()
    }

    // MARK: Lifecycle

    /// Starts the read loop. Register clients first, so they miss no event.
    public func start() {
        state.lock()
        defer { state.unlock() }
        guard !started, !closeAnnounced else { return }
        started = true
        running = true
        let thread = Thread.named("favblue-hcihost") { [self] in
            readLoop()
        }
        readThread = thread
        thread.start()
    }

    /// Why the link ended, or nil while it is up.
    public var endReason: ScanFailure? {
        state.lock()
        defer { state.unlock() }
        return closeReason
    }

    /// Ends the link: the read loop is woken and stops, clients hear `hostDidClose`,
    /// and the transport is closed. Returns once that is done, unless called from a client
    /// callback (the read thread cannot wait for itself).
    public func close() {
        state.lock()
        stopRequested = true
        guard started else {
            state.unlock()
            finish(.disconnected(L10n.tr("no link")))
            return
        }
        if Thread.current !== readThread {
            transport.wake()
            while running { state.wait() }
        }
        state.unlock()
    }

    // MARK: Sending

    /// Sends `command` and waits up to `timeout` seconds for its Command Complete, whose return
    /// parameters it returns (Core v5.4, Vol 4, Part E, §7.7.14), or, with `expectStatus`, for
    /// its Command Status (§7.7.15). A non-zero status, no answer, or the end of the link throws;
    /// with `rawStatus`, a non-zero status is returned (first byte) for the caller to read.
    /// Never call it from a client callback.
    public func command(_ command: HCICommand, expectStatus: Bool = false, rawStatus: Bool = false,
                        timeout: Double = 2) throws(ScanFailure) -> [UInt8] {
        precondition(Thread.current !== readThread, "HCIHost.command called from a client callback")
        commandGate.lock()
        defer { commandGate.unlock() }
        // Registered before sending, so an answer that beats us back is not lost.
        state.lock()
        if let reason = closeReason { state.unlock(); throw reason }
        awaited = AwaitedAnswer(opcode: command.opcode, name: command.name, expectStatus: expectStatus, rawStatus: rawStatus)
        state.unlock()
        do {
            try send(.command, command.packet)
        } catch {
            state.lock()
            awaited = nil
            state.unlock()
            throw error
        }
        let deadline = Date().addingTimeInterval(timeout)
        state.lock()
        defer {
            awaited = nil
            state.unlock()
        }
        while true {
            if let result = awaited?.result { return try result.get() }
            if let reason = closeReason { throw reason }
            if !state.wait(until: deadline) {
                if let result = awaited?.result { return try result.get() }
                throw .controller(L10n.format("{} got no answer", command.name))
            }
        }
    }

    /// Sends one ACL data packet (handle and flags, length, data), recorded like commands.
    public func sendACL(_ packet: [UInt8]) throws(ScanFailure) {
        try send(.acl, packet)
    }

    private func send(_ type: H4PacketType, _ bytes: [UInt8]) throws(ScanFailure) {
        sendLock.lock()
        defer { sendLock.unlock() }
        guard !transportClosed else { throw .disconnected(L10n.tr("no link")) }
        try transport.send(type, bytes)
        recorder?.write(type: type, bytes: bytes, received: false, at: Date())
    }

    private func closeTransport() {
        transport.close()
        sendLock.withLock { transportClosed = true }
    }

    // MARK: Reading

    private func readLoop() {
        var reason = ScanFailure.disconnected(L10n.tr("no link"))
        while !shouldStop {
            do {
                guard let (type, bytes) = try transport.receive(timeout: 0.2) else { continue }
                recorder?.write(type: type, bytes: bytes, received: true, at: Date())
                dispatch(type, bytes)
            } catch {
                reason = error
                break
            }
        }
        finish(reason)
    }

    private var shouldStop: Bool {
        state.lock()
        defer { state.unlock() }
        return stopRequested
    }

    /// Answers go to the waiting command; everything else to the clients.
    private func dispatch(_ type: H4PacketType, _ bytes: [UInt8]) {
        switch type {
        case .event:
            let event: HCIEvent
            do {
                event = try HCIEvent.decode(bytes[...])
            } catch {
                log("skipped a malformed event: \(error)")
                return
            }
            if answer(event) { return }
            let linkEvent = Self.linkBookkeeping(event)
            if case .completedPackets(let list)? = linkEvent { links.completed(list) }
            for client in currentClients() { client.host(self, didReceive: event) }
            // After the clients, so the link's maker still finds it as it hears of the end.
            if case .disconnectionComplete(_, let handle, _)? = linkEvent { links.ended(handle) }
        case .acl:
            do {
                guard let (link, owner, frame) = try links.receive(bytes) else { return }
                owner.host(self, didReceive: frame, on: link)
            } catch {
                // A peer's malformed data costs that frame, never the app.
                log("skipped malformed ACL data: \(error)")
            }
        case .command, .sco, .iso:
            break
        }
    }

    /// Disconnection Complete and Number of Completed Packets, which the link table keeps up with.
    private static func linkBookkeeping(_ event: HCIEvent) -> LinkEvent? {
        guard case .other(let code, _) = event, code == 0x05 || code == 0x13 else { return nil }
        return try? LinkEvent.decode(event)
    }

    /// Hands `event` to the waiting command when it answers it, and says whether it did.
    private func answer(_ event: HCIEvent) -> Bool {
        state.lock()
        defer { state.unlock() }
        guard let waiting = awaited, waiting.result == nil else { return false }
        switch event {
        case .commandComplete(let opcode, let parameters) where opcode == waiting.opcode:
            // Every command this host sends returns its status first (§7.7.14).
            if let status = parameters.first, status != 0, !waiting.rawStatus {
                awaited?.result = .failure(waiting.failure(status))
            } else {
                awaited?.result = .success(parameters)
            }
        case .commandStatus(let status, let opcode) where opcode == waiting.opcode:
            if status != 0, !waiting.rawStatus {
                awaited?.result = .failure(waiting.failure(status))
            } else if waiting.expectStatus || status != 0 {
                awaited?.result = .success([status])
            } else {
                // Pending: the Command Complete is still to come.
                return true
            }
        default:
            return false
        }
        state.broadcast()
        return true
    }

    private func currentClients() -> [HCIHostClient] {
        state.lock()
        defer { state.unlock() }
        return clients.compactMap(\.client)
    }

    /// Ends the host: waiting commands fail, clients hear why, the transport closes, and
    /// `close()` callers are released, in that order.
    private func finish(_ reason: ScanFailure) {
        state.lock()
        let first = !closeAnnounced
        closeReason = closeReason ?? reason
        closeAnnounced = true
        let told = closeReason!
        let listeners = first ? clients.compactMap(\.client) : []
        state.broadcast()
        state.unlock()
        for client in listeners { client.hostDidClose(self, reason: told) }
        links.endAll()
        closeTransport()
        state.lock()
        running = false
        state.broadcast()
        state.unlock()
    }
}

/// A client reference that does not keep the client alive.
private struct WeakClient {
    weak var client: HCIHostClient?
}

/// The command waiting for its answer.
private struct AwaitedAnswer {
    let opcode: UInt16
    let name: String
    let expectStatus: Bool
    /// Hand a non-zero status back instead of failing.
    let rawStatus: Bool
    var result: Result<[UInt8], ScanFailure>?

    func failure(_ status: UInt8) -> ScanFailure {
        .controller(L10n.format("{} failed with status 0x{}", name, String(status, radix: 16)))
    }
}
