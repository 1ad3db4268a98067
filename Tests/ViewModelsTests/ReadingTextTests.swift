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
}
