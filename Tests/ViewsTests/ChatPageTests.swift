// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import GtkKit
import TestSupport
import Views
import XCTest

final class ChatPageTests: XCTestCase {
    /// An open chat that messages keep coming into, long ones and short ones, through a dropped
    /// link and a new one, shows the newest message all along and keeps a bounded page.
    func testAnOpenChatFollowsTheNewestMessageThroughADropAndKeepsABoundedPage() {
        MainActor.assumeIsolated {
            let id = try! DeviceID(parsing: "F0:F1:F2:F3:F4:F5", kind: .lePublic)
            let connector = FakeConnector()
            let sessions = ChatSessions(connector: connector, chats: nil)
            WindowHarness.run(splashMs: 0, timeout: 120, chats: sessions) { window in
                sessions.connect(to: id)
                await sessions.drain()
                window.showChat(with: id)
                let page = try XCTUnwrap(window.visiblePage as? ChatPage)
                var n = 0
                @MainActor func burst(_ count: Int) async {
                    for _ in 0..<count {
                        n += 1
                        // Every ninth message wraps to several lines: rows differ in height.
                        let text = n % 9 == 0 ? "message \(n) " + String(repeating: "and more words ", count: 30) : "m\(n)"
                        sessions.send(text)
                        connector.receive("echo: " + text)
                    }
                    await sessions.drain()
                    // A frame or two between bursts, as GTK lays rows out while more arrive.
                    _ = await WindowHarness.wait(0.03) { false }
                }
                for _ in 0..<40 { await burst(10) }
                let followed = await WindowHarness.wait(5) { page.showsNewest }
                XCTAssertTrue(followed, "the newest message is in view after 800 went and came")

                let focused = await WindowHarness.wait(5) { page.composer.focused }
                XCTAssertTrue(focused, "the entry has the focus while connected")

                connector.drop(.linkLost)
                await sessions.drain()
                let stillShown = await WindowHarness.wait(5) { page.showsNewest }
                XCTAssertTrue(stillShown, "the note under the list after the drop does not hide the newest message")
                // The link is down: the entry stays open, with the focus, and Enter keeps the words.
                XCTAssertTrue(page.composer.editable, "the entry stays open while the link is down")
                XCTAssertTrue(page.composer.focused, "and keeps the focus")
                let sentBefore = connector.sent.count
                page.typeAndEnter("written while away")
                XCTAssertEqual(page.composer.text, "written while away", "Enter while not connected keeps the words")
                XCTAssertEqual(connector.sent.count, sentBefore, "nothing is sent while not connected")
                sessions.connect(to: id)
                await sessions.drain()
                page.typeAndEnter(page.composer.text)
                await sessions.drain()
                XCTAssertEqual(connector.sent.last, "written while away", "sent once connected again")
                XCTAssertEqual(page.composer.text, "")
                for _ in 0..<40 { await burst(10) }
                let followedAgain = await WindowHarness.wait(5) { page.showsNewest }
                XCTAssertTrue(followedAgain, "after reconnecting, the newest of 1,600 messages is in view")
                let rows = page.shownKeys.count
                XCTAssertLessThanOrEqual(rows, ChatPage.shownWhileFollowing + ChatPage.shownWhileFollowing / 4 + 10,
                                         "a chat following the newest lets its oldest rows go: \(rows) rows listed")
            }
        }
    }
}
