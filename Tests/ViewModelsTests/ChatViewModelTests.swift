// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import TestSupport
import ViewModels
import XCTest

/// A chat store holding a fixed history, optionally unreadable.
private actor StoredChats: ChatRepository {
    private var messages: [ChatMessage]
    private let unreadable: Bool

    init(_ messages: [ChatMessage], unreadable: Bool = false) {
        self.messages = messages
        self.unreadable = unreadable
    }

    func append(_ batch: [ChatMessage]) {
        for message in batch where !messages.contains(where: { $0.id == message.id }) { messages.append(message) }
    }
    func setDelivery(_ delivery: ChatDelivery, of id: UUID) {}
    func page(for device: DeviceID, offset: Int, limit: Int) throws -> [ChatMessage] {
        if unreadable { throw FakeStoreFailure() }
        let mine = messages.filter { $0.device == device }
        return Array(mine.dropFirst(offset).prefix(limit))
    }
    func count(for device: DeviceID) throws -> Int {
        if unreadable { throw FakeStoreFailure() }
        return messages.filter { $0.device == device }.count
    }
    func prune(_ retention: ChatRetention, now: Date) -> Int { 0 }
}

@MainActor
final class ChatViewModelTests: XCTestCase {
    private let device = TestDevices.id(7, kind: .leRandom)
    private let other = TestDevices.id(8, kind: .leRandom)
    private var calendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }

    private func message(_ text: String, _ direction: ChatDirection = .incoming, at time: Date) -> ChatMessage {
        ChatMessage(device: device, direction: direction, body: .text(text), time: time, delivery: .sent)
    }

    func testTheHistoryLoadsOldestFirstWithADaySeparatorBeforeEachDayAndNoDuplicates() async {
        let now = Date()
        let today = calendar.startOfDay(for: now)
        let yesterday = today.addingTimeInterval(-86_400 + 3600)
        let stored = [message("old", at: yesterday), message("older reply", .outgoing, at: yesterday.addingTimeInterval(60)),
                      message("this morning", at: today.addingTimeInterval(60))]
        let chats = StoredChats(stored + [ChatMessage(device: other, direction: .incoming, body: .text("elsewhere"),
                                                      time: today, delivery: .sent)])
        let connector = FakeConnector()
        let connection = ChatSessions(connector: connector, chats: chats)
        connection.connect(to: device)
        await connection.drain()
        connector.receive("live", at: now)
        await connection.drain()
        await connection.flush()
        let model = ChatViewModel(device: device, sessions: connection, calendar: calendar)
        XCTAssertTrue(model.isLoading)
        await model.load()
        XCTAssertFalse(model.isLoading)
        let rows = model.keys.compactMap { model.item($0) }
        XCTAssertEqual(rows.count, 6, "two day separators and four messages, the live one once")
        guard case .day(let first) = rows[0], case .day(let second) = rows[3] else { return XCTFail("separators first: \(rows)") }
        XCTAssertEqual(model.dayTitle(first, now: now), "Yesterday")
        XCTAssertEqual(model.dayTitle(second, now: now), "Today")
        let texts = rows.compactMap { row -> String? in
            if case .message(let m) = row, case .text(let t) = m.body { return t } else { return nil }
        }
        XCTAssertEqual(texts, ["old", "older reply", "this morning", "live"])
        XCTAssertEqual(model.messageCount, 4)

        connector.receive("later")
        await connection.drain()
        XCTAssertEqual(model.messageCount, 5, "a new message is added to the open chat")
        XCTAssertEqual(model.lastKey.flatMap { model.item($0) }.flatMap { if case .message(let m) = $0 { m.body } else { nil } },
                       .text("later"))
    }

    func testALongHistoryOpensOnItsNewestPageAndOlderPagesComeInFrontInOrder() async {
        let start = calendar.startOfDay(for: Date()).addingTimeInterval(-3 * 86_400)
        // 1,000 messages, one every six minutes: four days and a bit.
        let stored = (0..<1000).map { message("m\($0)", at: start.addingTimeInterval(Double($0) * 360)) }
        let connection = ChatSessions(connector: FakeConnector(), chats: StoredChats(stored))
        let model = ChatViewModel(device: device, sessions: connection, calendar: calendar)
        await model.load()
        XCTAssertEqual(model.messageCount, ChatViewModel.pageSize, "opening reads one page, whatever the length")
        XCTAssertTrue(model.hasOlder)
        var pages = 1
        while model.hasOlder {
            let added = await model.loadOlder()
            XCTAssertGreaterThan(added, 0)
            pages += 1
        }
        XCTAssertEqual(pages, 5)
        XCTAssertEqual(model.messageCount, 1000)
        let texts = model.keys.compactMap { key -> String? in
            if case .message(let m) = model.item(key), case .text(let t) = m.body { return t }
            return nil
        }
        XCTAssertEqual(texts, (0..<1000).map { "m\($0)" }, "oldest first, none twice")
        let days = model.keys.filter { $0.hasPrefix("day-") }
        XCTAssertEqual(days.count, Set(days).count)
        XCTAssertEqual(days.count, 5, "one separator per day, each before its first message")
        for day in days {
            guard let at = model.keys.firstIndex(of: day), case .day(let date) = model.item(day),
                  case .message(let next) = model.item(model.keys[at + 1]) else { return XCTFail("a day opens its messages") }
            XCTAssertEqual(calendar.startOfDay(for: next.time), date)
            if at > 0, case .message(let before) = model.item(model.keys[at - 1]) {
                XCTAssertLessThan(calendar.startOfDay(for: before.time), date)
            }
        }
        let none = await model.loadOlder()
        XCTAssertEqual(none, 0)
    }

    func testAnHourOfChatKeepsOnlyTheNewestMessagesInMemoryAndTheChatStillListsEveryOneInOrder() async {
        let chats = StoredChats([])
        let connector = FakeConnector()
        let sessions = ChatSessions(connector: connector, chats: chats)
        sessions.connect(to: device)
        await sessions.drain()
        let start = Date().addingTimeInterval(-3600)
        for n in 0..<1200 {
            connector.receive("r\(n)", at: start.addingTimeInterval(Double(n)))
            if n % 100 == 99 {
                await sessions.drain()
                await sessions.flush()
            }
        }
        await sessions.drain()
        await sessions.flush()
        connector.receive("last", at: start.addingTimeInterval(1300))
        await sessions.drain()
        XCTAssertLessThanOrEqual(sessions.messages(of: device).count, ChatSessions.sessionTail + 51,
                                 "written messages beyond the newest few are let go")
        XCTAssertEqual(sessions.messages(of: device).last?.body, .text("last"))
        await sessions.flush()
        let model = ChatViewModel(device: device, sessions: sessions, calendar: calendar)
        await model.load()
        while model.hasOlder { await model.loadOlder() }
        let texts = model.keys.compactMap { key -> String? in
            if case .message(let m) = model.item(key), case .text(let t) = m.body { return t }
            return nil
        }
        XCTAssertEqual(texts, (0..<1200).map { "r\($0)" } + ["last"], "every message once, oldest first")
    }

    func testAChatFollowingTheNewestLetsTheOldestRowsGoAndScrollingUpBringsThemBackInOrder() async {
        let start = calendar.startOfDay(for: Date()).addingTimeInterval(-2 * 86_400)
        let stored = (0..<1500).map { message("m\($0)", at: start.addingTimeInterval(Double($0) * 120)) }
        let sessions = ChatSessions(connector: FakeConnector(), chats: StoredChats(stored))
        let model = ChatViewModel(device: device, sessions: sessions, calendar: calendar)
        await model.load()
        while model.hasOlder { await model.loadOlder() }
        XCTAssertEqual(model.messageCount, 1500)
        model.keepNewest(1000)
        XCTAssertEqual(model.messageCount, 1000, "the oldest 500 go")
        XCTAssertTrue(model.hasOlder, "and can be read again")
        guard case .day = model.item(model.keys[0]) else { return XCTFail("the first kept message keeps its day line") }
        while model.hasOlder { await model.loadOlder() }
        let texts = model.keys.compactMap { key -> String? in
            if case .message(let m) = model.item(key), case .text(let t) = m.body { return t }
            return nil
        }
        XCTAssertEqual(texts, (0..<1500).map { "m\($0)" }, "every message once, oldest first")
        let days = model.keys.filter { $0.hasPrefix("day-") }
        XCTAssertEqual(days.count, Set(days).count, "one line per day")
        model.keepNewest(1400)
        XCTAssertEqual(model.messageCount, 1500, "a little over the limit waits for more")
    }

    func testSendingWorksOnlyWhileConnectedToThisDeviceAndSaysWhyNot() async {
        let connector = FakeConnector()
        let connection = ChatSessions(connector: connector, chats: nil)
        let model = ChatViewModel(device: device, sessions: connection)
        await model.load()
        XCTAssertFalse(model.canSend)
        XCTAssertEqual(model.subtitle, "Not connected")
        XCTAssertTrue(model.sendBlockedReason?.hasPrefix("Not connected.") == true)
        XCTAssertTrue(model.canConnect)
        XCTAssertFalse(model.send("hello"), "nothing goes out while disconnected")
        XCTAssertTrue(model.canCompose, "but a message can be written, to send once connected")

        connection.connect(to: other)
        await connection.drain()
        XCTAssertFalse(model.canSend, "connected, but to another device")
        XCTAssertTrue(model.canConnect)

        connection.connect(to: device)
        await connection.drain()
        XCTAssertTrue(model.canSend)
        XCTAssertNil(model.sendBlockedReason)
        XCTAssertEqual(model.subtitle, "Connected")
        XCTAssertFalse(model.send("   "), "blank lines are not sent")
        XCTAssertTrue(model.send("hello\n"))
        await connection.drain()
        XCTAssertEqual(connector.sent, ["hello"])
        XCTAssertEqual(model.lastSent, "hello", "Up recalls it")

        connector.service = nil
        connection.connect(to: device)
        await connection.drain()
        XCTAssertFalse(model.canSend)
        XCTAssertEqual(model.sendBlockedReason, "This device offers no chat service, so messages cannot be sent.")
        XCTAssertFalse(model.canCompose, "a device with no chat service closes the entry")
    }

    func testAReplayedCaptureCannotConnectAndTheChatSaysWhy() async {
        let connection = ChatSessions(connector: ReplayOnly(), chats: nil)
        let model = ChatViewModel(device: device, sessions: connection)
        await model.load()
        XCTAssertFalse(model.canConnect)
        XCTAssertEqual(model.sendBlockedReason, ReplayOnly.reason)
    }

    func testShowingTheChatReadsItsMessagesAndLeavingItCountsAgain() async {
        let connector = FakeConnector()
        let connection = ChatSessions(connector: connector, chats: nil)
        let bar = ConnectionViewModel(sessions: connection)
        connection.connect(to: device)
        await connection.drain()
        connector.receive("one")
        await connection.drain()
        XCTAssertEqual(bar.badge, "1")
        let model = ChatViewModel(device: device, sessions: connection)
        await model.load()
        model.appear()
        XCTAssertNil(bar.badge)
        connector.receive("two")
        await connection.drain()
        XCTAssertEqual(connection.unread, 0)
        model.disappear()
        connector.receive("three")
        await connection.drain()
        XCTAssertEqual(bar.badge, "1")
        XCTAssertEqual(model.messageCount, 3)
    }

    func testAMessageThatWasNotSentIsMarkedWithItsReasonAndRetried() async {
        let connector = FakeConnector()
        let connection = ChatSessions(connector: connector, chats: nil)
        connection.connect(to: device)
        await connection.drain()
        let model = ChatViewModel(device: device, sessions: connection)
        await model.load()
        connector.sendFailure = .timedOut
        model.send("lost")
        await connection.drain()
        guard let key = model.lastKey, case .message(let failed) = model.item(key) else { return XCTFail("listed") }
        XCTAssertEqual(failed.delivery, .notSent)
        XCTAssertTrue(model.changedKeys.contains(key), "the row is redrawn")
        XCTAssertEqual(model.failure(of: failed.id), ChatSendError.timedOut.message)
        connector.sendFailure = nil
        model.retry(failed.id)
        await connection.drain()
        guard case .message(let sent) = model.item(key) else { return XCTFail("still listed") }
        XCTAssertEqual(sent.delivery, .sent)
        XCTAssertEqual(connector.sent, ["lost"])
    }

    func testAnUnreadableHistoryIsSaidAndThisSessionsMessagesStayListed() async {
        let connector = FakeConnector()
        let connection = ChatSessions(connector: connector, chats: StoredChats([], unreadable: true))
        connection.connect(to: device)
        await connection.drain()
        connector.receive("still here")
        await connection.drain()
        let model = ChatViewModel(device: device, sessions: connection)
        await model.load()
        XCTAssertNotNil(model.loadProblem)
        XCTAssertEqual(model.messageCount, 1)
    }

    func testAFailedConnectionIsToldOnItsDevicesPageAndANewSourceTakesOver() async {
        let connector = FakeConnector()
        connector.connectFailure = .noAnswer(seconds: 10)
        let connection = ChatSessions(connector: connector, chats: nil)
        connection.connect(to: device)
        await connection.drain()
        XCTAssertEqual(connection.lastEnded?.device, device)
        XCTAssertEqual(connection.lastEnded?.reason, ConnectionFailure.noAnswer(seconds: 10).message)

        connection.replace(connector: ReplayOnly())
        await connection.drain()
        XCTAssertEqual(connection.unavailableReason, ReplayOnly.reason)
        connection.connect(to: device)
        await connection.drain()
        XCTAssertNil(connection.state.device)
    }
}

/// A connector like a replayed capture's: it can never connect.
private final class ReplayOnly: DeviceConnector, @unchecked Sendable {
    static let reason = "A replayed capture cannot connect to devices."
    var events: Feed<ConnectionEvent> {
        let feed = Feed<ConnectionEvent>()
        feed.yield(.state(.idle))
        return feed
    }
    var state: ConnectionState { .idle }
    var unavailableReason: String? { Self.reason }
    func connect(to device: DeviceID) {}
    func cancel() {}
    func disconnect() {}
    func send(_ text: String) async throws(ChatSendError) { throw .notConnected }
}
