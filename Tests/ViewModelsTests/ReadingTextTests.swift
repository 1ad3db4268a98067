// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import ViewModels
import XCTest

/// A row's summary for sensors that are not thermometers: what a bare figure would not say is
/// named, and states read as words.
final class ReadingTextTests: XCTestCase {
    func testATankSensorsLevelComesFirstAndNamed() {
        let data = SensorData(model: nil, readings: [
            SensorReading(.temperature, 21), SensorReading(Quantity("tank_level", "mm"), 380), SensorReading(.battery, 90),
        ])
        // The temperature in the unit the test's locale reads (°F where LC_MEASUREMENT is American).
        let temperature = ReadingText.value(SensorReading(.temperature, 21))
        XCTAssertEqual(ReadingText.summary(data), "Tank level 380 mm · \(temperature) · Battery 90 %")
    }

    func testAConvertedTemperatureKeepsNoDigitTheSensorNeverHad() {
        XCTAssertEqual(ReadingText.value(SensorReading(.temperature, 21.40, decimals: 2), fahrenheit: true), "70.5 °F")
        XCTAssertEqual(ReadingText.value(SensorReading(.temperature, 25.06, decimals: 2), fahrenheit: true), "77.1 °F")
        XCTAssertEqual(ReadingText.value(SensorReading(.temperature, 21), fahrenheit: true), "70 °F")
        XCTAssertEqual(ReadingText.value(SensorReading(.temperature, 21.40, decimals: 2), fahrenheit: false), "21.40 °C")
    }

    func testAToothbrushAndAContactSensorReadInWords() {
        let brush = SensorData(readings: [SensorReading(Quantity("duration", "s"), 62), SensorReading(Quantity("brushing", kind: .binary), 1)])
        XCTAssertEqual(ReadingText.summary(brush), "Brushing · Duration 62 s")
        let contact = SensorData(readings: [
            SensorReading(Quantity("opening", kind: .binary), 1), SensorReading(Quantity("motion", kind: .binary), 0),
            SensorReading(Quantity("light", kind: .binary), 1), SensorReading(.battery, 60),
        ])
        XCTAssertEqual(ReadingText.summary(contact), "Open · No motion · Battery 60 %")
        XCTAssertEqual(ReadingText.text(contact.readings[2]), "Bright")
    }

    func testACurtainABlindAndABotSayWhereTheyStandInWords() {
        let curtain = SensorData(readings: [
            SensorReading(.known("closed"), 25), SensorReading(.known("moving"), 1), SensorReading(.known("light_level"), 7),
            SensorReading(.known("calibrated"), 0), SensorReading(.battery, 76),
        ])
        XCTAssertEqual(ReadingText.summary(curtain), "Closed 25 % · Battery 76 %")
        XCTAssertEqual(ReadingText.text(curtain.readings[1]), "Moving")
        XCTAssertEqual(ReadingText.text(curtain.readings[3]), "Not calibrated")
        let blind = SensorData(readings: [SensorReading(.known("slats_open"), 30), SensorReading(.battery, 60)])
        XCTAssertEqual(ReadingText.summary(blind), "Open 30 % · Battery 60 %")
        XCTAssertEqual(ReadingText.text(SensorReading(.known("power_on"), 1)), "Switched on")
        XCTAssertEqual(ReadingText.text(SensorReading(.known("power_on"), 0)), "Switched off")
    }
}
