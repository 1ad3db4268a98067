// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation
import Localization

/// The app's one connection and every chat held over it: the owner of connection and chat
/// state, for every page.
///
/// Events from the connector arrive on the main actor. Messages of this session are kept in
/// memory per device and written to the store behind the user's back, in batches, off the
/// main thread (write-behind); a change of delivery is written too, also while the message
/// still waits in a batch. A message counts as unread while its device's chat is not read
/// (`reading`); reading it clears the count. When the connection ends, what was unread stays
/// unread under its device (`unread(of:)`) until that chat is read, and the end says so.
/// The connection bar, the detail page and the chat page are windows on it.
@MainActor
public final class ChatSessions {
    // MARK: State
    /// Where the one connection stands.
    public private(set) var state: ConnectionState = .idle
    /// The primary services of the connected device, once discovered.
    public private(set) var services: [ServiceID] = []
    /// Messages received since the chat of their device was last read.
    public private(set) var unread = 0
    /// The device whose chat is on screen, if any.
    public var reading: DeviceID? {
        didSet {
            if let reading, reading == state.device { markRead() }
            if let reading, unreadLeft.removeValue(forKey: reading) != nil { observers.notify() }
        }
    }
    /// The device of the last connection that failed or ended, and what to say about it
    /// ("Disconnected: The device ended the connection.").
    public private(set) var lastEnded: (device: DeviceID, reason: String)?
    /// A connection whose end was asked for, and until when (`expectEnd`).
    private var endExpected: (device: DeviceID, until: Date)?
    /// The device whose last attempt failed because it wants to be paired first, so its page can offer Pair.
    public private(set) var wantsPairing: DeviceID?
    /// Why messages were not sent, by message id, to show next to "Not sent".
    public private(set) var failures: [UUID: String] = [:]
    /// Said when a connection ends or fails ("The device ended the connection."), and when
    /// it ends with messages unread; `unreadFrom` is then their device, so the notice can open its chat.
    public var onEnded: ((_ text: String, _ unreadFrom: DeviceID?) -> Void)?
    /// The connected device's services changed, for the GATT browser, which discovers them again.
    public var onServicesChanged: (() -> Void)?
    /// The connected device's signal read from the link, for the live model, which owns signals.
    public var onSignal: ((_ device: DeviceID, _ rssi: Int, _ time: Date) -> Void)?
    /// Whether the connected device's signal keeps coming while connected.
    public var readsSignalWhileConnected: Bool { connector.readsSignalWhileConnected }
    /// A characteristic's notification or indication, for the GATT browser, which owns them.
    public var onNotified: ((_ handle: UInt16, _ value: [UInt8], _ time: Date) -> Void)?
    /// Characteristics whose notifications go to one reader instead of the browser (the Device
    /// Manager's SMP answers, hundreds a second in an upload): handed over as they come, off the
    /// main thread, which they would wake for nothing.
    let taps = NotificationTaps()
    /// Said when messages could not be written to the store.
    public var onStoreProblem: ((String) -> Void)?
    /// Why the attempt under way goes on elsewhere ("It changed its address; trying the new
    /// one…"), said in place of "Connecting…" until the attempt ends.
    public private(set) var connectingNote: String?
    /// The name a device goes by (nickname, else name, else address); the composition root sets it.
    public var names: @MainActor (DeviceID) -> String = { $0.address }

    /// Why this source can never connect (a replayed capture); nil when it can.
    public var unavailableReason: String? { connector.unavailableReason }
    /// Why `device` cannot be connected through this source; nil when it may.
    public func unavailableReason(for device: DeviceID) -> String? { connector.unavailableReason(for: device) }
    /// Whether the chat with the connected device can send now.
    public var canSend: Bool { state.canChat }

    // MARK: Borrowed
    private(set) var connector: DeviceConnector
    private(set) var chats: ChatRepository?
    let clock: any Clock<Duration>
    private let now: () -> Date

    // MARK: Owned
    private let observers = ChangeObservers()
    private var events: Feed<ConnectionEvent>?
    private var listener: Task<Void, Never>?
    /// This session's messages, per device, oldest first.
    var session: [DeviceID: [ChatMessage]] = [:]
    var pendingWrites: [ChatMessage] = []
    /// Set while the store refuses writes (a full disk): said once, retried until it takes them.
    var storeFailing = false
    var flushTask: Task<Void, Never>?
    var writes: Task<Void, Never>?
    private var deliveries: [UUID: Task<Void, Never>] = [:]
    private var rememberedNames: [DeviceID: String] = [:]
    /// Unread messages of chats whose connection ended, by device.
    private var unreadLeft: [DeviceID: Int] = [:]
    /// The device last asked for, so a failure can be told on its page.
    private var attempted: DeviceID?

    /// How long messages wait to be written together: a burst of notifications is one transaction.
    public static let batchDelay: Duration = .milliseconds(200)
    /// How long a batch the store refused waits before it is tried again.
    public static let retryDelay: Duration = .seconds(10)
    /// How many of a device's newest messages stay in memory once written (with a store); older
    /// ones are read from the store, so an hour of chat does not grow the process.
    public static let sessionTail = 500

