// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
@testable import ViewModels
import XCTest

/// What a keyed sensor's page says when a frame without encryption came from its address.
final class SensorNoteTests: XCTestCase {
    func testAnIgnoredPlainFrameIsSaidBesideTheBelievedReadings() async {
        var data = SensorData(model: SensorModel(maker: "BTHome", model: "v2"), readings: [SensorReading(.temperature, -18.5, decimals: 2)])
        data.sealed = true
        data.plaintextIgnored = true
        let shown = await DeviceDetailViewModel.readings(data, name: "Freezer")
        XCTAssertEqual(shown?.items.map(\.caption), ["Temperature"])
        XCTAssertEqual(shown?.note,
                       "A frame without encryption was ignored: with its key given, only frames the key opens are believed.")
    }

    func testAnAccelerometersAxesAndAGrillsProbesAreCaptionedAsWhatTheyAre() async {
        let acceleration = Quantity.known("acceleration")
        let data = SensorData(readings: [SensorReading(acceleration, 0.1, decimals: 1, slot: 1), SensorReading(acceleration, 0.2, decimals: 1, slot: 2),
                                         SensorReading(acceleration, 9.8, decimals: 1, slot: 3), SensorReading(.temperature, 21, slot: 2)])
        let shown = await DeviceDetailViewModel.readings(data, name: "Beacon")
        XCTAssertEqual(Set(shown?.items.map(\.caption) ?? []),
                       ["Acceleration (X axis)", "Acceleration (Y axis)", "Acceleration (Z axis)", "Temperature 2"])
    }

    func testAKegsPortNamesAreShownBeforeEachPortsVolumesAsTextWithTheirControlCodesVisible() async {
        let remaining = Quantity.known("volume_remaining")
        var data = SensorData(model: SensorModel(maker: "Kegtron", model: "KT-200"),
                              readings: [SensorReading(remaining, 14.36, decimals: 3, slot: 1), SensorReading(remaining, 2, decimals: 3, slot: 2)])
        data.slotNames = [2: "Stout \u{1B}[31m", 1: "IPA"]
        let shown = await DeviceDetailViewModel.readings(data, name: "Keg")
        XCTAssertEqual(shown?.items.map(\.caption), ["Name of Port 1", "Remaining (Port 1)", "Name of Port 2", "Remaining (Port 2)"])
        XCTAssertEqual(shown?.items.map(\.value), ["IPA", "14.360 L", "Stout \u{241B}[31m", "2.000 L"])
        var single = SensorData(model: SensorModel(maker: "Kegtron", model: "KT-100"), readings: [SensorReading(remaining, 14.36, decimals: 3)])
        single.slotNames = [1: "Hello"]
        let one = await DeviceDetailViewModel.readings(single, name: "Keg")
        XCTAssertEqual(one?.items.map(\.caption), ["Port name", "Remaining"])
        XCTAssertEqual(one?.items.first?.value, "Hello")
    }

    func testTheNoteStandsAloneBeforeAnyFrameIsBelieved() async {
        var data = SensorData()
        data.plaintextIgnored = true
        let shown = await DeviceDetailViewModel.readings(data, name: "Freezer")
        XCTAssertEqual(shown?.items, [])
        XCTAssertNotNil(shown?.note)
    }

    @MainActor func testASecondProbeOfAQuantityWithAnUnderscoreSortsWithItsQuantity() {
        XCTAssertEqual(DeviceDetailViewModel.order("carbon_dioxide_2"), DeviceDetailViewModel.order("carbon_dioxide"))
        XCTAssertEqual(DeviceDetailViewModel.order("temperature_3"), DeviceDetailViewModel.order("temperature"))
        XCTAssertLessThan(DeviceDetailViewModel.order("temperature_2"), DeviceDetailViewModel.order("unknown_thing"))
    }
}
