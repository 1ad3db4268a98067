// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

@testable import Domain
import Foundation
import TestSupport
import XCTest

/// What a tapped reader heard, on whatever thread it runs.
private final class Heard: @unchecked Sendable {
    private let condition = NSCondition()
    private var values: [[UInt8]] = []

    func add(_ value: [UInt8]) {
        condition.withLock {
            values.append(value)
            condition.broadcast()
        }
    }

    /// Blocks its caller until something was heard or `seconds` pass, and returns what was.
    func first(within seconds: TimeInterval) -> [[UInt8]] {
        condition.withLock {
            let deadline = Date().addingTimeInterval(seconds)
            while values.isEmpty, condition.wait(until: deadline) {}
            return values
        }
    }
}

/// A tapped characteristic's notifications, handed to their reader off the main thread.
@MainActor
final class NotificationTapsTests: XCTestCase {
    private let device = TestDevices.id(7, kind: .leRandom)

    /// An upload's answers reach the Device Manager's reader while the main thread is busy
    /// (drawing, laying out): they do not wait for it, and the browser does not see them.
    func testATappedCharacteristicsNotificationsReachTheirReaderWhileTheMainThreadIsBusy() async {
        let connector = FakeConnector()
        let model = ChatSessions(connector: connector, chats: nil)
        var browsed: [[UInt8]] = []
        model.onNotified = { _, value, _ in browsed.append(value) }
        model.connect(to: device)
        await model.drain()
        let heard = Heard()
        model.taps.tap(0x0010, of: device) { value in heard.add(value) }
        connector.notify(0x0010, [1, 2, 3])
        connector.notify(0x0020, [9])
        // The main thread is held, blocked, until the reader has the answer (or 5 s pass).
        XCTAssertEqual(heard.first(within: 5), [[1, 2, 3]], "heard while the main thread was busy")
        await model.drain()
        XCTAssertEqual(browsed, [[9]], "the browser has the other characteristic's, not the tapped one's")
        model.taps.untap(0x0010)
        connector.notify(0x0010, [4])
        await model.drain()
        XCTAssertEqual(browsed, [[9], [4]], "untapped, it is the browser's again")
    }
}
