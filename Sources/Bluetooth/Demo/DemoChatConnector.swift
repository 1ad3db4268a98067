// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import Localization

/// The `demo` source's connector: connects to `DemoChatDevice`, which answers every line sent
/// with a reply of its own, and to `DemoBoard`, whose MCUmgr answers the Device Manager, so
/// connecting, chatting and updating firmware can be tried without hardware. Any other device
/// is refused at once, in plain words.
///
/// It keeps the pace of a small real device (connecting takes a moment, replies come a little
/// later) so the screens show every state. Calls return at once; the timed steps run on a
/// serial queue, never the main thread, and report through `events` (see `DeviceConnector`).
public final class DemoChatConnector: DeviceConnector, @unchecked Sendable {
    // MARK: Configuration
    /// Seconds from `connecting` to `connected`.
    private let connectDelay: Double
    /// Seconds from a message to the device's reply.
    private let replyDelay: Double
    /// Seconds from `disconnecting` to `idle`.
    private let disconnectDelay: Double

    // MARK: Owned
    private let queue = DispatchQueue(label: "favblue-demo-connector")
    private let streams = ConnectionStreams()

    // MARK: State, guarded by `lock`
    private let lock = NSLock()
    /// Bumped by every connect and disconnect, so a step scheduled for an older request is dropped.
    private var generation = 0
    /// The demo board's firmware, and the part of a request its writes have brought so far.
    private let board = DemoBoardFirmware()
    private var inbox: [UInt8] = []
    /// While the board restarts it does not advertise: a connection waits until then.
    private var boardBack = Date.distantPast

    /// ATT_MTU − 3 of the demo's link: what one write or notification carries.
    static let payload = 244

    /// Creates the connector; the delays are in seconds.
    public init(connectDelay: Double = 0.6, replyDelay: Double = 0.4, disconnectDelay: Double = 0.2) {
        self.connectDelay = connectDelay
        self.replyDelay = replyDelay
        self.disconnectDelay = disconnectDelay
    }

    // MARK: DeviceConnector

    public var events: Feed<ConnectionEvent> { streams.events }

    public var state: ConnectionState { streams.state }

    public func unavailableReason(for device: DeviceID) -> String? {
        guard device != DemoChatDevice.id, device != DemoBoard.id else { return nil }
        // Translators: {} are the demo devices' names, "FavBlue Demo Chat" and "FavBlue Demo Board".
        return L10n.format("In the demo, only “{}” and “{}” can be connected.", DemoChatDevice.name, DemoBoard.name)
    }

    public func connect(to device: DeviceID) {
        lock.withLock {
            let generation = supersede()
            // One connection at a time: the current one ends first, as on a real adapter.
            switch streams.state {
            case .connected(let current, _), .disconnecting(let current):
                streams.set(.disconnecting(current))
                streams.set(.idle)
            case .idle, .connecting, .failed:
                break
            }
            if let why = unavailableReason(for: device) {
                streams.set(.failed(.notSupported(why)))
                return
            }
            streams.set(.connecting(device))
            inbox = []
            let board = device == DemoBoard.id
            let wait = board ? max(connectDelay, boardBack.timeIntervalSinceNow + connectDelay) : connectDelay
            later(wait, generation) { streams in
                streams.set(.connected(device, service: board ? nil : .chat))
                streams.emit(.services(device, board ? DemoBoard.services : DemoChatDevice.services))
            }
        }
    }

    public func cancel() { disconnect() }

    public func disconnect() {
        lock.withLock {
            let generation = supersede()
            switch streams.state {
            case .connected(let device, _), .disconnecting(let device):
                streams.set(.disconnecting(device))
                later(disconnectDelay, generation) { $0.set(.idle) }
            case .connecting, .failed:
                streams.set(.idle)
            case .idle:
                break
            }
        }
    }

    /// The demo device goes on advertising while connected.
    public var readsSignalWhileConnected: Bool { true }

    // MARK: GATTAccess: the demo device's small tree, so the browser can be tried too

