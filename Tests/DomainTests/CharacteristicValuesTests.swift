// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import Localization
import XCTest

/// The decoders, with values laid out as the GATT Specification Supplement defines them.
final class CharacteristicValuesTests: XCTestCase {
    private func decode(_ uuid: UInt16, _ bytes: [UInt8]) -> DecodedValue { CharacteristicValues.decode(uuid, bytes) }

    private func summary(_ uuid: UInt16, _ bytes: [UInt8]) -> String? {
        if case .decoded(let summary, _, _) = decode(uuid, bytes) { return summary }
        return nil
    }

    private func parts(_ uuid: UInt16, _ bytes: [UInt8]) -> [String: String] {
        guard case .decoded(_, let parts, _) = decode(uuid, bytes) else { return [:] }
        return Dictionary(parts.map { ($0.label, $0.value) }, uniquingKeysWith: { $1 })
    }

    func testBatteryLevelInPercentAndNothingAbove100() {
        XCTAssertEqual(summary(0x2A19, [87]), "87 %")
        XCTAssertEqual(decode(0x2A19, [101]), .notAValue("101 is not a battery level (0 to 100 %)."))
        XCTAssertEqual(decode(0x2A19, []), .tooShort(needs: 1, got: 0))
        XCTAssertEqual(decode(0x2A19, []).text, "Too short to read: this kind of value needs 1 byte, the device sent 0.")
    }

    func testHeartRateWithContactAndRRIntervals() {
        // uint8 rate 72, contact supported and detected, one RR interval of 768/1024 s.
        let value: [UInt8] = [0x16, 72, 0x00, 0x03]
        XCTAssertEqual(summary(0x2A37, value), "72 bpm")
        XCTAssertEqual(parts(0x2A37, value), ["Heart rate": "72 bpm", "Sensor contact": "Detected", "RR intervals": "750 ms"])
        // uint16 rate 300 and 16 kJ expended, contact not reported.
        XCTAssertEqual(parts(0x2A37, [0x09, 0x2C, 0x01, 0x10, 0x00]), ["Heart rate": "300 bpm", "Energy expended": "16 kJ"])
        XCTAssertEqual(parts(0x2A37, [0x04, 60])["Sensor contact"], "Not detected")
    }

    func testAHeartRateCutShortSaysHowLongItShouldBe() {
        XCTAssertEqual(decode(0x2A37, [0x01, 0x2C]), .tooShort(needs: 3, got: 2), "a uint16 rate needs two bytes")
        XCTAssertEqual(decode(0x2A37, [0x08, 60, 0x10]), .tooShort(needs: 4, got: 3), "energy announced but cut")
    }

    func testTemperatureMeasurementInIEEE11073FloatWithTimeAndPlace() throws {
        // 36.6 °C as mantissa 366, exponent −1; a time stamp; measured in the body (2).
        let value: [UInt8] = [0x06, 0x6E, 0x01, 0x00, 0xFF, 0xEA, 0x07, 11, 25, 12, 30, 0, 2]
        XCTAssertEqual(summary(0x2A1C, value), "36.6 °C")
        let date = try XCTUnwrap(Calendar.current.date(from: DateComponents(year: 2026, month: 11, day: 25, hour: 12, minute: 30)))
        XCTAssertEqual(parts(0x2A1C, value), ["Temperature": "36.6 °C", "Measured": Formats.dateTime(date), "Where": "Body (general)"])
        XCTAssertEqual(summary(0x2A1C, [0x01, 0xDA, 0x03, 0x00, 0xFF]), "98.6 °F")
        XCTAssertEqual(decode(0x2A1C, [0x00, 0xFF, 0xFF, 0x7F, 0x00]),
                       .notAValue("The thermometer sent no number (not a number or out of range)."), "NaN is no number")
    }

    func testEnvironmentalSensing() {
        XCTAssertEqual(summary(0x2A6E, [0x2E, 0x09]), "23.50 °C")
        XCTAssertEqual(summary(0x2A6E, [0x0C, 0xFE]), "\u{2212}5.00 °C", "a true minus sign")
        XCTAssertEqual(decode(0x2A6E, [0x00, 0x80]), .notAValue("The sensor does not know the temperature."))
        XCTAssertEqual(summary(0x2A6F, [0x88, 0x13]), "50.00 %")
        XCTAssertEqual(decode(0x2A6F, [0xFF, 0xFF]), .notAValue("The sensor does not know the humidity."))
        // 101,325 Pa in tenths of a pascal.
        XCTAssertEqual(summary(0x2A6D, [0x02, 0x76, 0x0F, 0x00]), "\(Formats.decimal(1013.25, digits: 1)) hPa")
    }

