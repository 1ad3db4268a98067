// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import Localization

/// One device's chat: its whole stored history and this session's messages, with a day
/// separator before each new day, and what can be sent right now.
///
/// Rows are addressed by key (a message's id, or "day-" and the date) so a virtualized list
/// binds only the rows it shows. New messages are appended without rebuilding the rest.
@MainActor
public final class ChatViewModel {
    /// One row of the chat.
    public enum Item: Equatable {
        /// The start of a day: "Today", "Yesterday" or the date.
        case day(Date)
        case message(ChatMessage)
    }

    // MARK: State
    public let device: DeviceID
    /// True until the stored history has loaded.
    public private(set) var isLoading = true
    /// Why the stored history could not be read, if it could not.
    public private(set) var loadProblem: String?
    /// Row keys, oldest first.
    public private(set) var keys: [String] = []
    /// How many messages are listed.
    public private(set) var messageCount = 0
    /// The last line the user sent (Up recalls it).
    public private(set) var lastSent: String?

    // MARK: Borrowed
    private let connection: ConnectionViewModel
    private let calendar: Calendar
    private var token: ObservationToken?

    // MARK: Owned
    private var items: [String: Item] = [:]
    private var lastDay: Date?
    private let observers = ChangeObservers()
    /// Keys whose row changed since the last notification (delivery, retry).
    public private(set) var changedKeys: Set<String> = []

    /// Creates the chat of `device` over the app's one connection.
    public init(device: DeviceID, connection: ConnectionViewModel, calendar: Calendar = .current) {
        self.device = device
        self.connection = connection
        self.calendar = calendar
        token = connection.observe { [weak self] in self?.refresh() }
    }

    /// Calls `handler` after every change.
    public func observe(_ handler: @escaping @MainActor () -> Void) -> ObservationToken { observers.observe(handler) }

    // MARK: What the page shows

    /// The device's name.
    public var title: String { connection.name(of: device) }

    /// The connection state in a few words, for the subtitle.
    public var subtitle: String {
        let state = connection.state
        if state.device == device { return state.summary }
        return L10n.tr("Not connected")
    }

    /// Whether Send and the entry work now.
    public var canSend: Bool { connection.state.device == device && connection.state.canChat }

    /// Why nothing can be sent, shown under the entry; nil when sending works.
    public var sendBlockedReason: String? {
        if canSend { return nil }
        let state = connection.state
        if state.device == device {
            switch state {
            case .connecting: return L10n.tr("Connecting to the device…")
            case .connected(_, service: nil): return L10n.tr("This device offers no chat service, so messages cannot be sent.")
            default: return L10n.tr("Disconnecting…")
            }
        }
        if let reason = connection.unavailableReason { return reason }
        return L10n.tr("Not connected. Connect to send messages; the history stays here.")
    }

    /// Whether the page should offer Connect (not connected to this device, and the source can connect).
    public var canConnect: Bool { connection.state.device != device && connection.unavailableReason == nil }

    /// The row for `key`.
    public func item(_ key: String) -> Item? { items[key] }

    /// Why a message was not sent, next to "Not sent".
    public func failure(of id: UUID) -> String? { connection.failures[id] }

    /// The key of the newest row.
    public var lastKey: String? { keys.last }

    // MARK: Intents

    /// The chat is on screen: its messages count as read.
    public func appear() { connection.chatShown = device }

    /// The chat left the screen: new messages count as unread again.
    public func disappear() { if connection.chatShown == device { connection.chatShown = nil } }

    /// Sends `text` (surrounding blank lines dropped); false when there is nothing to send or no link.
    @discardableResult
    public func send(_ text: String) -> Bool {
        let line = text.trimmingCharacters(in: .newlines)
        guard canSend, !line.trimmingCharacters(in: .whitespaces).isEmpty else { return false }
        lastSent = line
        connection.send(line)
        return true
    }

    /// Tries a message that was not sent once more.
    public func retry(_ id: UUID) { connection.retry(id) }

    /// Connects to this chat's device.
    public func connect() { connection.connect(to: device) }

    /// Reads the stored history, then adds this session's messages not yet stored.
    public func load() async {
        if let chats = connection.chats {
            let device = device
            do {
                let total = try await chats.count(for: device)
                var stored: [ChatMessage] = []
                stored.reserveCapacity(total)
                while stored.count < total {
                    // Large pages: each OFFSET query walks the rows before it again.
                    let page = try await chats.page(for: device, offset: stored.count, limit: 10_000)
                    if page.isEmpty { break }
                    stored += page
                }
                for message in stored { append(message) }
            } catch {
                loadProblem = L10n.format("The earlier messages could not be read: {}", "\(error)")
            }
        }
        isLoading = false
        refresh()
    }

    // MARK: Building rows

    private func refresh() {
        guard !isLoading else {
            observers.notify()
            return
        }
        changedKeys = []
        for message in connection.session[device] ?? [] {
            let key = message.id.uuidString
            if case .message(let shown) = items[key] {
                if shown.delivery != message.delivery || (message.delivery == .notSent) {
                    items[key] = .message(message)
                    changedKeys.insert(key)
                }
            } else {
                append(message)
            }
        }
        observers.notify()
    }

    private func append(_ message: ChatMessage) {
        let key = message.id.uuidString
        guard items[key] == nil else { return }
        let day = calendar.startOfDay(for: message.time)
        if day != lastDay {
            lastDay = day
            let dayKey = "day-\(Int(day.timeIntervalSince1970))"
            if items[dayKey] == nil {
                items[dayKey] = .day(day)
                keys.append(dayKey)
            }
        }
        items[key] = .message(message)
        keys.append(key)
        messageCount += 1
    }

    /// "Today", "Yesterday" or the date in the user's locale, for a day separator.
    public func dayTitle(_ day: Date, now: Date = Date()) -> String {
        let today = calendar.startOfDay(for: now)
        if day == today { return L10n.tr("Today") }
        if let yesterday = calendar.date(byAdding: .day, value: -1, to: today), day == yesterday { return L10n.tr("Yesterday") }
        return Formats.date(day)
    }
}
