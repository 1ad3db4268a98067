// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import Localization

/// The one connection of the app, its chat and its unread count, for every page.
///
/// Events from the connector arrive on the main actor; incoming and outgoing messages are
/// kept in memory for the open chat and written to the store in batches off the main
/// thread. A message is counted unread while its device's chat page is not shown;
/// opening that chat, or the connection ending, resets the count (the history stays).
@MainActor
public final class ConnectionViewModel {
    // MARK: State
    public private(set) var state: ConnectionState = .idle
    /// The primary services of the connected device, once discovered.
    public private(set) var services: [ServiceID] = []
    /// Messages received since the chat of their device was last shown.
    public private(set) var unread = 0
    /// The device whose chat page is on screen, if any (set by the chat page).
    public var chatShown: DeviceID? {
        didSet { if chatShown != nil, chatShown == state.device { markRead() } }
    }
    /// This session's messages, per device, oldest first (the chat page adds stored history before them).
    public private(set) var session: [DeviceID: [ChatMessage]] = [:]
    /// The device of the last connection that failed or ended on its own, and why.
    public private(set) var lastEnded: (device: DeviceID, reason: String)?
    /// Said when a connection ends or fails ("The device ended the connection.").
    public var onEnded: ((String) -> Void)?
    /// Said when messages could not be written to the store.
    public var onStoreProblem: ((String) -> Void)?

    /// The badge on Open Chat: nil, "1"–"99" or "...".
    public var badge: String? { UnreadBadge.text(for: unread) }

    /// "N unread messages", for the badge's accessible description.
    public var unreadDescription: String { L10n.plural("{} unread message", "{} unread messages", unread) }

    /// The name a device goes by (nickname, else name, else address); the composition root sets it.
    public var names: @MainActor (DeviceID) -> String = { $0.address }

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

    /// Why this source can never connect (a replayed capture); nil when it can.
    public var unavailableReason: String? { connector.unavailableReason }

    // MARK: Borrowed
    private var connector: DeviceConnector
    /// Where the history is kept; nil keeps this session's messages only.
    public let chats: ChatRepository?
    private let now: () -> Date

    // MARK: Owned
    private let observers = ChangeObservers()
    private var listener: Task<Void, Never>?
    private var pendingWrites: [ChatMessage] = []
    private var flushTask: Task<Void, Never>?
    private var writes: Task<Void, Never>?
    private var rememberedNames: [DeviceID: String] = [:]
    /// The device last asked for, so a failure can be told on its page.
    private var attempted: DeviceID?

    public init(connector: DeviceConnector, chats: ChatRepository?, now: @escaping () -> Date = { Date() }) {
        self.connector = connector
        self.chats = chats
        self.now = now
        listen()
    }

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
        listener = Task { @MainActor [weak self] in
            for await event in events {
                guard let self, !Task.isCancelled else { return }
                self.handle(event)
            }
        }
    }

    isolated deinit { listener?.cancel() }

    /// Calls `handler` after every change.
    public func observe(_ handler: @escaping @MainActor () -> Void) -> ObservationToken { observers.observe(handler) }

    // MARK: Intents

    public func connect(to device: DeviceID) {
        attempted = device
        _ = name(of: device)
        connector.connect(to: device)
    }
    public func cancel() { connector.cancel() }
    public func disconnect() { connector.disconnect() }

    /// Whether the chat with the connected device can send now.
    public var canSend: Bool { state.canChat }

    /// Sends `text` to the connected device; it is listed at once as sending, then sent or not sent.
    public func send(_ text: String) {
        guard let device = state.device, !text.isEmpty else { return }
        let message = ChatMessage(device: device, direction: .outgoing, body: .text(text), time: now(), delivery: .sending)
        session[device, default: []].append(message)
        store([message])
        observers.notify()
        deliver(message)
    }

    /// Tries a message that was not sent once more.
    public func retry(_ id: UUID) {
        guard let device = state.device, let index = session[device]?.firstIndex(where: { $0.id == id }),
              let message = session[device]?[index], message.delivery == .notSent else { return }
        update(id, of: device, to: .sending)
        deliver(message)
    }

    /// The reasons messages were not sent, by message id, to show next to "Not sent".
    public private(set) var failures: [UUID: String] = [:]

    /// Waits until every message so far is written (tests, quitting).
    public func flush() async {
        flushTask?.cancel()
        flushTask = nil
        writeNow()
        await writes?.value
    }

    /// Starts writing what is queued at once and returns the write chain, for a caller that
    /// must wait without the main actor (quitting).
    public func finishWriting() -> Task<Void, Never>? {
        flushTask?.cancel()
        flushTask = nil
        writeNow()
        return writes
    }

    // MARK: Events

    private func handle(_ event: ConnectionEvent) {
        switch event {
        case .state(let new):
            let previous = state.device ?? attempted
            state = new
            if let device = new.device {
                attempted = device
                lastEnded = nil
            }
            if new.device == nil {
                // The history stays; the count goes with the connection.
                services = []
                unread = 0
                if case .failed(let failure) = new {
                    if let previous { lastEnded = (previous, failure.message) }
                    onEnded?(failure.message)
                }
            }
            if chatShown != nil, chatShown == new.device { markRead() }
        case .services(let device, let found):
            if device == state.device { services = found }
        case .received(let message):
            session[message.device, default: []].append(message)
            store([message])
            if chatShown != message.device { unread += 1 }
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
        Task { @MainActor [weak self] in
            do throws(ChatSendError) {
                try await connector.send(text)
                self?.update(message.id, of: message.device, to: .sent)
            } catch {
                self?.failures[message.id] = error.message
                self?.update(message.id, of: message.device, to: .notSent)
            }
        }
    }

    private func update(_ id: UUID, of device: DeviceID, to delivery: ChatDelivery) {
        guard let index = session[device]?.firstIndex(where: { $0.id == id }) else { return }
        session[device]?[index].delivery = delivery
        if delivery != .notSent { failures[id] = nil }
        persist { try await $0.setDelivery(delivery, of: id) }
        observers.notify()
    }

    /// Queues messages for the store; a burst of notifications becomes one transaction.
    private func store(_ messages: [ChatMessage]) {
        guard chats != nil else { return }
        pendingWrites += messages
        guard flushTask == nil else { return }
        flushTask = Task { @MainActor [weak self] in
            try? await Task.sleep(nanoseconds: 200_000_000)
            guard !Task.isCancelled else { return }
            self?.flushTask = nil
            self?.writeNow()
        }
    }

    private func writeNow() {
        guard !pendingWrites.isEmpty else { return }
        let batch = pendingWrites
        pendingWrites = []
        persist { try await $0.append(batch) }
    }

    /// Runs `write` after the writes before it, off the main thread; a failure is said, not dropped.
    private func persist(_ write: @escaping @Sendable (ChatRepository) async throws -> Void) {
        guard let chats else { return }
        let previous = writes
        writes = Task.detached(priority: .utility) { [weak self] in
            await previous?.value
            do {
                try await write(chats)
            } catch {
                let reason = "\(error)"
                await MainActor.run {
                    self?.onStoreProblem?(L10n.format("Chat messages could not be saved: {}. They stay listed until FavBlue quits.", reason))
                }
            }
        }
    }
}