    func testDeviceInformation() {
        let pnp: [UInt8] = [0x01, 0x0F, 0x00, 0x34, 0x12, 0x21, 0x01]
        let named = CharacteristicValues.decode(0x2A50, pnp) { $0 == 0x000F ? "Broadcom" : "?" }
        XCTAssertEqual(named, .decoded(summary: "Broadcom", parts: [.init("Vendor", "Broadcom"), .init("Product", "0x1234"),
                                                                     .init("Product version", "1.2.1")]))
        XCTAssertEqual(summary(0x2A50, [0x02, 0x6D, 0x04, 0x01, 0x00, 0x00, 0x01]), "USB vendor 0x046D")
        XCTAssertEqual(summary(0x2A23, [0xEF, 0xCD, 0xAB, 0x89, 0x67, 0x56, 0x34, 0x12]), "12:34:56 · 0x6789ABCDEF")
        XCTAssertEqual(summary(0x2A29, Array("Nordic".utf8)), "Nordic")
        XCTAssertEqual(summary(0x2A07, [0xF4]), "\u{2212}12 dBm")
    }

    func testDeviceStringsAreShownAsTextNeverAsControlCodes() {
        XCTAssertEqual(summary(0x2A00, Array("R&D <Lab>\n".utf8)), "R&D <Lab>\u{240A}")
        XCTAssertEqual(summary(0x2A26, [0x31, 0xFF, 0x32]), "1\u{FFFD}2", "invalid UTF-8 becomes U+FFFD")
    }

    func testAppearanceAndBodySensorLocationAreNamed() {
        XCTAssertEqual(summary(0x2A01, [0x00, 0x00]), "Unknown")
        XCTAssertEqual(summary(0x2A01, [0x40, 0x00]), "Phone")
        XCTAssertEqual(summary(0x2A38, [1]), "Chest")
        XCTAssertEqual(decode(0x2A38, [9]), .notAValue("Location 9 is not defined."))
    }

    func testCurrentTime() throws {
        let value: [UInt8] = [0xEA, 0x07, 11, 25, 21, 40, 5, 3, 128, 0]
        var components = DateComponents(year: 2026, month: 11, day: 25, hour: 21, minute: 40, second: 5)
        components.nanosecond = 500_000_000
        let date = try XCTUnwrap(Calendar.current.date(from: components))
        XCTAssertEqual(summary(0x2A2B, value), Formats.dateTime(date))
        XCTAssertEqual(decode(0x2A2B, [0, 0, 0, 0, 0, 0, 0, 0, 0, 0]), .notAValue("The device does not know the time."))
        XCTAssertEqual(decode(0x2A2B, [0xEA, 0x07, 2, 30, 12, 0, 0, 1, 0, 0]), .notAValue("The device sent a date that does not exist."),
                       "30 February is not rolled over into March")
        XCTAssertEqual(decode(0x2A2B, [0xEA, 0x07, 1, 1, 24, 0, 0, 1, 0, 0]), .notAValue("The device sent a date that does not exist."))
    }

    func testCyclingAndRunning() {
        let csc: [UInt8] = [0x03, 0xE8, 0x03, 0x00, 0x00, 0x00, 0x08, 0x32, 0x00, 0x00, 0x04]
        XCTAssertEqual(parts(0x2A5B, csc), ["Wheel revolutions": "1,000".replacingOccurrences(of: ",", with: groupingSeparator),
                                            "Last wheel event": "2.000 s".replacingOccurrences(of: ".", with: decimalSeparator),
                                            "Crank revolutions": "50",
                                            "Last crank event": "1.000 s".replacingOccurrences(of: ".", with: decimalSeparator)])
        let rsc: [UInt8] = [0x07, 0x00, 0x03, 170, 120, 0x00, 0x39, 0x30, 0x00, 0x00]
        XCTAssertEqual(summary(0x2A53, rsc), "\(Formats.decimal(10.8, digits: 1)) km/h · 170 steps/min")
        XCTAssertEqual(parts(0x2A53, rsc)["Stride length"], "120 cm")
        XCTAssertEqual(parts(0x2A53, rsc)["Total distance"], "\(Formats.decimal(1234.5, digits: 1)) m")
        XCTAssertEqual(parts(0x2A53, rsc)["Moving"], "Running")
        XCTAssertEqual(decode(0x2A5B, [0x00]), .notAValue("The sensor sent neither wheel nor crank data."))
    }

