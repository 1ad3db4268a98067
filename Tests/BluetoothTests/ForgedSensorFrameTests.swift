// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Bluetooth
import Domain
import Foundation
import SecurityToolbox
import TestSupport
import XCTest

/// A freezer's encrypted BTHome sensor, and someone in range who sends a calm figure from its
/// address without encryption, then replays one of its old frames: with the key known, the app
/// and `favblue-scan` show only what the key opened, newest first, and the history holds no
/// refused frame.
final class ForgedSensorFrameTests: XCTestCase {
    private let key: [UInt8] = Array(0x20..<0x30)
    private let address: [UInt8] = [0xC0, 0x11, 0x22, 0x33, 0x44, 0x55]
    private var shown: String { address.map { String(format: "%02X", $0) }.joined(separator: ":") }

    private func ad(_ readings: BTHomeReadings) -> [UInt8] {
        let data = readings.serviceData(address: address, sealer: SensorKeyring())!
        return [0x02, 0x01, 0x06, UInt8(data.count + 3), 0x16, 0xD2, 0xFC] + data
    }

    /// The freezer at −18.25 °C (counter 500); a plain 21 °C from its address; its own frame of
    /// counter 300 (5 °C) replayed; then its next frame, −18.5 °C (counter 501). Twelve seconds apart.
    private func capture() throws -> String {
        let frames = [
            ad(BTHomeReadings(temperature: -18.25, humidity: 60, battery: 80, key: key, counter: 500)),
            ad(BTHomeReadings(temperature: 21, humidity: 45, battery: 100)),
            ad(BTHomeReadings(temperature: 5, humidity: 70, battery: 80, key: key, counter: 300)),
            ad(BTHomeReadings(temperature: -18.5, humidity: 61, battery: 80, key: key, counter: 501)),
        ]
        return try TickCapture.write(timed: frames.enumerated().map { (Double($0.offset) * 12, $0.element, address) },
                                     prefix: "forged")
    }

    func testTheAppShowsOnlyWhatTheKeyOpenedAndSaysAPlainFrameWasIgnored() async throws {
        let path = try capture()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let keys = LiveSensorKeyring()
        keys.set(key, for: shown)
        let live = await MainActor.run {
            let live = LiveDevices(makeScanner: { _ in ReplayScanner(path: path, realTime: false) }, sightings: nil,
                                   refreshesPerSecond: 50, now: { .distantPast })
            live.sensorKeys = keys
            return live
        }
        // Every figure the pages could have shown, fold by fold.
        let shownFigures = Figures()
        let token = await MainActor.run {
            live.observe { _ in
                if let id = live.all.keys.first, let t = live.sensor(of: id)?.readings.first(where: { $0.quantity == .temperature }) {
                    shownFigures.note(t.value)
                }
            }
        }
        await MainActor.run { live.start(mode: .continuous) }
        let playedOut = await playOut(live)
        XCTAssertTrue(playedOut)
        let (sensor, history) = await MainActor.run { () -> (SensorData?, [SensorSample]) in
            let id = live.all.keys.first!
            return (live.sensor(of: id), live.recentReadings(of: id))
        }
        let seen = await MainActor.run { _ = token; return shownFigures.values }
        let data = try XCTUnwrap(sensor)
        XCTAssertEqual(data.readings.first { $0.quantity == .temperature }?.value, -18.5)
        XCTAssertTrue(data.plaintextIgnored)
        XCTAssertFalse(seen.contains(21), "the plain frame was shown: \(seen)")
        XCTAssertFalse(seen.contains(5), "the replayed frame was shown: \(seen)")
        let temperatures = history.filter { $0.key == "temperature" }.map(\.value)
        XCTAssertFalse(temperatures.isEmpty, "the history has samples")
        XCTAssertEqual(Set(temperatures).subtracting([-18.25, -18.5]), [], "the history holds a refused frame: \(temperatures)")
    }

    @MainActor private final class Figures: Sendable {
        var values: [Double] = []
        func note(_ value: Double) { if values.last != value { values.append(value) } }
    }

    func testTheCommandPrintsTheBelievedFigureAndSaysWhatItRefusedUnderVerbose() throws {
        let path = try capture()
        let keysFile = NSTemporaryDirectory() + "forged-keys-\(UUID().uuidString)"
        try "\(shown) \(key.map { String(format: "%02x", $0) }.joined())\n".write(toFile: keysFile, atomically: true, encoding: .utf8)
        defer {
            try? FileManager.default.removeItem(atPath: path)
            try? FileManager.default.removeItem(atPath: keysFile)
        }
        let (status, out, err) = try runTool(scanToolPath, ["--source", "btsnoop:\(path)", "--fast", "--format", "json",
                                                            "--sensor-keys", keysFile, "--verbose"])
        XCTAssertEqual(status, 0, err)
        XCTAssertTrue(out.contains("\"temperature\":-18.5"), out)
        XCTAssertFalse(out.contains("\"temperature\":21"), out)
        XCTAssertTrue(err.contains("\(shown): a frame without encryption was ignored: its key is known"), err)
        XCTAssertTrue(err.contains("\(shown): a frame with encryption counter 300 was refused: 500 was heard before"), err)
        // Without the key the plain frame is all there is to read, and it is read.
        let (_, plain, _) = try runTool(scanToolPath, ["--source", "btsnoop:\(path)", "--fast", "--format", "json"])
        XCTAssertFalse(plain.contains("\"temperature\":-18.5"), plain)
    }
}
