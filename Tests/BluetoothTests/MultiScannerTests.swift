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
        let heard = Heard()
        let tasks = [
            Task { for await o in several.observations { await heard.add(o) } },
            Task { for await s in several.states { await heard.add(s) } },
        ]
        defer { tasks.forEach { $0.cancel() } }
        several.start()
        hall.set(.failed(.disconnected("the board went away")))
        here.feed(Observation(id: id, timestamp: Date(), rssi: -50))
        for _ in 0..<200 where await heard.table.devices.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
        let device = await heard.table.devices[id]
        XCTAssertEqual(device?.sources.map(\.name), ["This Computer"], "named by the source that heard it")
        let last = await heard.states.last
        XCTAssertEqual(last, .scanning, "one source failing stops nothing")
        let hallStatus = several.sourceStatuses.first { $0.name == "Hall" }
        XCTAssertTrue(hallStatus?.words.contains("the board went away") ?? false, "\(String(describing: hallStatus?.words))")

        here.set(.failed(.unavailable("no adapter")))
        for _ in 0..<200 { if case .failed? = await heard.states.last { break }; try await Task.sleep(for: .milliseconds(10)) }
        guard case .failed(let failure)? = await heard.states.last else { return XCTFail("all failed is a failure") }
        XCTAssertTrue(failure.message.contains("Hall") && failure.message.contains("This Computer"), failure.message)
    }

    func testNotHeardSinceIsSaidOnceASourceFallsSilent() {
        let old = Date().addingTimeInterval(-300)
        let status = SourceStatus(name: "Kitchen", state: .scanning, lastHeard: old)
        XCTAssertTrue(status.words.hasPrefix("Kitchen · not heard since "), status.words)
        XCTAssertEqual(SourceStatus(name: "Kitchen", state: .scanning, lastHeard: Date()).words, "Kitchen · connected")
    }
}

/// A scanner's reports and states, as they come.
actor Heard {
    var table = DeviceTable()
    var states: [ScannerState] = []
    func add(_ o: Observation) { table.add(o) }
    func add(_ s: ScannerState) { states.append(s) }
}
