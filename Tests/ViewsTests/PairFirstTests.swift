// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import GtkKit
import TestSupport
import ViewModels
import Views
import XCTest

final class PairFirstTests: XCTestCase {
    /// A device that refuses the connection until it is paired: Pair becomes the next step, and
    /// the keyboard focus goes there, so Enter pairs (issue 33, item 3).
    func testADeviceThatWantsToBePairedFirstPutsTheKeyboardOnPair() {
        MainActor.assumeIsolated {
            let id = try! DeviceID(parsing: "F0:F1:F2:F3:F4:F5", kind: .leRandom)
            let connector = FakeConnector()
            let sessions = ChatSessions(connector: connector, chats: nil)
            let pairing = Pairing(pairer: FakePairer(), mover: nil)
            WindowHarness.run(splashMs: 0, chats: sessions, pairing: pairing) { window in
                window.showDetail(of: id)
                let page = try XCTUnwrap(window.visiblePage as? DeviceDetailPage)
                sessions.connect(to: id)
                await sessions.drain()
                XCTAssertFalse(page.pairingHasFocus)
                connector.drop(.needsPairing)
                await sessions.drain()
                let focused = await WindowHarness.wait(3) { page.pairingHasFocus }
                XCTAssertTrue(focused, "the focus is on Pair")
                XCTAssertTrue(page.connectionNote?.hasSuffix(ConnectionFailure.needsPairing.message) == true, "\(page.connectionNote ?? "")")
            }
        }
    }
}
