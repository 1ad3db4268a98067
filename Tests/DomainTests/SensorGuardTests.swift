// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import XCTest

/// The rules a keyed sensor's frames are judged by, frame by frame, as bthome-ble and
/// xiaomi-ble judge them.
final class SensorGuardTests: XCTestCase {
    private let start = Date(timeIntervalSince1970: 1_800_000_000)

    private func frame(_ celsius: Double, counter: UInt32? = nil, packet: Int? = nil, sealed: Bool = true) -> SensorData {
        var data = SensorData(model: SensorModel(maker: "BTHome", model: "v2"), readings: [SensorReading(.temperature, celsius, decimals: 2)])
        data.sealed = sealed
        data.counter = counter
        data.packetID = packet
        return data
    }

    private func temperature(_ judge: SensorGuard) -> Double? { judge.shown?.readings.first?.value }

    func testARepeatedPacketIDIsDroppedWithinFourSecondsAndANewOneIsBelieved() {
        var judge = SensorGuard()
        XCTAssertEqual(judge.take(frame(4, packet: 7), at: start), .believed)
        XCTAssertEqual(judge.take(frame(30, packet: 7), at: start + 1), .packetRepeated(7))
        XCTAssertEqual(judge.take(frame(30, packet: 6), at: start + 2), .packetRepeated(6), "an older packet")
        XCTAssertEqual(temperature(judge), 4)
        XCTAssertEqual(judge.take(frame(5, packet: 8), at: start + 3), .believed)
        XCTAssertEqual(judge.take(frame(6, packet: 2), at: start + 4), .packetRepeated(2), "8 → 2 is behind, not 250 ahead")
    }

    func testASealedFrameWithOneReadingKeepsTheReadingsBelievedBefore() {
        // A MiBeacon thermometer seals one object a frame: the temperature, then the humidity.
        var judge = SensorGuard()
        let model = SensorModel(maker: "Xiaomi", model: "LYWSD03MMC")
        func sealed(_ reading: SensorReading, counter: UInt32) -> SensorData {
            var data = SensorData(model: model, readings: [reading])
            data.sealed = true
            data.partial = true
            data.counter = counter
            return data
        }
        judge.take(sealed(SensorReading(.temperature, 21.4, decimals: 1), counter: 1000), at: start)
        judge.take(sealed(SensorReading(.humidity, 48, decimals: 1), counter: 1001), at: start + 1)
        XCTAssertEqual(judge.shown?.readings.map(\.value), [21.4, 48])
        XCTAssertEqual(judge.take(sealed(SensorReading(.temperature, 99, decimals: 1), counter: 900), at: start + 2), .counterFell(from: 1001, to: 900))
        XCTAssertEqual(judge.shown?.readings.map(\.value), [21.4, 48], "a refused frame adds nothing either")
    }

    func testAPacketIDAfterFourSilentSecondsIsANewPacketAndTheNumberWraps() {
        var judge = SensorGuard()
        judge.take(frame(4, packet: 255), at: start)
        XCTAssertEqual(judge.take(frame(5, packet: 1), at: start + 1), .believed, "255 → 1 is two ahead")
        XCTAssertEqual(judge.take(frame(6, packet: 1), at: start + 6), .believed, "the same number, seconds later, is a new packet")
    }

    func testAFallingCounterIsRefusedUnlessTheSensorRestarted() {
        var judge = SensorGuard()
        XCTAssertEqual(judge.take(frame(-18, counter: 5000), at: start), .believed)
        XCTAssertEqual(judge.take(frame(-18, counter: 5000), at: start + 1), .repeated)
        XCTAssertEqual(judge.take(frame(4, counter: 4000), at: start + 2), .counterFell(from: 5000, to: 4000))
        XCTAssertEqual(temperature(judge), -18)
        XCTAssertEqual(judge.take(frame(-17, counter: 3), at: start + 3), .believed, "a counter below 100 is a restart")
        XCTAssertEqual(judge.take(frame(-16, counter: 4), at: start + 4), .believed)
    }

    func testAPlainFrameIsIgnoredAndSaidWhileAPlainFrameWithNothingToReadIsNot() {
        var judge = SensorGuard()
        XCTAssertEqual(judge.take(SensorData(model: SensorModel(maker: "Xiaomi", model: "LYWSD03MMC")), at: start), .repeated)
        XCTAssertNil(judge.shown, "a model alone is nothing to believe or refuse")
        XCTAssertEqual(judge.take(frame(21, sealed: false), at: start + 1), .plaintextIgnored)
        XCTAssertEqual(judge.shown?.readings, [], "nothing believed yet")
        XCTAssertEqual(judge.shown?.plaintextIgnored, true)
        judge.take(frame(-18, counter: 9), at: start + 2)
        XCTAssertEqual(temperature(judge), -18)
        XCTAssertEqual(judge.shown?.plaintextIgnored, true, "said until the key changes")
    }

    func testAFrameTheKeyNoLongerOpensIsRefusedOnceTheKeyHasOpenedOne() {
        var judge = SensorGuard()
        let unopened = SensorData(model: nil, encrypted: true, wrongKey: true)
        XCTAssertEqual(judge.take(unopened, at: start), .wrongKey)
        XCTAssertEqual(judge.shown?.wrongKey, true, "a wrong key is said")
        judge.take(frame(-18, counter: 9), at: start + 1)
        XCTAssertEqual(judge.take(unopened, at: start + 2), .checkFailed)
        XCTAssertEqual(temperature(judge), -18, "a forged sealed frame does not hide the readings")
    }
}
