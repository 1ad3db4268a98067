// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import SecurityToolbox
import XCTest

/// The BTHome sensor FavBlue advertises, encrypted with a key it shows: FavBlue's own BTHome
/// reader opens it with that key and the advertising address, and refuses it with another key.
final class BTHomeSealingTests: XCTestCase {
    private func read(_ ad: Advertisement, address: String, key: [UInt8]) throws -> SensorData? {
        let data = try XCTUnwrap(ad.data.serviceData.first { $0.uuid == BluetoothUUID(0xFCD2) }?.data)
        let id = try DeviceID(parsing: address, kind: .leRandom)
        let heard = AdvertisedData(Observation(id: id, timestamp: Date(), rssi: -50, name: ad.data.localName,
                                               serviceData: [ServiceID(BluetoothUUID(0xFCD2), name: nil): data]))
        return SensorDecoders.decode(heard, address: address, keys: SensorKeyring([address: key]))
    }

    func testAnEncryptedSensorOpensWithItsKeyAndItsAddressOnly() throws {
        let key = Array(0..<16).map(UInt8.init)
        let address = "C0:11:22:33:44:55"
        let readings = BTHomeReadings(temperature: -18.25, humidity: 61.5, battery: 77, key: key, counter: 9)
        let ad = AdvertisingPreset.bthome.advertisement(name: "Freezer", readings: readings,
                                                        address: address.split(separator: ":").compactMap { UInt8($0, radix: 16) },
                                                        sealer: SensorKeyring())
        let sensor = try XCTUnwrap(try read(ad, address: address, key: key))
        XCTAssertFalse(sensor.wrongKey)
        XCTAssertEqual(sensor.readings.map { "\($0.quantity.key) \($0.value)" }.sorted(),
                       ["battery 77.0", "humidity 61.5", "temperature -18.25"])
        XCTAssertEqual(try read(ad, address: address, key: [UInt8](repeating: 1, count: 16))?.wrongKey, true)
        XCTAssertEqual(try read(ad, address: "C0:11:22:33:44:56", key: key)?.wrongKey, true, "the nonce holds the address")
    }
}
