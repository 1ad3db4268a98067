// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Bluetooth
import Domain
import Foundation
import TestSupport
import XCTest

/// Several sources as one scanner: each report names the source that heard it, a source that
/// fails does not stop the others and is said, and only all failing is a failure.
final class MultiScannerTests: XCTestCase {
    private let id = DeviceID(octets: [0xC0, 0, 0, 0, 0, 1], kind: .leRandom)

    func testAFailingSourceDoesNotStopTheOthersAndIsSaid() async throws {
        let here = FakeScanner(), hall = FakeScanner()
        let several = MultiScanner([.init(name: "This Computer", scanner: here), .init(name: "Hall", scanner: hall)])
        let observations = several.observations
        several.start()
        hall.set(.failed(.disconnected("the board went away")))
        let scanning = await first(several.states) { $0 == .scanning }
        XCTAssertEqual(scanning, .scanning, "one source failing stops nothing")
        here.feed(Observation(id: id, timestamp: Date(), rssi: -50))
        let heard = await first(observations)
        XCTAssertEqual(heard?.id, id)
        XCTAssertEqual(heard?.source, "This Computer", "named by the source that heard it")

        here.set(.failed(.unavailable("no adapter")))
        let failed = await first(several.states) { if case .failed = $0 { return true } else { return false } }
        guard case .failed(let failure)? = failed else { return XCTFail("all failed is a failure") }
        XCTAssertTrue(failure.message.contains("Hall") && failure.message.contains("This Computer"), failure.message)
        let hallStatus = several.sourceStatuses.first { $0.name == "Hall" }
        XCTAssertTrue(hallStatus?.words.contains("the board went away") ?? false, "\(String(describing: hallStatus?.words))")
    }

    func testNotHeardSinceIsSaidOnceASourceFallsSilent() {
        let old = Date().addingTimeInterval(-300)
        let status = SourceStatus(name: "Kitchen", state: .scanning, lastHeard: old)
        XCTAssertTrue(status.words.hasPrefix("Kitchen · not heard since "), status.words)
        XCTAssertEqual(SourceStatus(name: "Kitchen", state: .scanning, lastHeard: Date()).words, "Kitchen · connected")
    }
}