    public func discoverServices() async throws(GATTError) -> [GATTService] {
        guard case .connected(let device, _) = streams.state else { throw .notConnected }
        return device == DemoBoard.id ? DemoBoard.tree : DemoChatDevice.tree
    }

    public func readValue(at handle: UInt16) async throws(GATTError) -> [UInt8] {
        guard case .connected(let device, _) = streams.state else { throw .notConnected }
        guard let value = device == DemoBoard.id ? DemoBoard.value(at: handle) : DemoChatDevice.value(at: handle) else { throw .device(message: ATTErrorCode.readNotPermitted.message, wantsPairing: false) }
        return value
    }

    /// The chat's RX takes writes (its messages are sent with Open Chat); nothing else does.
    public func writeValue(_ value: [UInt8], at handle: UInt16, withResponse: Bool) async throws(GATTError) {
        guard case .connected(let device, _) = streams.state else { throw .notConnected }
        if device == DemoBoard.id {
            guard handle == DemoBoard.smpHandle, !withResponse else {
                throw .device(message: ATTErrorCode.writeNotPermitted.message, wantsPairing: false)
            }
            return lock.withLock { take(value) }
        }
        guard handle == DemoChatDevice.rxHandle else { throw .device(message: ATTErrorCode.writeNotPermitted.message, wantsPairing: false) }
    }

    public func subscribe(to handle: UInt16, cccd: UInt16, indicate: Bool, on: Bool) async throws(GATTError) {
        guard case .connected = streams.state else { throw .notConnected }
    }

    public func writeCommandLimit() async -> Int { Self.payload }

    /// A write to the board's SMP characteristic: whole requests are answered in notifications,
    /// a little later, as a board's link would; call with `lock` held.
    private func take(_ value: [UInt8]) {
        inbox += value
        while let length = SMPMessage.announcedLength(inbox[...]), inbox.count >= length {
            let request = Array(inbox.prefix(length))
            inbox.removeFirst(length)
            let (answer, restarts) = board.answer(request)
            // The first part of an upload waits while the board erases its spare slot.
            let erasing = request.count > 8 && request[4...5] == [0, 1] && request[7] == 1 && answer.count > 8
                && (try? SMPMessage.decode(request))?.body["off"]?.int == 0
            let generation = self.generation
            later(erasing ? 1.0 : 0.004, generation) { streams in
                for at in stride(from: 0, to: answer.count, by: Self.payload) {
                    streams.emit(.notified(DemoBoard.id, handle: DemoBoard.smpHandle,
                                           value: Array(answer[at..<min(at + Self.payload, answer.count)]), at: Date()))
                }
            }
            if restarts { restartBoard(generation) }
        }
    }

    /// The board resets: the link drops, MCUboot runs, and it advertises again a moment later.
    private func restartBoard(_ generation: Int) {
        boardBack = Date().addingTimeInterval(1.5)
        later(0.3, generation) { [board] streams in
            streams.set(.failed(.endedByDevice))
            board.restart()
        }
    }

    public func send(_ text: String) async throws(ChatSendError) {
        let written = lock.withLock {
            guard case .connected(let device, service: .some) = streams.state else { return false }
            let replies = DemoChatDevice.replies(to: text)
            later(replyDelay, generation) { streams in
                for reply in replies {
                    streams.emit(.received(ChatMessage(device: device, direction: .incoming, body: .text(reply),
                                                       time: Date(), delivery: .sent)))
                }
            }
            return true
        }
        guard written else { throw .notConnected }
    }

    // MARK: Steps

    /// Starts a new request; call with `lock` held.
    private func supersede() -> Int {
        generation += 1
        return generation
    }

    /// Runs `step` after `seconds` on the queue, unless a newer request came meanwhile;
    /// call with `lock` held. The check and the step share the lock, so a disconnect cannot
    /// slip between them.
    private func later(_ seconds: Double, _ generation: Int, _ step: @escaping @Sendable (ConnectionStreams) -> Void) {
        queue.asyncAfter(deadline: .now() + seconds) { [weak self] in
            guard let self else { return }
            lock.withLock {
                guard self.generation == generation else { return }
                step(self.streams)
            }
        }
    }
}
