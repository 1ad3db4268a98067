// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Bluetooth
import Domain
import Foundation
import XCTest

/// A paced replay waits between packets as the original did, and a stop ends the wait at once.
final class ReplayPacingTests: XCTestCase {
    private func capture(at seconds: [Double]) throws -> String {
        try TickCapture.write(at: seconds, prefix: "pacing")
    }

    func testStoppingDuringALongGapEndsTheReplayAtOnce() async throws {
        let path = try capture(at: [0, 4.5])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let replay = ReplayScanner(path: path, realTime: true)
        var states = replay.states.makeAsyncIterator()
        replay.start()
        while let state = await states.next(), state != .scanning {}
        // Real time on purpose: the replay is paced by the capture's own gaps, and stop must cut one short.
        try await Task.sleep(nanoseconds: 300_000_000)
        let asked = Date()
        replay.stop()
        while let state = await states.next(), state != .paused {}
        XCTAssertLessThan(Date().timeIntervalSince(asked), 1, "the 4.5 s wait for the next packet ends with the stop")
    }
}
