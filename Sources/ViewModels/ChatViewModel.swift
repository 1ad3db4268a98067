// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import Localization

/// One device's chat, a window on Domain's `ChatSessions`: its stored history, read a page at
/// a time from the newest back as the list scrolls up, and this session's messages, with a day
/// separator before each new day, and what can be sent right now.
///
/// Rows are addressed by key (a message's id, or "day-" and the date) so a virtualized list
/// binds only the rows it shows. New messages are appended, and older pages put in front,
/// without rebuilding the rest.
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
    /// Whether older stored messages are still to be read (`loadOlder`).
    public var hasOlder: Bool { storedFrom > 0 }

    /// How many stored messages one page holds: enough to fill a tall window several times.
    public static let pageSize = 200

    // MARK: Borrowed
    private let sessions: ChatSessions
    private let calendar: Calendar
    private var token: ObservationToken?

    // MARK: Owned
    private var items: [String: Item] = [:]
    private var lastDay: Date?
    /// The stored position (0 = oldest) of the oldest message listed.
    private var storedFrom = 0
    /// The time of the oldest stored message read when the chat opened.
    private var oldestShown: Date?
    private var loadingOlder = false
    private let observers = ChangeObservers()
    /// Keys whose row changed since the last notification (delivery, retry).
    public private(set) var changedKeys: Set<String> = []

    /// Creates the chat of `device` over the app's chat sessions.
    public init(device: DeviceID, sessions: ChatSessions, calendar: Calendar = .current) {
        self.device = device
        self.sessions = sessions
        self.calendar = calendar
        token = sessions.observe { [weak self] in self?.refresh() }
    }

    /// Calls `handler` after every change.
    public func observe(_ handler: @escaping @MainActor () -> Void) -> ObservationToken { observers.observe(handler) }

    // MARK: What the page shows

    /// The device's name.
    public var title: String { sessions.name(of: device) }

    /// The connection state in a few words, for the subtitle.
    public var subtitle: String {
        let state = sessions.state
        if state.device == device { return state.summary }
        return L10n.tr("Not connected")
    }

    /// Whether Send and the entry work now.
    public var canSend: Bool { sessions.state.device == device && sessions.state.canChat }

    /// Whether a message can be written now, to send once connected: the entry stays open while
    /// the link drops and comes back, so neither the words nor the focus are lost. Only a device
    /// known to offer no chat service closes it.
    public var canCompose: Bool {
        if case .connected(let connected, service: nil) = sessions.state, connected == device { return false }
        return true
    }

    /// Why nothing can be sent, shown under the entry; nil when sending works.
    public var sendBlockedReason: String? {
        if canSend { return nil }
        let state = sessions.state
        if state.device == device {
            switch state {
            case .connecting: return sessions.connectingNote ?? L10n.tr("Connecting to the device…")
            case .connected(_, service: nil): return L10n.tr("This device offers no chat service, so messages cannot be sent.")
            default: return L10n.tr("Disconnecting…")
            }
        }
        if let reason = sessions.unavailableReason(for: device) { return reason }
        return L10n.tr("Not connected. Connect to send messages; the history stays here.")
    }

    /// Whether the page should offer Connect (not connected to this device, and the source can connect).
    public var canConnect: Bool { sessions.state.device != device && sessions.unavailableReason(for: device) == nil }

    /// The row for `key`.
    public func item(_ key: String) -> Item? { items[key] }

    /// Why a message was not sent, next to "Not sent".
    public func failure(of id: UUID) -> String? { sessions.failures[id] }

    /// The key of the newest row.
    public var lastKey: String? { keys.last }

    // MARK: Intents

    /// The chat is on screen: its messages count as read.
    public func appear() { sessions.reading = device }

    /// The chat left the screen: new messages count as unread again.
    public func disappear() { if sessions.reading == device { sessions.reading = nil } }

    /// Sends `text` (surrounding blank lines dropped); false when there is nothing to send or no link.
    @discardableResult
    public func send(_ text: String) -> Bool {
        let line = text.trimmingCharacters(in: .newlines)
        guard canSend, !line.trimmingCharacters(in: .whitespaces).isEmpty else { return false }
        lastSent = line
        sessions.send(line)
        return true
    }

    /// Tries a message that was not sent once more.
    public func retry(_ id: UUID) {
        guard case .message(let message) = items[id.uuidString] else { return }
        sessions.retry(message)
    }

    /// Connects to this chat's device.
    public func connect() { sessions.connect(to: device) }

    /// Reads the newest page of the stored history, then adds this session's messages not yet stored.
    public func load() async {
        do {
            let total = try await sessions.storedCount(of: device)
            storedFrom = max(0, total - Self.pageSize)
            let page = try await sessions.stored(of: device, offset: storedFrom, limit: total - storedFrom)
            oldestShown = page.first?.time
            for message in page {
                append(message)
            }
        } catch {
            loadProblem = L10n.format("The earlier messages could not be read: {}", "\(error)")
        }
        isLoading = false
        refresh()
    }

    /// Reads the page of stored messages before the oldest listed and puts it in front;
    /// returns how many rows came in front (0 when there were none, or a read is under way).
    @discardableResult
    public func loadOlder() async -> Int {
        guard !isLoading, !loadingOlder, storedFrom > 0 else { return 0 }
        loadingOlder = true
        defer { loadingOlder = false }
        let from = max(0, storedFrom - Self.pageSize)
        let page: [ChatMessage]
        do {
            page = try await sessions.stored(of: device, offset: from, limit: storedFrom - from)
        } catch {
            loadProblem = L10n.format("The earlier messages could not be read: {}", "\(error)")
            observers.notify()
            return 0
        }
        storedFrom = from
        let before = keys.count
        prepend(page)
        changedKeys = []
        observers.notify()
        return keys.count - before
    }

    /// Lets go of the oldest listed messages beyond the newest `limit` (and a quarter more, so it
    /// happens now and then, not on every message); they come back from the store as older pages
    /// when scrolled to. The page calls it while it follows the newest message, so an open chat
    /// does not grow without end.
    public func keepNewest(_ limit: Int) {
        guard !isLoading, !loadingOlder, messageCount > limit + limit / 4 else { return }
        let drop = messageCount - limit
        var removed = 0, cut = 0
        while cut < keys.count, removed < drop {
            if case .message = items[keys[cut]] { removed += 1 }
            items[keys[cut]] = nil
            cut += 1
        }
        // Separators left at the front belong to messages already gone.
        while cut < keys.count, case .day = items[keys[cut]] {
            items[keys[cut]] = nil
            cut += 1
        }
        keys.removeFirst(cut)
        messageCount -= removed
        storedFrom += removed
        if let first = keys.first, case .message(let message) = items[first] {
            oldestShown = message.time
            let day = calendar.startOfDay(for: message.time)
            items[Self.dayKey(day)] = .day(day)
            keys.insert(Self.dayKey(day), at: 0)
        }
    }

    // MARK: Building rows

    private func refresh() {
        guard !isLoading else {
            observers.notify()
            return
        }
        changedKeys = []
        for message in sessions.messages(of: device) {
            let key = message.id.uuidString
            // Stored already and older than the page shown: it comes with the older pages, in order.
            if hasOlder, items[key] == nil, let oldestShown, message.time < oldestShown { continue }
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
            let dayKey = Self.dayKey(day)
            if items[dayKey] == nil {
                items[dayKey] = .day(day)
                keys.append(dayKey)
            }
        }
        items[key] = .message(message)
        keys.append(key)
        messageCount += 1
    }

    /// Puts `page` (oldest first, all older than every row) in front, with its day separators;
    /// the first day already listed keeps its one separator.
    private func prepend(_ page: [ChatMessage]) {
        var front: [String] = []
        var day: Date?
        for message in page where items[message.id.uuidString] == nil {
            let start = calendar.startOfDay(for: message.time)
            let dayKey = Self.dayKey(start)
            if start != day {
                day = start
                if items[dayKey] == nil {
                    items[dayKey] = .day(start)
                    front.append(dayKey)
                } else if let at = keys.firstIndex(of: dayKey) {
                    // The day continues into the rows listed already: its separator moves up.
                    keys.remove(at: at)
                    front.append(dayKey)
                }
            }
            items[message.id.uuidString] = .message(message)
            front.append(message.id.uuidString)
            messageCount += 1
        }
        keys = front + keys
    }

    private static func dayKey(_ day: Date) -> String { "day-\(Int(day.timeIntervalSince1970))" }

    /// "Today", "Yesterday" or the date in the user's locale, for a day separator.
    public func dayTitle(_ day: Date, now: Date = Date()) -> String {
        let today = calendar.startOfDay(for: now)
        if day == today { return L10n.tr("Today") }
        if let yesterday = calendar.date(byAdding: .day, value: -1, to: today), day == yesterday { return L10n.tr("Yesterday") }
        return Formats.date(day)
    }
}
