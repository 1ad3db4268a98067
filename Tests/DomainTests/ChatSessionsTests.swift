// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Clocks
@testable import Domain
import Foundation
import TestSupport
import XCTest

/// A chat store that records its batches and delivery changes, for the owner's rules.
private actor RecordingChats: ChatRepository {
    private(set) var batches: [[ChatMessage]] = []
    private(set) var deliveries: [(UUID, ChatDelivery)] = []
    var failing = false

    func fail() { failing = true }
    func recover() { failing = false }
    func append(_ messages: [ChatMessage]) throws {
        if failing { throw FakeStoreFailure() }
        batches.append(messages)
    }
    func setDelivery(_ delivery: ChatDelivery, of id: UUID) throws {
        if failing { throw FakeStoreFailure() }
        deliveries.append((id, delivery))
    }
    func page(for device: DeviceID, offset: Int, limit: Int) -> [ChatMessage] {
        var stored: [UUID: ChatMessage] = [:]
        var order: [UUID] = []
        for message in batches.joined() where message.device == device {
            if stored[message.id] == nil { order.append(message.id) }
            stored[message.id] = message
        }
        for (id, delivery) in deliveries where stored[id] != nil { stored[id]!.delivery = delivery }
        return Array(order.compactMap { stored[$0] }.dropFirst(offset).prefix(limit))
    }
    func count(for device: DeviceID) -> Int { Set(batches.joined().filter { $0.device == device }.map(\.id)).count }
    func prune(_ retention: ChatRetention, now: Date) -> Int { 0 }
}

@MainActor
final class ChatSessionsTests: XCTestCase {
    private let device = TestDevices.id(7, kind: .leRandom)

    /// Sessions connected to the test device, keeping messages in `chats`; batches are written
    /// only when the test flushes them (their clock never moves).
    private func connected(keepingIn chats: ChatRepository) async -> (ChatSessions, FakeConnector) {
        let connector = FakeConnector()
        let model = ChatSessions(connector: connector, chats: chats, clock: TestClock())
        model.connect(to: device)
        await model.drain()
        return (model, connector)
    }

    func testALinkNeverAnsweredSaysItIsTriedAgain() async {
        let connector = FakeConnector()
        let model = ChatSessions(connector: connector, chats: nil)
        _ = model.state
        connector.startConnecting(to: device)
        await model.drain()
        connector.answerNot()
        await model.drain()
        XCTAssertEqual(model.state, .connecting(device))
        XCTAssertEqual(model.connectingNote, "No answer; trying again…")
    }

    func testIncomingMessagesCountUnreadUntilTheChatIsShownAndTheBadgeStopsAtNinetyNine() async {
        let connector = FakeConnector()
        let model = ChatSessions(connector: connector, chats: nil)
        model.connect(to: device)
        await model.drain()
        XCTAssertEqual(model.state, .connected(device, service: .chat))
        XCTAssertNil(UnreadBadge.text(for: model.unread))
        connector.receive("hello")
        await model.drain()
        XCTAssertEqual(UnreadBadge.text(for: model.unread), "1")
        for i in 0..<149 { connector.receive("m\(i)") }
        await model.drain()
        XCTAssertEqual(model.unread, 150)
        XCTAssertEqual(UnreadBadge.text(for: model.unread), "...")
        model.reading = device
        XCTAssertEqual(model.unread, 0, "opening the chat reads everything")
        connector.receive("while shown")
        await model.drain()
        XCTAssertEqual(model.unread, 0, "a message to the open chat is read at once")
        XCTAssertEqual(model.messages(of: device).count, 151)
    }