    func testAnUnknownTypeIsLeftToTheHexAndNothingIsGuessed() {
        XCTAssertEqual(decode(0x2AFF, [1, 2, 3]), .unknown)
        XCTAssertNil(DecodedValue.unknown.text)
        XCTAssertFalse(CharacteristicValues.knows(0x2AFF))
        XCTAssertTrue(CharacteristicValues.knows(0x2A19))
    }

    func testNumbersFollowTheLocale() {
        let german = Locale(identifier: "de_DE")
        XCTAssertEqual(Formats.decimal(36.6, digits: 1, locale: german), "36,6")
        XCTAssertEqual(Formats.decimal(-1013.25, digits: 2, locale: german), "\u{2212}1.013,25")
    }

    func testAPresentationFormatReadsTheNumberItsExponentAndItsUnit() throws {
        // sint16, exponent −2, degrees Celsius: 2350 → 23.50 °C.
        let celsius = try XCTUnwrap(PresentationFormat(descriptor: [0x0E, 0xFE, 0x2F, 0x27, 0x01, 0x00, 0x00]))
        XCTAssertEqual(celsius, PresentationFormat(format: 0x0E, exponent: -2, unit: 0x272F))
        XCTAssertEqual(celsius.decode([0x2E, 0x09]), .decoded(summary: "23.50 °C", parts: [], figure: 23.5), "with its figure, for a plot")
        XCTAssertEqual(celsius.decode([0x2E]), .tooShort(needs: 2, got: 1))
        // uint8 percent, no exponent.
        XCTAssertEqual(PresentationFormat(format: 0x04, exponent: 0, unit: 0x27AD).decode([42]), .decoded(summary: "42 %", parts: [], figure: 42))
        // A unit the table does not know is said by its number.
        XCTAssertEqual(PresentationFormat(format: 0x06, exponent: 0, unit: 0x27FF).decode([7, 0]),
                       .decoded(summary: "7", parts: [.init("Unit", "0x27FF")], figure: 7))
        // Text and truth values.
        XCTAssertEqual(PresentationFormat(format: 0x19, exponent: 0, unit: 0x2700).decode(Array("<b>hi</b>".utf8)),
                       .decoded(summary: "<b>hi</b>", parts: []), "shown as text, never as markup")
        XCTAssertEqual(PresentationFormat(format: 0x01, exponent: 0, unit: 0x2700).decode([1]), .decoded(summary: "True", parts: []))
        XCTAssertEqual(PresentationFormat(format: 0x01, exponent: 0, unit: 0x2700).decode([2]), .notAValue("2 is neither true nor false."))
        // A float32 and an SFLOAT NaN.
        XCTAssertEqual(PresentationFormat(format: 0x14, exponent: 0, unit: 0x2726).decode([0x00, 0x00, 0x40, 0x40]),
                       .decoded(summary: "\(Formats.decimal(3, digits: 2)) V", parts: [], figure: 3))
        XCTAssertEqual(PresentationFormat(format: 0x16, exponent: 0, unit: 0x2700).decode([0xFF, 0x07]), .notAValue("The device sent no number."))
        XCTAssertEqual(PresentationFormat(format: 0x1B, exponent: 0, unit: 0x2700).decode([1, 2]), .unknown, "a struct stays hex")
        XCTAssertNil(PresentationFormat(descriptor: [0x04]), "a descriptor of the wrong length is not read")
    }

    private var groupingSeparator: String { Formats.number(1000).filter { !$0.isNumber }.isEmpty ? "" : String(Formats.number(1000).filter { !$0.isNumber }) }
    private var decimalSeparator: String { String(Formats.decimal(1.5, digits: 1).filter { !$0.isNumber }) }

    func testNumbersCarryTheirFigureForAPlotAndTextDoesNot() {
        XCTAssertEqual(CharacteristicValues.decode(0x2A19, [87]).figure, 87)
        XCTAssertEqual(CharacteristicValues.decode(0x2A37, [0x10, 72, 0x00, 0x04]).figure, 72)
        XCTAssertEqual(CharacteristicValues.decode(0x2A6E, [0x66, 0x08]).figure, 21.5)
        XCTAssertEqual(CharacteristicValues.decode(0x2A1C, [0x00, 0x6F, 0x01, 0x00, 0xFF]).figure ?? 0, 36.7, accuracy: 0.0001)
        XCTAssertNil(CharacteristicValues.decode(0x2A29, Array("FavBlue".utf8)).figure)
        XCTAssertNil(CharacteristicValues.decode(0x2A19, []).figure, "too short: no figure")
    }
}
