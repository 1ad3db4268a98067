// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import XCTest

/// Families Theengs Decoder lists that FavBlue reads too, each from a frame of Theengs' own test
/// suite (tests/BLE/test_ble.cpp) and the figures it expects, with what each refuses.
final class TheengsFamilyTests: XCTestCase {
    private func decode(name: String? = nil, company: UInt16? = nil, _ hex: String = "", service: String? = nil,
                        serviceHex: String = "") -> SensorData? {
        SensorDecoders.decode(SensorFrame(
            address: "C4:7C:8D:00:01:02", name: name,
            manufacturerData: company.map { [ManufacturerData(companyID: $0, companyName: "", data: Hex.bytes(hex)!)] } ?? [],
            serviceData: service.map { [ServiceID(uuid: $0, name: nil): Hex.bytes(serviceHex)!] } ?? [:]))
    }

    private func values(_ data: SensorData?) -> [String: Double] {
        Dictionary(uniqueKeysWithValues: (data?.named ?? []).map { ($0.0, $0.1.value) })
    }

    func testThePinkFlowerCareSendsItsReadingsInTheClear() {
        let data = decode(service: "FD50", serviceHex: "0e006e0134a428005b")
        XCTAssertEqual(values(data), ["moisture": 14, "temperature": 11, "illuminance": 79012, "conductivity": 91, "battery": 40])
        XCTAssertEqual(data?.model, SensorModel(maker: "Xiaomi", model: "Flower Care (HHCCJCY10)"))
        XCTAssertEqual(values(decode(service: "FD50", serviceHex: "0eff380000002800ff"))["temperature"], -20, "below zero")
        XCTAssertNil(decode(service: "FD50", serviceHex: "0e006e0134a428005b00"), "a length it never sends")
        XCTAssertNil(decode(service: "FD50", serviceHex: "e5006e0134a428005b"), "a moisture over 100 % is someone else's frame")
    }

    func testAGoveeH5106SendsTemperatureHumidityAndFineDustInOneNumber() {
        XCTAssertEqual(values(decode(name: "GVH5106_1234", company: 0x0001, "01010ed2e431")),
                       ["temperature": 24.8, "humidity": 70.2, "pm25": 1])
        // The top bit is the temperature's sign: −7.5 °C, 76.8 %, none.
        XCTAssertEqual(values(decode(name: "GVH5106_1234", company: 0x0001, "0101" + String(format: "%08x", 0x8000_0000 | 75_768_000))),
                       ["temperature": -7.5, "humidity": 76.8, "pm25": 0])
        XCTAssertEqual(decode(name: "GVH5106_1234", company: 0x0001, "01010ed2e431")?.model, SensorModel(maker: "Govee", model: "H5106"))
        XCTAssertNil(decode(name: "Kitchen", company: 0x0001, "01010ed2e431"), "six bytes under 0x0001 from a device not named so")
    }

    func testASmartDryReadsItsFloatsAndBattery() {
        let data = decode(company: 0x01AE, "56d70842" + "0000c842" + "5200" + "69" + "07")
        let read = values(data)
        XCTAssertEqual(read["temperature"], 34.21)
        XCTAssertEqual(read["humidity"], 100)
        XCTAssertEqual(read["voltage"], 2.952)
        XCTAssertEqual(data?.model, SensorModel(maker: "SmartDry", model: "Laundry Sensor"))
        XCTAssertNil(decode(company: 0x01AE, "0000c07f" + "0000c842" + "5200" + "69" + "07"), "a temperature that is not a number")
        XCTAssertNil(decode(company: 0x01AE, "56d70842"), "cut short")
    }

    func testKKMAndBlueCharmSensorFramesFollowTheirMask() {
        // KKM K6P: battery, temperature and humidity.
        XCTAssertEqual(values(decode(service: "FEAA", serviceHex: "2101070e5b154f2169")),
                       ["voltage": 3.675, "temperature": 21.3, "humidity": 33.41])
        // BlueCharm BC021: battery, temperature (0xFFC0: −0.25 °C) and the acceleration, not read.
        XCTAssertEqual(values(decode(service: "FEAA", serviceHex: "21010b0c7affc0006dffe10416")), ["voltage": 3.194, "temperature": -0.25])
        XCTAssertEqual(values(decode(service: "FEAA", serviceHex: "21010b0c0df540ff95fe69fc80"))["temperature"], -10.75)
        XCTAssertNil(decode(service: "FEAA", serviceHex: "2101070e5b154f21"), "shorter than its mask says")
        XCTAssertNil(decode(service: "FEAA", serviceHex: "2101170e5b154f2169"), "a mask bit it does not know")
        // An Eddystone TLM frame is still Eddystone's.
        XCTAssertNil(decode(service: "FEAA", serviceHex: "20000bb81800000000010000000a")?.readings.first { $0.quantity.key == "humidity" })
    }