    func testTheEndOfTheConnectionKeepsTheHistoryAndWhatIsUnreadAndSaysBoth() async {
        let connector = FakeConnector()
        let model = ChatSessions(connector: connector, chats: nil)
        var said: [String] = []
        var openable: [DeviceID?] = []
        model.onEnded = { text, unreadFrom in
            said.append(text)
            openable.append(unreadFrom)
        }
        model.connect(to: device)
        await model.drain()
        connector.receive("one")
        connector.receive("two")
        await model.drain()
        XCTAssertEqual(model.unread, 2)
        connector.drop(.endedByDevice)
        await model.drain()
        XCTAssertEqual(model.unread, 0, "the connection's count goes with it")
        XCTAssertEqual(model.unread(of: device), 2, "the replies stay unread under their device")
        XCTAssertEqual(model.messages(of: device).map(\.body), [.text("one"), .text("two")])
        XCTAssertEqual(said, [ConnectionFailure.endedByDevice.message + " 2 messages are unread."])
        XCTAssertEqual(openable, [device], "the notice can open the chat")
        XCTAssertEqual(model.lastEnded?.reason, "Disconnected: " + ConnectionFailure.endedByDevice.message)
        XCTAssertFalse(model.canSend)
        model.reading = device
        XCTAssertEqual(model.unread(of: device), 0, "reading the chat reads them")
    }

    func testAnEndFavBlueAskedForIsNoFailureButTheNextOneIsAndALateOneIsToo() async {
        let connector = FakeConnector()
        var time = Date(timeIntervalSince1970: 1_000_000)
        let model = ChatSessions(connector: connector, chats: nil, now: { time })
        var said: [String] = []
        model.onEnded = { text, _ in said.append(text) }
        model.connect(to: device)
        await model.drain()
        model.expectEnd(of: device)
        connector.drop(.endedByDevice)
        await model.drain()
        XCTAssertEqual(said, [], "the device restarts as it was told to")
        XCTAssertNil(model.lastEnded, "the page's note is the Device Manager's")
        // Once only: the next end is told.
        model.connect(to: device)
        await model.drain()
        connector.drop(.endedByDevice)
        await model.drain()
        XCTAssertEqual(said, [ConnectionFailure.endedByDevice.message])
        XCTAssertEqual(model.lastEnded?.reason, "Disconnected: " + ConnectionFailure.endedByDevice.message)
        // An end that comes after the time allowed is told too.
        model.connect(to: device)
        await model.drain()
        model.expectEnd(of: device, within: 30)
        time += 31
        connector.drop(.endedByDevice)
        await model.drain()
        XCTAssertEqual(said.count, 2)
    }

    func testDisconnectingWithAnUnreadReplySaysSoAndNothingOtherwise() async {
        let connector = FakeConnector()
        let model = ChatSessions(connector: connector, chats: nil)
        model.names = { _ in "Kitchen" }
        var said: [String] = []
        model.onEnded = { text, _ in said.append(text) }
        model.connect(to: device)
        await model.drain()
        model.disconnect()
        await model.drain()
        XCTAssertEqual(said, [], "a disconnect the user asked for needs no notice")
        XCTAssertEqual(model.lastEnded?.reason, "Disconnected")
        model.connect(to: device)
        await model.drain()
        connector.receive("are you there?")
        await model.drain()
        model.disconnect()
        await model.drain()
        XCTAssertEqual(said, ["Disconnected from \u{2068}Kitchen\u{2069}. 1 message is unread."])
        XCTAssertEqual(model.unread(of: device), 1)
    }

    func testASentMessageGoesFromSendingToSentAndAFailedOneIsMarkedWithItsReasonThenRetried() async {
        let chats = RecordingChats()
        let (model, connector) = await connected(keepingIn: chats)
        model.send("hello")
        XCTAssertEqual(model.messages(of: device).last?.delivery, .sending, "listed at once")
        await model.drain()
        XCTAssertEqual(model.messages(of: device).last?.delivery, .sent)
        XCTAssertEqual(connector.sent, ["hello"])

        connector.sendFailure = .timedOut
        model.send("lost")
        await model.drain()
        let failed = model.messages(of: device).last!
        XCTAssertEqual(failed.delivery, .notSent)
        XCTAssertEqual(model.failures[failed.id], ChatSendError.timedOut.message)
        connector.sendFailure = nil
        model.retry(failed)
        await model.drain()
        XCTAssertEqual(model.messages(of: device).last?.delivery, .sent)
        XCTAssertNil(model.failures[failed.id])
        XCTAssertEqual(connector.sent, ["hello", "lost"])
        await model.flush()
        let stored = try? await chats.page(for: device, offset: 0, limit: 10)
        XCTAssertEqual(stored?.map(\.delivery), [.sent, .sent], "the store follows every change")

        // Once written, a later change is written on its own.
        connector.sendFailure = .connectionLost
        model.send("late")
        await model.drain()
        await model.flush()
        let late = model.messages(of: device).last!
        connector.sendFailure = nil
        model.retry(late)
        await model.drain()
        await model.flush()
        let deliveries = await chats.deliveries.filter { $0.0 == late.id }.map(\.1)
        XCTAssertEqual(deliveries, [.sending, .sent])
    }

