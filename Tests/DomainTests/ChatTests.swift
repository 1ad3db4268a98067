// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import XCTest

final class UnreadBadgeTests: XCTestCase {
    func testNoUnreadMessagesShowsNoBadge() {
        XCTAssertNil(UnreadBadge.text(for: 0))
        XCTAssertNil(UnreadBadge.text(for: -3), "a count that went wrong never shows a negative badge")
    }

    func testOneToNinetyNineShowTheNumber() {
        XCTAssertEqual(UnreadBadge.text(for: 1), "1")
        XCTAssertEqual(UnreadBadge.text(for: 42), "42")
        XCTAssertEqual(UnreadBadge.text(for: 99), "99")
    }

    func testOneHundredOrMoreShowDots() {
        XCTAssertEqual(UnreadBadge.text(for: 100), "...")
        XCTAssertEqual(UnreadBadge.text(for: 150), "...")
        XCTAssertEqual(UnreadBadge.text(for: 1_000_000), "...")
    }
}

final class ChatMessageTests: XCTestCase {
    func testValidUTF8BecomesText() {
        XCTAssertEqual(ChatBody(decoding: Array("grüß dich 👋".utf8)), .text("grüß dich 👋"))
    }

    func testBytesThatAreNotUTF8AreKeptAsBytes() {
        let raw: [UInt8] = [0x68, 0xC3, 0x28, 0xFF]
        XCTAssertEqual(ChatBody(decoding: raw), .bytes(raw))
        XCTAssertEqual(ChatBody(decoding: raw).bytes, raw, "the bytes survive unchanged")
    }

    func testAMessageKeepsItsIdentityWhenItsDeliveryChanges() {
        let device = DeviceID(octets: [0xF0, 0xF1, 0xF2, 0xF3, 0xF4, 0xF5], kind: .leRandom)
        var message = ChatMessage(device: device, direction: .outgoing, body: .text("hi"), time: Date(), delivery: .sending)
        let id = message.id
        message.delivery = .notSent
        XCTAssertEqual(message.id, id)
        XCTAssertEqual(message.delivery, .notSent)
    }
}

final class ConnectionStateTests: XCTestCase {
    private let device = DeviceID(octets: [0xF0, 0xF1, 0xF2, 0xF3, 0xF4, 0xF5], kind: .leRandom)

    func testOnlyAConnectionWithAChatServiceCanChat() {
        XCTAssertTrue(ConnectionState.connected(device, service: .chat).canChat)
        XCTAssertFalse(ConnectionState.connected(device, service: nil).canChat)
        XCTAssertFalse(ConnectionState.connecting(device).canChat)
        XCTAssertFalse(ConnectionState.failed(.endedByDevice).canChat)
    }

    func testEveryFailureHasAPlainWordsMessage() {
        let failures: [ConnectionFailure] = [.noAnswer(seconds: 10), .linkLost, .endedByDevice, .notEstablished(code: 0x3E),
                                             .controller(code: 0x0C), .adapterGone("127.0.0.1:9 closed the connection"),
                                             .protocolError("no answer"), .notSupported("Use BlueZ."), .other(code: 0x3B)]
        for failure in failures {
            XCTAssertFalse(failure.message.isEmpty, "\(failure)")
            XCTAssertFalse(failure.message.contains("{}"), "\(failure): \(failure.message)")
        }
        XCTAssertEqual(ConnectionFailure.noAnswer(seconds: 10).message, "The device did not answer within 10 seconds.")
        XCTAssertEqual(ConnectionFailure.controller(code: 0x0C).message, "The Bluetooth adapter refused to connect (error 0x0C).")
    }

    func testTheStateNamesItsDevice() {
        XCTAssertEqual(ConnectionState.connecting(device).device, device)
        XCTAssertNil(ConnectionState.idle.device)
        XCTAssertEqual(ConnectionState.connected(device, service: nil).summary, "Connected, no chat service")
    }
}
