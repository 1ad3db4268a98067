// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import XCTest
@testable import ViewModels

final class SplashViewModelTests: XCTestCase {
    func testZeroDurationMeansNoSplash() async {
        await MainActor.run {
            let model = SplashViewModel(durationMs: 0)
            XCTAssertFalse(model.isShowing)
        }
    }

    func testSplashEndsAfterItsDuration() async {
        let asked = Recorder()
        let model = await MainActor.run {
            SplashViewModel(durationMs: 2000, sleep: { ms in await asked.record(ms) })
        }
        let ended = expectation(description: "splash ended")
        let token = await MainActor.run { () -> ObservationToken in
            XCTAssertTrue(model.isShowing)
            let token = model.observe { ended.fulfill() }
            model.start()
            return token
        }
        await fulfillment(of: [ended], timeout: 2)
        let waited = await asked.values
        await MainActor.run {
            XCTAssertFalse(model.isShowing)
            XCTAssertEqual(waited, [2000], "waits exactly the configured milliseconds")
            token.invalidate()
        }
    }

    func testSkipEndsTheSplashAtOnceAndOnlyOnce() async {
        await MainActor.run {
            let model = SplashViewModel(durationMs: 60_000)
            var endings = 0
            let token = model.observe { endings += 1 }
            model.start()
            model.skip()
            model.skip()
            XCTAssertFalse(model.isShowing)
            XCTAssertEqual(endings, 1)
            token.invalidate()
        }
    }
}

private actor Recorder {
    var values: [Int] = []
    func record(_ value: Int) { values.append(value) }
}