    func testADeliveryThatChangesWhileItsMessageWaitsForTheStoreIsStoredWithIt() async {
        let chats = RecordingChats()
        let (model, connector) = await connected(keepingIn: chats)
        model.send("hello")
        connector.receive("hi back")
        await model.drain()
        // The batch waits for the clock; nothing is written yet.
        var batches = await chats.batches
        XCTAssertEqual(batches.count, 0)
        model.send("again")
        await model.drain()
        XCTAssertEqual(model.waitingToBeWritten, 3)
        await model.flush()
        batches = await chats.batches
        XCTAssertEqual(batches.count, 1, "one batch")
        XCTAssertEqual(batches.first?.map(\.delivery), [.sent, .sent, .sent],
                       "the answer that came while the message waited is what is stored")
    }

    func testAMessageCutOffByAQuitReadsAsNotSentAfterARestartAndCanBeRetried() async {
        let chats = RecordingChats()
        let sending = ChatMessage(device: device, direction: .outgoing, body: .text("in flight"), time: Date(), delivery: .sending)
        try? await chats.append([sending])
        let connector = FakeConnector()
        let model = ChatSessions(connector: connector, chats: chats)
        let stored = try? await model.stored(of: device, offset: 0, limit: 10)
        XCTAssertEqual(stored?.map(\.delivery), [.notSent])
        XCTAssertNotNil(model.failures[sending.id], "it says why")
        model.connect(to: device)
        await model.drain()
        model.retry(stored![0])
        await model.drain()
        XCTAssertEqual(connector.sent, ["in flight"])
        XCTAssertEqual(model.messages(of: device).map(\.delivery), [.sent])
        await model.flush()
        let after = try? await chats.page(for: device, offset: 0, limit: 10)
        XCTAssertEqual(after?.map(\.delivery), [.sent])
    }

    func testABurstIsStoredInOrderInAFewBatches() async {
        let connector = FakeConnector()
        let chats = RecordingChats()
        let model = ChatSessions(connector: connector, chats: chats)
        model.connect(to: device)
        await model.drain()
        for i in 0..<150 { connector.receive("message \(i)") }
        await model.drain()
        await model.flush()
        let batches = await chats.batches
        XCTAssertLessThanOrEqual(batches.count, 3, "one transaction per burst, not one per message")
        XCTAssertEqual(batches.flatMap { $0 }.map(\.body), (0..<150).map { .text("message \($0)") })
    }

    /// Try the Demo: from then on the chats go to the demo's own store, not the user's.
    func testChatsKeptElsewhereFromNowOnLeaveTheFirstStoreAsItWas() async {
        let connector = FakeConnector()
        let users = RecordingChats(), demos = RecordingChats()
        let model = ChatSessions(connector: connector, chats: users)
        model.connect(to: device)
        await model.drain()
        connector.receive("before")
        await model.drain()
        await model.flush()
        model.keepChats(in: demos)
        connector.receive("after")
        await model.drain()
        await model.flush()
        let kept = await users.batches.joined().map(\.body), moved = await demos.batches.joined().map(\.body)
        XCTAssertEqual(kept, [.text("before")], "the user's store has only what came before")
        XCTAssertEqual(moved, [.text("after")])
    }

