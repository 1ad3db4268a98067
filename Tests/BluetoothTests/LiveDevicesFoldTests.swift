// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Bluetooth
import Domain
import Foundation
import TestSupport
import XCTest

/// The app's live-device model and the engine's device table fold the same reports by the
/// same rule: a real capture replayed into both gives the same devices, names, services,
/// companies and report counts.
final class LiveDevicesFoldTests: XCTestCase {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    private func assertSameFold(_ path: String, file: StaticString = #filePath, line: UInt = #line) async throws {
        let (table, end) = ReplayScanner(path: path, realTime: false).table()
        XCTAssertEqual(end, .finished, file: file, line: line)
        let live = await MainActor.run {
            // A fast replay carries the capture's own times: a clock at its start keeps every device live.
            LiveDevices(makeScanner: { _ in ReplayScanner(path: path, realTime: false) }, sightings: nil, refreshesPerSecond: 50,
                        now: { .distantPast })
        }
        await MainActor.run { live.start(mode: .continuous) }
        // The replay's last reports may still sit in the stream when it says it finished: playOut folds them.
        let playedOut = await playOut(live)
        XCTAssertTrue(playedOut, file: file, line: line)
        let devices = await MainActor.run { live.all }
        let engine = table.devices
        XCTAssertFalse(engine.isEmpty, "the capture has devices", file: file, line: line)
        XCTAssertEqual(Set(devices.keys), Set(engine.keys), file: file, line: line)
        for (id, aggregate) in engine {
            guard let device = devices[id] else { continue }
            XCTAssertEqual(device.advertised.name, aggregate.name, "\(id)", file: file, line: line)
            XCTAssertEqual(Set(device.advertised.services), Set(aggregate.services), "\(id)", file: file, line: line)
            XCTAssertEqual(Set(device.advertised.manufacturerData.map(\.companyID)),
                           Set(aggregate.advertised.manufacturerData.map(\.companyID)), "\(id)", file: file, line: line)
            XCTAssertEqual(device.advertised, aggregate.advertised, "\(id)", file: file, line: line)
            XCTAssertEqual(device.reports, aggregate.reports, "\(id)", file: file, line: line)
            XCTAssertEqual(device.rssi, aggregate.rssi, "\(id)", file: file, line: line)
        }
    }

    func testTheGoveeCaptureFoldsAlikeInTheAppAndTheEngine() async throws {
        try await assertSameFold(Self.root.appending(path: "Tests/Fixtures/captures/android-legacy-adverts-govee.btsnoop").path)
    }

    func testTheExtendedAdvertisingCaptureFoldsAlikeInTheAppAndTheEngine() async throws {
        try await assertSameFold(Self.root.appending(path: "Tests/Fixtures/captures/android-extended-adverts.btsnoop").path)
    }

    func testTheDemoCaptureFoldsAlikeInTheAppAndTheEngine() async throws {
        try await assertSameFold(Self.root.appending(path: "data/demo.btsnoop").path)
    }

    func testADeviceThatChangesItsAddressIsOneDeviceBesideTenIdenticalOnesInTheAppAndTheEngine() async throws {
        let path = try TickCapture.rotatingBandAndTenTags(prefix: "favblue-fold")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try await assertSameFold(path)
        let (table, _) = ReplayScanner(path: path, realTime: false).table()
        let band = DeviceID(octets: TickCapture.band[0], kind: .leRandom)
        XCTAssertEqual(table.devices.count, 11, "one band and ten tags: \(table.devices.keys.sorted())")
        XCTAssertEqual(table.devices[band]?.addresses, TickCapture.band.map { DeviceID(octets: $0, kind: .leRandom) })
        XCTAssertEqual(table.devices[band]?.reports, 60)
        let (apart, _) = ReplayScanner(path: path, realTime: false).table(perAddress: true)
        XCTAssertEqual(apart.devices.count, 13, "every address apart")
    }
}
