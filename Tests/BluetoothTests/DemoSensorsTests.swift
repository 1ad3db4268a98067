// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

@testable import Bluetooth
import Domain
import Foundation
import SecurityToolbox
import XCTest

/// The demo's sensors send what real ones send: each family's decoder reads them, the freezer
/// only with the key the guide gives, and the figures drift slowly rather than jump.
final class DemoSensorsTests: XCTestCase {
    /// What the sensors' reports at `time` say, device by device, as the live list merges them.
    private func heard(at time: Date, sealer: PayloadSealer? = SensorKeyring()) throws -> [DeviceID: AdvertisedData] {
        var devices: [DeviceID: AdvertisedData] = [:]
        for event in DemoSensors.advertisingEvents(at: time, sealer: sealer) {
            for observation in try ObservationDecoder.observations(inEvent: event[...], at: time) {
                devices[observation.id, default: AdvertisedData()].merge(observation)
            }
        }
        return devices
    }

    private func decoded(_ name: String, in devices: [DeviceID: AdvertisedData], keys: SensorKeys? = nil) throws -> SensorData {
        let (id, data) = try XCTUnwrap(devices.first { $0.value.name == name }, "\(name) is heard")
        return try XCTUnwrap(SensorDecoders.decode(data, address: id.address, keys: keys), "\(name) is read")
    }

    private func value(_ data: SensorData, _ key: String) -> Double? { data.readings.first { $0.quantity.key == key }?.value }

    func testEachFamilyIsReadByItsOwnDecoderWithItsNameFromTheAdvertisementOrTheScanResponse() throws {
        let devices = try heard(at: Date(timeIntervalSince1970: 1_800_000_000))
        let makers = try ["Greenhouse", "GVH5075_8F2A", "Ruuvi 3C4D", "ATC_8E3F"].map { try decoded($0, in: devices).model }
        XCTAssertEqual(makers.map { $0?.maker }, ["BTHome", "Govee", "Ruuvi", "Xiaomi"])
        let greenhouse = try decoded("Greenhouse", in: devices)
        XCTAssertEqual(value(greenhouse, "battery"), 87)
        let temperature = try XCTUnwrap(value(greenhouse, "temperature"))
        XCTAssertTrue((22.5...27.5).contains(temperature), "\(temperature) °C")
        let ruuvi = try decoded("Ruuvi 3C4D", in: devices)
        XCTAssertEqual(ruuvi.readings.map(\.quantity.key).sorted(), ["humidity", "movement_counter", "pressure", "temperature", "voltage"])
        XCTAssertEqual(value(ruuvi, "voltage"), 2.95)
    }

    func testTheFreezerIsReadOnlyWithTheKeyTheGuideGives() throws {
        let devices = try heard(at: Date(timeIntervalSince1970: 1_800_000_000))
        let locked = try decoded("Freezer", in: devices)
        XCTAssertTrue(locked.encrypted)
        XCTAssertTrue(locked.readings.isEmpty, "no figures without the key")
        let address = try XCTUnwrap(devices.first { $0.value.name == "Freezer" }).key.address
        let key = try XCTUnwrap(SensorKeyFile.parse("\(address) \(DemoSensors.freezerKeyText)")[address])
        let opened = try decoded("Freezer", in: devices, keys: SensorKeyring([address: key]))
        let temperature = try XCTUnwrap(value(opened, "temperature"))
        XCTAssertTrue((-19.5...(-17)).contains(temperature), "\(temperature) °C")
        XCTAssertTrue(try heard(at: Date(), sealer: nil).values.allSatisfy { $0.name != "Freezer" },
                      "with nothing to seal its frames, the freezer is not heard rather than heard wrong")
    }

    func testReadingsDriftSlowlyAMinuteApart() throws {
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let before = try decoded("GVH5075_8F2A", in: heard(at: start))
        let after = try decoded("GVH5075_8F2A", in: heard(at: start.addingTimeInterval(60)))
        let change = abs((value(after, "temperature") ?? 0) - (value(before, "temperature") ?? 0))
        XCTAssertLessThanOrEqual(change, 0.3, "a minute moves a room's temperature a little")
        let later = try decoded("GVH5075_8F2A", in: heard(at: start.addingTimeInterval(600)))
        XCTAssertNotEqual(value(later, "temperature"), value(before, "temperature"), "and ten minutes show it moving")
    }
}

/// The demo's kitchen gateway: heard while it runs, the freezer stronger than this computer
/// hears it and the fridge that only the kitchen hears; silent once stopped.
final class DemoGatewayTests: XCTestCase {
    func testTheKitchenHearsTheFreezerCloseByAndAFridgeThisComputerCannotThenFallsSilent() async throws {
        let gateway = DemoGateway(interval: 0.05, sealer: SensorKeyring())
        let observations = gateway.observations
        gateway.start()
        var heard: [String: [Int]] = [:]
        for await o in observations {
            if let name = o.name, let rssi = o.rssi { heard[name, default: []].append(rssi) }
            if heard.count == 2, heard.values.allSatisfy({ $0.count >= 3 }) { break }
        }
        XCTAssertEqual(Set(heard.keys), ["Freezer", "Fridge"])
        XCTAssertTrue(heard["Freezer"]!.allSatisfy { (-48 ... -44).contains($0) }, "\(heard)")
        let own = try DemoSensors.advertisingEvents(at: Date(), sealer: SensorKeyring()).flatMap {
            try ObservationDecoder.observations(inEvent: $0[...], at: Date())
        }
        XCTAssertFalse(own.contains { $0.name == "Fridge" }, "this computer's radio does not hear the fridge")
        XCTAssertTrue(own.contains { $0.name == "Freezer" && $0.rssi! < -60 }, "and hears the freezer weaker than the kitchen")
        gateway.stop()
        let states = gateway.states
        for await state in states { XCTAssertEqual(state, .paused); break }
    }
}