    /// Owns the connection through `connector`; `chats` keeps the history (nil: this session only);
    /// `clock` times the write-behind batches.
    public init(connector: DeviceConnector, chats: ChatRepository?, clock: any Clock<Duration> = ContinuousClock(),
                now: @escaping () -> Date = { Date() }) {
        self.connector = connector
        self.chats = chats
        self.clock = clock
        self.now = now
        listen()
    }

    isolated deinit { listener?.cancel() }

    /// Calls `handler` after every change.
    public func observe(_ handler: @escaping @MainActor () -> Void) -> ObservationToken { observers.observe(handler) }

    /// Keeps the chats' history in `repository` from now on: the demo's stays out of the user's store.
    public func keepChats(in repository: ChatRepository?) { chats = repository }

    /// Uses `connector` from now on (the source changed); the current connection ends first.
    public func replace(connector new: DeviceConnector) {
        guard new !== connector else { return }
        connector.disconnect()
        listener?.cancel()
        connector = new
        listen()
        observers.notify()
    }

    private func listen() {
        let events = connector.events
        self.events = events
        let taps = self.taps
        listener = Task.detached { [weak self] in
            for await event in events {
                if case .notified(let device, let handle, let value, _) = event, let tap = taps.reader(of: handle, from: device) {
                    tap(value)
                    continue
                }
                guard let self, !Task.isCancelled else { return }
                await self.take(event, from: events)
            }
        }
    }

    /// An event of the connector listened to now; one of a connector replaced on its way here is dropped.
    private func take(_ event: ConnectionEvent, from feed: Feed<ConnectionEvent>) {
        guard feed === events else { return }
        handle(event)
    }

    /// Keeps `old`'s chat of this session under `identity`, which pairing showed it to be. The
    /// stored history moves with the other records (`RecordsMover`); write what waits first.
    public func move(_ old: DeviceID, to identity: DeviceID) {
        guard old != identity else { return }
        if let moving = session.removeValue(forKey: old) {
            session[identity] = ((session[identity] ?? []) + moving.map { $0.moved(to: identity) }).sorted { $0.time < $1.time }
        }
        if let count = unreadLeft.removeValue(forKey: old) { unreadLeft[identity, default: 0] += count }
        if let name = rememberedNames.removeValue(forKey: old), rememberedNames[identity] == nil { rememberedNames[identity] = name }
        observers.notify()
    }

    // MARK: Reading

    /// The name `device` goes by. A connected device stops advertising and may leave the
    /// Scanner's list, so the last name it was known by is kept for as long as the app runs.
    public func name(of device: DeviceID) -> String {
        let current = names(device)
        if current != device.address {
            rememberedNames[device] = current
            return current
        }
        return rememberedNames[device] ?? current
    }

    /// Messages of `device` received while its chat was not read: those of the connection, or
    /// those left when it ended.
    public func unread(of device: DeviceID) -> Int {
        device == state.device ? unread : unreadLeft[device] ?? 0
    }

    /// This session's newest messages with `device`, oldest first: at most about `sessionTail` once
    /// written (the store has the rest, and the stored history comes before them).
    public func messages(of device: DeviceID) -> [ChatMessage] { session[device] ?? [] }

    /// Up to `limit` stored messages of `device` from position `offset` (0 = oldest), oldest first.
    /// A message stored as still sending was cut off by a quit: it reads as not sent, so it can be retried.
    public func stored(of device: DeviceID, offset: Int, limit: Int) async throws -> [ChatMessage] {
        guard let chats else { return [] }
        let live = Set((session[device] ?? []).map(\.id))
        return try await chats.page(for: device, offset: offset, limit: limit).map { message in
            guard message.delivery == .sending, !live.contains(message.id) else { return message }
            var cut = message
            cut.delivery = .notSent
            failures[message.id] = failures[message.id] ?? L10n.tr("FavBlue quit before the message was sent.")
            return cut
        }
    }

    // MARK: Intents

    /// Connects to `device`, ending any other connection first.
    public func connect(to device: DeviceID) {
        attempted = device
        _ = name(of: device)
        connector.connect(to: device)
    }

    /// Gives up a connection attempt under way.
    public func cancel() { connector.cancel() }

    /// Ends the connection.
    public func disconnect() { connector.disconnect() }

    /// The connection to `device` is about to end on purpose (FavBlue told the device to
    /// restart): if it ends within `within` seconds, it is not told as a failure, and the
    /// page's note stays with whoever asked for it (the Device Manager's "Waiting…").
    public func expectEnd(of device: DeviceID, within: TimeInterval = 30) {
        endExpected = (device, now().addingTimeInterval(within))
    }

    /// Ends the connection as the app quits; `told` runs off the main thread once the device
    /// was told (at most `timeout` seconds later), after which the transport may close.
    public func disconnectBeforeQuitting(within timeout: TimeInterval, told: @escaping @Sendable () -> Void) {
        let connector = connector
        DispatchQueue.global().async {
            connector.disconnectBeforeQuitting(within: timeout)
            told()
        }
    }

