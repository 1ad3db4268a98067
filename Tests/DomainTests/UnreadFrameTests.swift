// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import XCTest

/// Families that send a few readings a frame, folded report by report with no one reading them
/// in between (a busy room, a row scrolled away): what is read at last is what a read after each
/// frame would have shown, though a frame that a later one carries all of is never decoded.
final class UnreadFrameTests: XCTestCase {
    private func values(_ data: SensorData?) -> [String: Double] {
        Dictionary(uniqueKeysWithValues: (data?.named ?? []).map { ($0.0, $0.1.value) })
    }

    /// A LYWSD03MMC's MiBeacon v5 frame without its address: packet `n`, then one object.
    private func mi(_ n: UInt8, _ object: String) -> Observation {
        let id = DeviceID(octets: [0xA4, 0xC1, 0x38, 0x00, 0x00, 0x01], kind: .lePublic)
        let hex = "4050" + "5b05" + String(format: "%02x", n) + object
        return Observation(id: id, timestamp: Date(), rssi: -60, serviceData: [ServiceID(BluetoothUUID(0xFE95), name: nil): Hex.bytes(hex)!])
    }

    func testMiBeaconFramesFoldedUnreadGiveTheNewestOfEachReading() {
        // Temperature 0x1004 (tenths), humidity 0x1006 (tenths), battery 0x100A (percent).
        var unread = AdvertisedData(mi(1, "041002d200"))           // 21.0 °C
        var readEachTime = unread
        XCTAssertEqual(values(readEachTime.sensor), ["temperature": 21.0])
        for (n, object) in [(2, "061002e001"), (3, "0a100150"), (4, "041002d700"), (5, "061002ea01"), (6, "041002dc00")] {
            unread.merge(mi(UInt8(n), object))
            readEachTime.merge(mi(UInt8(n), object))
            _ = readEachTime.sensor
        }
        XCTAssertEqual(values(unread.sensor), ["temperature": 22.0, "humidity": 49.0, "battery": 80])
        XCTAssertEqual(values(unread.sensor), values(readEachTime.sensor))
    }

    func testAnH5178sRemoteSensorHeardOnceOutlivesManyUnreadFramesOfItsOwn() {
        let id = DeviceID(octets: [0xC4, 0x7C, 0x8D, 0x00, 0x01, 0x09], kind: .lePublic)
        func frame(_ hex: String) -> Observation {
            Observation(id: id, timestamp: Date(), rssi: -60, manufacturerData: [ManufacturerData(companyID: 0x0001, companyName: "", data: Hex.bytes(hex)!)])
        }
        var h5178 = AdvertisedData(frame("010100" + "0345d6" + "50" + "0000"))
        h5178.merge(frame("010101" + "8345d6" + "4b" + "0000"))  // the remote sensor, once
        for tenth in 0..<20 {
            // Its own readings, 21.4 °C and up by a tenth each frame, humidity 48.6 %.
            let packed = (214 + tenth) * 1000 + 486
            h5178.merge(frame("010100" + String(format: "%06x", packed) + "50" + "0000"))
        }
        XCTAssertEqual(values(h5178.sensor), ["temperature_1": 23.3, "humidity_1": 48.6, "battery_1": 80,
                                              "temperature_2": -21.4, "humidity_2": 48.6, "battery_2": 75])
    }

    func testAFrameWhoseObjectsCannotBeToldStillJoinsTheFold() {
        // Five objects in one frame: more than are told apart without decoding, so it is decoded in turn.
        // Battery 80 %, humidity 48.0 %, 300 lx, moisture 30 %, conductivity 500 µS/cm, then two temperatures.
        var unread = AdvertisedData(mi(1, "0a100150" + "061002e001" + "0710032c0100" + "0810011e" + "091002f401"))
        unread.merge(mi(2, "041002d200"))
        unread.merge(mi(3, "041002d700"))
        XCTAssertEqual(values(unread.sensor), ["battery": 80, "humidity": 48.0, "illuminance": 300, "moisture": 30,
                                               "conductivity": 500, "temperature": 21.5])
    }
}