    func testSensorEasyIsToldByItsNameAndSendsOneValueAFrame() {
        XCTAssertEqual(values(decode(name: "P T EN 888444", service: "2A6E", serviceHex: "8308")), ["temperature": 21.79])
        XCTAssertEqual(values(decode(name: "P T EN 888444", company: 0x0757, "f2120c")), ["voltage": 3.09])
        XCTAssertEqual(values(decode(name: "P RHT 90A2", service: "2A6F", serviceHex: "2f")), ["humidity": 47])
        XCTAssertNil(decode(name: "P T EN 888444", service: "2A6E", serviceHex: "ff7f"), "0x7FFF is no temperature")
        XCTAssertNil(decode(name: "Thermometer", service: "2A6E", serviceHex: "8308"), "another name is not a Sensor Easy")
    }

    func testXiaomiScalesReadAWeighingOnceItIsStable() {
        // Mi Smart Scale: stable, in kg (70.25 kg × 200 = 14050 = 0x36E2).
        let smart = decode(service: "181D", serviceHex: "22e236" + "e8070b1d081e00")
        XCTAssertEqual(values(smart), ["weight": 70.25])
        XCTAssertEqual(smart?.model, SensorModel(maker: "Xiaomi", model: "Mi Smart Scale"))
        XCTAssertEqual(values(decode(service: "181D", serviceHex: "02e236" + "e8070b1d081e00")), [:], "still settling")
        XCTAssertEqual(values(decode(service: "181D", serviceHex: "a2e236" + "e8070b1d081e00")), [:], "stepped off")
        // In pounds × 100: 154.88 lb = 70.25 kg.
        XCTAssertEqual(values(decode(service: "181D", serviceHex: "23803c" + "e8070b1d081e00"))["weight"], 70.25)
        // Body Composition Scale: stable, impedance stable (0x0226), 500 Ω, 70.25 kg.
        XCTAssertEqual(values(decode(service: "181B", serviceHex: "0226" + "e8070b1d081e00" + "f401" + "e236")),
                       ["weight": 70.25, "impedance": 500])
        XCTAssertEqual(values(decode(service: "181B", serviceHex: "0224" + "e8070b1d081e00" + "f401" + "e236")), ["weight": 70.25],
                       "an impedance still measuring is not read")
        XCTAssertNil(decode(service: "181B", serviceHex: "0226e8070b1d081e00f401"), "cut short")
    }

    func testASwitchBotBotTellsItsSwitchOnlyInSwitchMode() {
        XCTAssertEqual(values(decode(service: "0D00", serviceHex: "48d0db")), ["power_on": 0, "battery": 91])
        XCTAssertEqual(values(decode(service: "0D00", serviceHex: "4890cc")), ["power_on": 1, "battery": 76])
        // Press mode: it pushes and lets go, so there is no on or off to tell.
        XCTAssertEqual(values(decode(service: "FD3D", serviceHex: "48004700")), ["battery": 71])
        XCTAssertEqual(decode(service: "0D00", serviceHex: "48d0db")?.model, SensorModel(maker: "SwitchBot", model: "Bot"))
        XCTAssertNil(decode(service: "0D00", serviceHex: "48d0"), "no battery byte")
    }

    func testASwitchBotCurtainTellsHowFarItIsClosedAndWhetherItMoves() {
        XCTAssertEqual(values(decode(service: "0D00", serviceHex: "63c04c1970")),
                       ["closed": 25, "moving": 0, "light_level": 7, "calibrated": 1, "battery": 76])
        XCTAssertEqual(values(decode(service: "0D00", serviceHex: "63805599a0")),
                       ["closed": 25, "moving": 1, "light_level": 10, "calibrated": 0, "battery": 85])
        let three = decode(service: "FD3D", serviceHex: "7b4057e41106")
        XCTAssertEqual(values(three), ["closed": 100, "moving": 1, "light_level": 1, "calibrated": 1, "battery": 87])
        XCTAssertEqual(three?.model, SensorModel(maker: "SwitchBot", model: "Curtain 3"))
        XCTAssertNil(decode(service: "0D00", serviceHex: "63c04c6570"), "closed 101 %")
        XCTAssertNil(decode(service: "0D00", serviceHex: "63c04c19"), "cut short")
    }

    func testASwitchBotBlindTiltTellsHowFarItsSlatsAreOpen() {
        func tilt(_ block: String, _ service: String) -> [String: Double] {
            values(decode(company: 0x0969, block, service: "FD3D", serviceHex: service))
        }
        // Theengs' figures: level slats (50) are 100 % open; 0 and 100 are shut, down or up.
        XCTAssertEqual(tilt("aabbccddeeff0d275514", "78003c"), ["slats_open": 30, "moving": 0, "light_level": 2, "calibrated": 1, "battery": 60])
        XCTAssertEqual(tilt("aabbccddeeffd8253214", "780036")["slats_open"], 100)
        XCTAssertEqual(tilt("aabbccddeeffcf270014", "780036")["slats_open"], 0)
        XCTAssertEqual(tilt("aabbccddeeffd3272814", "780060")["slats_open"], 80)
        XCTAssertEqual(tilt("aabbccddeeff39274b4184", "780064")["slats_open"], 50, "the longer frame of newer firmware")
        XCTAssertEqual(tilt("aabbccddeeff0d27d514", "78003c")["moving"], 1)
        XCTAssertEqual(tilt("aabbccddeeff0d276614", "78003c"), [:], "an angle over 100")
        XCTAssertEqual(values(decode(service: "FD3D", serviceHex: "78003c")), [:], "without its manufacturer block")
    }
}