    /// Sends `text` to the connected device; it is listed at once as sending, then sent or not sent.
    public func send(_ text: String) {
        guard let device = state.device, !text.isEmpty else { return }
        let message = ChatMessage(device: device, direction: .outgoing, body: .text(text), time: now(), delivery: .sending)
        session[device, default: []].append(message)
        store([message])
        trim(device)
        observers.notify()
        deliver(message)
    }

    /// Tries a message that was not sent once more (also one cut off by an earlier quit).
    public func retry(_ message: ChatMessage) {
        guard state.device == message.device, message.delivery == .notSent else { return }
        if session[message.device]?.contains(where: { $0.id == message.id }) != true {
            session[message.device, default: []].append(message)
        }
        update(message.id, of: message.device, to: .sending)
        deliver(message)
    }

    /// Waits until every event the connector sent so far is handled.
    public func eventsHandled() async {
        await events?.applied()
    }

    /// Waits until every event the connector sent so far is handled and every send has its
    /// answer: what tests await instead of sleeping. Writing is left to its batch (`flush`).
    public func drain() async {
        await events?.applied()
        while let pending = deliveries.values.first {
            await pending.value
        }
    }

    // MARK: Events

    private func handle(_ event: ConnectionEvent) {
        switch event {
        case .state(let new):
            let previous = state.device ?? attempted
            var wasConnected = false
            switch state {
            case .connected, .disconnecting: wasConnected = true
            default: break
            }
            state = new
            if case .connecting = new {} else { connectingNote = nil }
            if let device = new.device {
                attempted = device
                lastEnded = nil
                wantsPairing = nil
                unreadLeft[device] = nil
            }
            if new.device == nil {
                // The history stays, and so does what is unread: under its device, for its chat.
                let left = unread
                services = []
                unread = 0
                var said: String?
                let expected = endExpected.map { $0.device == previous && now() <= $0.until } ?? false
                endExpected = nil
                if expected {
                    // Nothing failed: the device restarts as it was told to.
                } else if case .failed(let failure) = new {
                    said = failure.message
                    if failure == .needsPairing { wantsPairing = previous }
                    if let previous {
                        lastEnded = (previous, wasConnected ? L10n.format("Disconnected: {}", failure.message) : failure.message)
                    }
                } else if wasConnected, let previous {
                    lastEnded = (previous, L10n.tr("Disconnected"))
                    if left > 0 { said = L10n.format("Disconnected from {}.", DeviceText.isolated(name(of: previous))) }
                }
                if left > 0, let previous {
                    unreadLeft[previous] = left
                    let count = L10n.plural("{} message is unread.", "{} messages are unread.", left)
                    onEnded?([said, count].compactMap { $0 }.joined(separator: " "), previous)
                } else if let said {
                    onEnded?(said, nil)
                }
            }
            if reading != nil, reading == new.device { markRead() }
        case .services(let device, let found):
            if device == state.device { services = found }
        case .notified(let device, let handle, let value, let time):
            // The browser owns these (a tapped characteristic's went to its reader); nothing here changes.
            guard device == state.device else { return }
            onNotified?(handle, value, time)
            return
        case .servicesChanged(let device):
            if device == state.device { onServicesChanged?() }
            return
        case .retrying(let device, _):
            guard state == .connecting(device) else { return }
            connectingNote = L10n.tr("It changed its address; trying the new one…")
        case .unanswered(let device):
            guard state == .connecting(device) else { return }
            connectingNote = L10n.tr("No answer; trying again…")
        case .signal(let device, let rssi, let time):
            // The live model owns the signal; nothing here changes.
            if device == state.device { onSignal?(device, rssi, time) }
            return
        case .received(let message):
            session[message.device, default: []].append(message)
            store([message])
            trim(message.device)
            if reading != message.device { unread += 1 }
        }
        observers.notify()
    }

    private func markRead() {
        guard unread != 0 else { return }
        unread = 0
        observers.notify()
    }

    private func deliver(_ message: ChatMessage) {
        guard case .text(let text) = message.body else { return }
        let connector = connector
        deliveries[message.id] = Task { @MainActor [weak self] in
            do throws(ChatSendError) {
                try await connector.send(text)
                self?.update(message.id, of: message.device, to: .sent)
            } catch {
                self?.failures[message.id] = error.message
                self?.update(message.id, of: message.device, to: .notSent)
            }
            self?.deliveries[message.id] = nil
        }
    }

    private func update(_ id: UUID, of device: DeviceID, to delivery: ChatDelivery) {
        guard let index = session[device]?.firstIndex(where: { $0.id == id }) else { return }
        session[device]?[index].delivery = delivery
        if delivery != .notSent { failures[id] = nil }
        if let queued = pendingWrites.firstIndex(where: { $0.id == id }) {
            // Still waiting in a batch: the batch carries the new delivery.
            pendingWrites[queued].delivery = delivery
        } else if let message = session[device]?[index] {
            // Refused (a full disk), the message goes back in the queue, delivery and all.
            persist(batch: [message]) { try await $0.setDelivery(delivery, of: id) }
        }
        observers.notify()
    }
}
