// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

@testable import Domain
import XCTest

/// One catalogue of quantities: every quantity a family sends is in it, a stored reading's key
/// is read back to its quantity and unit, and the keys are parsed in one place.
final class QuantityCatalogTests: XCTestCase {
    func testEveryQuantityAFamilySendsIsInTheCatalogue() {
        var sent = BTHome.objects.values.map(\.quantity)
        sent += [Tilt.gravity, OralB.brushing, OralB.duration, MiBeacon.formaldehyde, Mopeka.tankLevel, Mopeka.quality, Victron.current,
                 Victron.power, Victron.energy, BlueMaestro.dewPoint, SwitchBot.motion, SwitchBot.opening, SwitchBot.light,
                 SwitchBot.powerOn, SwitchBot.closed, SwitchBot.slatsOpen, SwitchBot.moving, SwitchBot.calibrated, SwitchBot.lightLevel,
                 BeeWi.opening, Otodata.tankFill, TPMS.tyrePressure, TPMS.wheel, TPMS.alarm,
                 INode.power, INode.energy, INode.flow, INode.metered, INode.batteryLow,
                 HeartRateBands.heartRate, Mokosmart.acceleration, Onset.level, NodOn.button, Oras.duration, Oras.water, Oras.energy, MiBand.steps, KSensor.acceleration]
        for quantity in sent {
            let info = quantity.info
            XCTAssertNotNil(info, "\(quantity.key) is in the catalogue")
            XCTAssertEqual(info?.quantity.kind, quantity.kind, quantity.key)
            XCTAssertFalse(info?.name().isEmpty ?? true, quantity.key)
        }
        // A format may send a quantity in another unit; the key, kind and name stay the catalogue's.
        XCTAssertEqual(BTHome.objects[0x07]?.quantity.unit, "lb")
        XCTAssertEqual(BTHome.objects[0x07]?.quantity.info?.quantity.unit, "kg")
        XCTAssertEqual(Set(QuantityCatalog.all.map(\.quantity.key)).count, QuantityCatalog.all.count, "each key once")
    }

    func testAStoredKeyIsReadBackToItsQuantityAndUnit() {
        // A history read back kept no unit for these.
        XCTAssertEqual(Quantity.named("tank_level").unit, "mm")
        XCTAssertEqual(Quantity.named("duration").unit, "s")
        XCTAssertEqual(Quantity.named("dew_point_2").unit, "°C")
        XCTAssertEqual(Quantity.named("uptime").unit, "s")
        XCTAssertEqual(Quantity.named("something_new").unit, "", "a key from another version: no unit guessed")
    }

    func testReadingKeysAreParsedAndWrittenInOnePlace() {
        XCTAssertEqual(ReadingKey(parsing: "carbon_dioxide_2"), ReadingKey("carbon_dioxide", slot: 2))
        XCTAssertEqual(ReadingKey(parsing: "carbon_dioxide"), ReadingKey("carbon_dioxide"))
        XCTAssertEqual(ReadingKey(parsing: "volume_storage"), ReadingKey("volume_storage"))
        XCTAssertEqual(ReadingKey(parsing: "temperature_10"), ReadingKey("temperature", slot: 10))
        XCTAssertEqual(ReadingKey(parsing: "pm25"), ReadingKey("pm25"))
        XCTAssertEqual(ReadingKey("temperature", slot: 3).description, "temperature_3")
        let data = SensorData(readings: [SensorReading(.temperature, 20), SensorReading(.temperature, 21), SensorReading(.humidity, 40)])
        XCTAssertEqual(data.keyed.map(\.0), [ReadingKey("temperature", slot: 1), ReadingKey("temperature", slot: 2), ReadingKey("humidity")])
        XCTAssertEqual(data.named.map(\.0), ["temperature_1", "temperature_2", "humidity"])
    }

    func testARowsMainReadingsKeepTheirOrder() {
        XCTAssertEqual(QuantityCatalog.mainKeys, ["tank_level", "tank_fill", "water_level", "temperature", "humidity", "carbon_dioxide", "pm25", "moisture", "pressure",
                                                  "illuminance", "conductivity", "weight", "volume_remaining", "tyre_pressure", "closed", "slats_open", "opening", "door", "window", "motion",
                                                  "brushing", "heart_rate", "steps", "duration", "battery"])
        XCTAssertEqual(QuantityCatalog.all.filter(\.namedInSummary).map(\.quantity.key), ["tank_level", "tank_fill", "water_level", "volume_remaining", "tyre_pressure", "closed", "slats_open", "heart_rate",
                                                                                        "steps", "duration", "battery"])
        XCTAssertEqual(Quantity.known("dew_point").info?.deviceClass, "temperature", "Home Assistant's class for a dew point")
    }
}
