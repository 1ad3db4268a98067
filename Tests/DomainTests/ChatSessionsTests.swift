// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import TestSupport
import ViewModels
import XCTest

/// A chat store that records its batches, for the view-model rules.
private actor RecordingChats: ChatRepository {
    private(set) var batches: [[ChatMessage]] = []
    private(set) var deliveries: [(UUID, ChatDelivery)] = []
    var failing = false

    func fail() { failing = true }
    func append(_ messages: [ChatMessage]) throws {
        if failing { throw FakeStoreFailure() }
        batches.append(messages)
    }
    func setDelivery(_ delivery: ChatDelivery, of id: UUID) { deliveries.append((id, delivery)) }
    func page(for device: DeviceID, offset: Int, limit: Int) -> [ChatMessage] { [] }
    func count(for device: DeviceID) -> Int { 0 }
    func prune(_ retention: ChatRetention, now: Date) -> Int { 0 }
}

@MainActor
final class ConnectionViewModelTests: XCTestCase {
    private let device = TestDevices.id(7, kind: .leRandom)

    private func settle() async { try? await Task.sleep(nanoseconds: 50_000_000) }

    func testIncomingMessagesCountUnreadUntilTheChatIsShownAndTheBadgeStopsAtNinetyNine() async {
        let connector = FakeConnector()
        let model = ConnectionViewModel(connector: connector, chats: nil)
        model.connect(to: device)
        await settle()
        XCTAssertEqual(model.state, .connected(device, service: .chat))
        XCTAssertNil(model.badge)
        connector.receive("hello")
        await settle()
        XCTAssertEqual(model.badge, "1")
        for i in 0..<149 { connector.receive("m\(i)") }
        await settle()
        XCTAssertEqual(model.unread, 150)
        XCTAssertEqual(model.badge, "...")
        XCTAssertEqual(model.unreadDescription, "150 unread messages")
        model.chatShown = device
        XCTAssertNil(model.badge, "opening the chat reads everything")
        connector.receive("while shown")
        await settle()
        XCTAssertEqual(model.unread, 0, "a message to the open chat is read at once")
        XCTAssertEqual(model.session[device]?.count, 151)
    }

    func testTheEndOfTheConnectionClearsTheCountKeepsTheHistoryAndSaysWhy() async {
        let connector = FakeConnector()
        let model = ConnectionViewModel(connector: connector, chats: nil)
        var said: [String] = []
        model.onEnded = { said.append($0) }
        model.connect(to: device)
        await settle()
        connector.receive("one")
        connector.receive("two")
        await settle()
        XCTAssertEqual(model.unread, 2)
        connector.drop(.endedByDevice)
        await settle()
        XCTAssertEqual(model.unread, 0)
        XCTAssertNil(model.badge)
        XCTAssertEqual(model.session[device]?.map(\.body), [.text("one"), .text("two")])
        XCTAssertEqual(said, [ConnectionFailure.endedByDevice.message])
        XCTAssertFalse(model.canSend)
    }

    func testASentMessageGoesFromSendingToSentAndAFailedOneIsMarkedWithItsReasonThenRetried() async {
        let connector = FakeConnector()
        let chats = RecordingChats()
        let model = ConnectionViewModel(connector: connector, chats: chats)
        model.connect(to: device)
        await settle()
        model.send("hello")
        XCTAssertEqual(model.session[device]?.last?.delivery, .sending, "listed at once")
        await settle()
        XCTAssertEqual(model.session[device]?.last?.delivery, .sent)
        XCTAssertEqual(connector.sent, ["hello"])

        connector.sendFailure = .timedOut
        model.send("lost")
        await settle()
        let failed = model.session[device]!.last!
        XCTAssertEqual(failed.delivery, .notSent)
        XCTAssertEqual(model.failures[failed.id], ChatSendError.timedOut.message)
        connector.sendFailure = nil
        model.retry(failed.id)
        await settle()
        XCTAssertEqual(model.session[device]?.last?.delivery, .sent)
        XCTAssertNil(model.failures[failed.id])
        XCTAssertEqual(connector.sent, ["hello", "lost"])
        await model.flush()
        let deliveries = await chats.deliveries.filter { $0.0 == failed.id }.map(\.1)
        XCTAssertEqual(deliveries, [.notSent, .sending, .sent], "the store follows every change")
    }

    func testABurstIsStoredInOrderInAFewBatches() async {
        let connector = FakeConnector()
        let chats = RecordingChats()
        let model = ConnectionViewModel(connector: connector, chats: chats)
        model.connect(to: device)
        await settle()
        for i in 0..<150 { connector.receive("message \(i)") }
        await settle()
        await model.flush()
        let batches = await chats.batches
        XCTAssertLessThanOrEqual(batches.count, 3, "one transaction per burst, not one per message")
        XCTAssertEqual(batches.flatMap { $0 }.map(\.body), (0..<150).map { .text("message \($0)") })
    }

    func testAStoreThatFailsIsSaidAndTheMessagesStayListed() async {
        let connector = FakeConnector()
        let chats = RecordingChats()
        await chats.fail()
        let model = ConnectionViewModel(connector: connector, chats: chats)
        var problems: [String] = []
        model.onStoreProblem = { problems.append($0) }
        model.connect(to: device)
        await settle()
        connector.receive("kept")
        await settle()
        await model.flush()
        await settle()
        XCTAssertEqual(problems.count, 1)
        XCTAssertTrue(problems[0].contains("could not be saved"))
        XCTAssertEqual(model.session[device]?.map(\.body), [.text("kept")])
    }
}