    func testAStoreThatFailsIsSaidAndTheMessagesStayListed() async {
        let connector = FakeConnector()
        let chats = RecordingChats()
        await chats.fail()
        let model = ChatSessions(connector: connector, chats: chats)
        var problems: [String] = []
        model.onStoreProblem = { problems.append($0) }
        model.connect(to: device)
        await model.drain()
        connector.receive("kept")
        await model.drain()
        await model.flush()
        XCTAssertEqual(problems.count, 1)
        XCTAssertTrue(problems[0].contains("could not be saved"))
        XCTAssertEqual(model.messages(of: device).map(\.body), [.text("kept")])
    }

    /// Moves the test clock on until the retry timer has started its write, then waits for that
    /// write: flush() would write at once and so bypass the timer under test.
    private func retried(_ model: ChatSessions, _ clock: TestClock<Duration>) async {
        let started = await advance(clock, by: ChatSessions.retryDelay, until: { model.flushTask == nil && model.waitingToBeWritten == 0 })
        XCTAssertTrue(started, "the retry timer wrote nothing within 5 s (\(model.waitingToBeWritten) waiting)")
        await model.writes?.value
    }

    func testMessagesTheStoreRefusedAreWrittenWhenItTakesThemAgain() async throws {
        let chats = RecordingChats()
        await chats.fail()
        let clock = TestClock()
        let connector = FakeConnector()
        let model = ChatSessions(connector: connector, chats: chats, clock: clock)
        var problems: [String] = []
        model.onStoreProblem = { problems.append($0) }
        model.connect(to: device)
        await model.drain()
        connector.receive("first")
        await model.drain()
        await model.flush()
        connector.receive("second")
        await model.drain()
        await model.flush()
        XCTAssertEqual(problems.count, 1, "a full disk is said once, not at every write: \(problems)")
        XCTAssertEqual(model.waitingToBeWritten, 2, "both wait to be written again")

        await chats.recover()
        await retried(model, clock)
        let written = await chats.batches
        XCTAssertEqual(written.flatMap { $0 }.map(\.body), [.text("first"), .text("second")],
                       "written by the retry, in order, once the store takes them")
        XCTAssertEqual(model.waitingToBeWritten, 0)
    }

    func testADeliveryTheStoreRefusedIsWrittenWhenItTakesItAgain() async throws {
        let chats = RecordingChats()
        let cutOff = ChatMessage(device: device, direction: .outgoing, body: .text("in flight"), time: Date(), delivery: .sending)
        try await chats.append([cutOff])
        let clock = TestClock()
        let connector = FakeConnector()
        let model = ChatSessions(connector: connector, chats: chats, clock: clock)
        var problems: [String] = []
        model.onStoreProblem = { problems.append($0) }
        let stored = try await model.stored(of: device, offset: 0, limit: 10)
        model.connect(to: device)
        await model.drain()
        await model.flush()

        // The disk fills; the message, already on it, is sent again.
        await chats.fail()
        model.retry(stored[0])
        await model.drain()
        await model.flush()
        XCTAssertEqual(model.messages(of: device).map(\.delivery), [.sent])
        XCTAssertEqual(problems.count, 1, "the full disk is said: \(problems)")
        XCTAssertEqual(model.waitingToBeWritten, 1, "its new delivery waits to be written again")

        await chats.recover()
        await retried(model, clock)
        XCTAssertEqual(model.waitingToBeWritten, 0)
        await model.flush()
        let after = try await chats.page(for: device, offset: 0, limit: 10)
        XCTAssertEqual(after.map(\.id), [cutOff.id], "the same message, not a second copy")
        XCTAssertEqual(after.map(\.delivery), [.sent], "stored as sent once the disk takes it")
    }

    func testADeviceThatWantsPairingIsToldUntilTheNextAttempt() async {
        let connector = FakeConnector()
        connector.connectFailure = .needsPairing
        let model = ChatSessions(connector: connector, chats: nil)
        model.connect(to: device)
        await model.drain()
        XCTAssertEqual(model.wantsPairing, device, "its page can offer Pair")
        XCTAssertEqual(model.lastEnded?.reason, "The device wants to be paired first. Press Pair, then connect again.")
        connector.connectFailure = nil
        model.connect(to: device)
        await model.drain()
        XCTAssertNil(model.wantsPairing, "a new attempt clears it")
    }
}
