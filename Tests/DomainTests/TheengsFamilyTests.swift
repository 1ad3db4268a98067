// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import XCTest

/// Families Theengs Decoder lists that FavBlue reads too, each from a frame of Theengs' own test
/// suite (tests/BLE/test_ble.cpp) and the figures it expects, with what each refuses.
final class TheengsFamilyTests: XCTestCase {
    private func decode(name: String? = nil, company: UInt16? = nil, _ hex: String = "", service: String? = nil,
                        serviceHex: String = "", address: String = "C4:7C:8D:00:01:02") -> SensorData? {
        SensorDecoders.decode(SensorFrame(
            address: address, name: name,
            manufacturerData: company.map { [ManufacturerData(companyID: $0, companyName: "", data: Hex.bytes(hex)!)] } ?? [],
            serviceData: service.map { [ServiceID(BluetoothUUID($0)!, name: nil): Hex.bytes(serviceHex)!] } ?? [:]))
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
        // Its acceleration, 109, −31 and 1,046 thousandths of g (BC08's frame), in m/s², an axis a slot.
        XCTAssertEqual(values(decode(service: "FEAA", serviceHex: "21010b0c7affc0006dffe10416")),
                       ["voltage": 3.194, "temperature": -0.25, "acceleration_1": 1.0689, "acceleration_2": -0.304, "acceleration_3": 10.2578])
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

    func testAnOriaThermoHygrometerIsToldByItsName() {
        XCTAssertEqual(values(decode(name: "T301", company: 0xAA55, "0105aabbccddeeff01070a0015e0630001")),
                       ["temperature": 25.6, "humidity": 56, "battery": 99, "voltage": 2.63])
        let t201 = decode(name: "T201", company: 0xAA55, "0101a4c13874b08501070a1d10f064000100")
        XCTAssertEqual(values(t201), ["temperature": 25.89, "humidity": 43.36, "battery": 100, "voltage": 2.63])
        XCTAssertEqual(t201?.model, SensorModel(maker: "Oria", model: "T201"))
        XCTAssertEqual(values(decode(name: "T301", company: 0xAA55, "0105aabbccddeeff0107ff3815e0630001"))["temperature"], -2,
                       "below zero")
        XCTAssertNil(decode(name: "Kitchen", company: 0xAA55, "0105aabbccddeeff01070a0015e0630001"), "another name")
        // Without its name, as SensorPro's are told: 01 05 and an address starting A4:C1.
        let unnamed = decode(company: 0xAA55, "0105a4c13874b08501070a0015e0630001")
        XCTAssertEqual(values(unnamed), ["temperature": 25.6, "humidity": 56, "battery": 99, "voltage": 2.63])
        XCTAssertEqual(unnamed?.model, SensorModel(maker: "SensorPro", model: "T301"))
        XCTAssertNil(decode(name: "T301", company: 0xAA55, "0105aabbccddeeff01070a0015e0630001ff"), "a T301 sends 17 bytes")
    }

    func testABeeWiDoorSensorSaysOpenOrClosed() {
        XCTAssertEqual(values(decode(company: 0x000D, "080c000664")), ["opening": 0, "battery": 100])
        XCTAssertEqual(values(decode(company: 0x000D, "080c010664")), ["opening": 1, "battery": 100])
        XCTAssertNil(decode(company: 0x000D, "080d010664"), "another kind of BeeWi device")
    }

    func testAnABTempSaysItsTemperatureInItsMinor() {
        let data = decode(company: 0x004C, "0215b5b182c7eab14988aa99b5c1517008d90001641ac5")
        XCTAssertEqual(values(data), ["temperature": 26, "battery": 100])
        XCTAssertEqual(data?.model, SensorModel(maker: "April Brother", model: "ABTemp"))
        // Its iBeacon identity stays beside the readings, as ibeacon-ble reads it.
        XCTAssertEqual(data?.beacon?.kind, .iBeacon)
        XCTAssertEqual(data?.beacon?.power, -59)
        XCTAssertEqual(data?.beacon?.fields.map(\.0), ["uuid", "major", "minor"])
        XCTAssertEqual(values(decode(company: 0x004C, "0215b5b182c7eab14988aa99b5c1517008d9000164f6c5"))["temperature"], -10)
        XCTAssertNil(decode(company: 0x004C, "0215b5b182c7eab14988aa99b5c1517008d80001641ac5")?.readings.first, "another UUID")
    }

    func testAnOtodataTankMonitorSaysHowFullTheTankIs() {
        XCTAssertEqual(values(decode(company: 0x03B1, "4f544f54454c45020010270000366e0f000000")), ["tank_fill": 100])
        XCTAssertEqual(values(decode(company: 0x03B1, "4f544f54454c4502006b260000366e0f000000")), ["tank_fill": 98.35])
        XCTAssertNil(decode(company: 0x03B1, "4f544f3332383148845603132111010400022af20304"), "the frame with its serial number")
    }

    func testATyreSensorIsToldByItsOwnAddressInTheFrame() {
        let tyre = decode(company: 0x0100, "80eacaddeeff" + "f4650300" + "7c0c0000" + "33" + "00", address: "80:EA:CA:DD:EE:FF")
        XCTAssertEqual(values(tyre), ["tyre_pressure": 2.227, "temperature": 31.96, "battery": 51, "problem": 0, "channel": 1])
        let third = decode(company: 0x0100, "82eacaddeeff" + "11fc0300" + "aa060000" + "53" + "01", address: "82:EA:CA:DD:EE:FF")
        XCTAssertEqual(values(third), ["tyre_pressure": 2.611, "temperature": 17.06, "battery": 83, "problem": 1, "channel": 3])
        // A winter morning: −17.94 °C, which Theengs, reading it unsigned, says is 42949655 °C.
        XCTAssertEqual(values(decode(company: 0x0100, "80eacaddeeff" + "f4650300" + "fef8ffff" + "33" + "00", address: "80:EA:CA:DD:EE:FF"))["temperature"],
                       -17.94)
        XCTAssertNil(decode(company: 0x0100, "80eacaddeeff" + "f4650300" + "7c0c0000" + "33" + "00"), "another address, no name")
        XCTAssertEqual(values(decode(name: "TPMS1_10ABCD", company: 0x0100, "80eacaddeeff" + "f4650300" + "7c0c0000" + "33" + "00"))["battery"], 51,
                       "or its name")
    }

    func testQingpingsMotionAndContactSensorsSayWhatTheySee() {
        // CGPR1: an event frame's light bytes are no reading, its motion is.
        XCTAssertEqual(values(decode(service: "FDCD", serviceHex: "4812ffeeddccbbaa0804010300000f0150")), ["motion": 1])
        XCTAssertEqual(values(decode(service: "FDCD", serviceHex: "0812ffeeddccbbaa0804000300000f0150")), ["motion": 0, "illuminance": 3])
        XCTAssertEqual(values(decode(service: "FDCD", serviceHex: "4812ffeeddccbbaa1101010f0189")), ["light": 1])
        // CGH1: 0 open, 1 closed, 2 open too long.
        XCTAssertEqual(values(decode(service: "FDCD", serviceHex: "4804751060342d580401000f01cb")), ["door": 1, "problem": 0])
        XCTAssertEqual(values(decode(service: "FDCD", serviceHex: "4804751060342d580401010f01d5")), ["door": 0, "problem": 0])
        XCTAssertEqual(values(decode(service: "FDCD", serviceHex: "4804751060342d580401020f01d5")), ["door": 1, "problem": 1])
    }

    func testSensorEasysProbeAndMagnetAreToldByTheirNames() {
        XCTAssertEqual(values(decode(name: "P TPROBE 111999", service: "2A6E", serviceHex: "1608")), ["temperature": 20.7])
        XCTAssertEqual(decode(name: "P TPROBE 111999", service: "2A6E", serviceHex: "1608")?.model,
                       SensorModel(maker: "Sensor Easy", model: "SE TEMP PROBE"))
        XCTAssertEqual(values(decode(name: "P MAG CCCCCC", service: "2A06", serviceHex: "2400")), ["opening": 1])
        XCTAssertEqual(values(decode(name: "P MAG CCCCCC", service: "2A06", serviceHex: "2900")), ["opening": 0])
        XCTAssertNil(decode(name: "P MAG CCCCCC", service: "2A06", serviceHex: "24"), "one byte")
        XCTAssertNil(decode(name: "Kitchen", service: "2A06", serviceHex: "2400"), "another name")
    }

    func testASwitchBotMeterHeardPassivelyIsToldByItsNameAndBlock() {
        // No scan response, so no service data: the name and the manufacturer block say it.
        let plus = decode(name: "WoSensorTHP", company: 0x0969, "aabbccddeeff4a0109962f")
        XCTAssertEqual(values(plus), ["temperature": 22.9, "humidity": 47])
        XCTAssertEqual(plus?.model, SensorModel(maker: "SwitchBot", model: "Meter Plus"))
        XCTAssertEqual(values(decode(name: "WoIOSensorTH", company: 0x0969, "aabbccddeeff8b0305993200")), ["temperature": 25.5, "humidity": 50])
        XCTAssertNil(decode(name: "WoPlug", company: 0x0969, "aabbccddeeff4a0109962f"), "another SwitchBot device")
        // The outdoor meter's scan response alone: its battery.
        XCTAssertEqual(values(decode(name: "WoIOSensorTH", service: "FD3D", serviceHex: "770041")), ["battery": 65])
    }

    func testAnIBBQHeardWithoutItsNameIsToldByTheAddressItCarries() {
        XCTAssertEqual(values(decode(company: 0x0000, "0000a1b2c3d4e5f6e600e600", address: "A1:B2:C3:D4:E5:F6")),
                       ["temperature_1": 23, "temperature_2": 23])
        // The address the other way round, the first probe not plugged in.
        XCTAssertEqual(values(decode(company: 0x0001, "0000ffeeddccbbaaffff4f01", address: "AA:BB:CC:DD:EE:FF")), ["temperature_2": 33.5])
        XCTAssertEqual(values(decode(company: 0x0000, "0000aabbccddeeff04010401fa00fa00", address: "AA:BB:CC:DD:EE:FF")),
                       ["temperature_1": 26, "temperature_2": 26, "temperature_3": 25, "temperature_4": 25])
        XCTAssertNil(decode(company: 0x0000, "0000a1b2c3d4e5f6e600e600", address: "A1:B2:C3:D4:E5:F7"), "another address, no name")
        XCTAssertNil(decode(company: 0x0001, "0000ffeeddccbbaa04010401fa00fa00", address: "AA:BB:CC:DD:EE:FF"), "reversed only on a two-probe one")
    }

    func testAnINodeEnergyMeterSaysPowerAndEnergyOrFlowAndVolume() {
        // 99 pulses in the last minute, 53,232 in all, 2,500 a kWh: 2.376 kW, 21.2928 kWh.
        XCTAssertEqual(values(decode(company: 0x8290, "6300f0cf0000c409820080")),
                       ["power": 2376, "energy": 21.293, "battery": 70, "battery_low": 0])
        XCTAssertEqual(values(decode(company: 0x8294, "6300f0cf0000c409260080")),
                       ["power": 2376, "energy": 21.293, "battery": 10, "battery_low": 1])
        // A water or gas meter (bit 12 of the constant's word): m³ an hour and m³ in all.
        XCTAssertEqual(values(decode(company: 0x8296, "dd0061b80000c4193b0080")),
                       ["volume_flow_rate": 2.01, "metered_volume": 7.156, "battery": 20, "battery_low": 1])
        // The total is 32 bits (Theengs reads 16): 497,328 pulses at 1,500 a kWh, as iNode's tools decode it.
        XCTAssertEqual(values(decode(company: 0x8290, "1300b0960700dc05c00080"))["energy"], 331.552)
        XCTAssertNil(decode(company: 0x8290, "6300f0cf00000000820080"), "a constant of 0")
        XCTAssertNil(decode(company: 0x8290, "6300f0cf0000c40982"), "cut short")
    }

    func testChestStrapsSayTheHeartRate() {
        let polar = decode(name: "Polar H10 75087320", company: 0x006B, "3b164446")
        XCTAssertEqual(values(polar), ["heart_rate": 70])
        XCTAssertEqual(polar?.model, SensorModel(maker: "Polar", model: "H10"))
        XCTAssertEqual(values(decode(company: 0xFF04, "0161063f")), ["heart_rate": 63, "battery": 97])
        XCTAssertNil(decode(company: 0x006B, "3b1644"), "cut short")
    }

    func testAMokosmartBeaconXProSaysClimateOrAccelerationAndItsBattery() {
        XCTAssertEqual(values(decode(service: "FEAB", serviceHex: "70000a011201ee0caf03def14635998a")),
                       ["temperature": 27.4, "humidity": 49.4, "voltage": 3.247])
        let moving = values(decode(service: "FEAB", serviceHex: "60000a010007154039c0fa000bf901f40c93fe3487"))
        XCTAssertEqual(moving["acceleration_1"], 5.3348)
        XCTAssertEqual(moving["acceleration_2"], 14.4982)
        XCTAssertEqual(moving["acceleration_3"], -1.5063)
        XCTAssertEqual(moving["voltage"], 3.065)
        XCTAssertNil(decode(service: "FEAB", serviceHex: "70000a0112"), "cut short")
    }

    func testAHoboWaterLevelLoggerSaysTheLevel() {
        XCTAssertEqual(values(decode(company: 0x00C5, "0740d54f01062402000008005231029e8708cb3d")), ["water_level": 99.1])
        XCTAssertNil(decode(company: 0x00C5, "0740d54f0106240200000800523102ffffffffff"), "not a number")
    }

    func testASkaleWeighsInGrams() {
        let data = decode(company: 0x81EF, "d70400ff")
        XCTAssertEqual(values(data), ["weight": 123.9])
        XCTAssertEqual(data?.readings.first?.quantity.unit, "g")
        XCTAssertEqual(values(decode(company: 0x81EF, "60fcffff")), ["weight": -92.8], "tared below zero")
    }

    func testABM2OrBM6SaysTheCarBatterysCharge() {
        let bm2 = decode(name: "Battery Monitor", company: 0x004C, "0215655f83caae16a10a702e31f30d58dd82f441423144")
        XCTAssertEqual(values(bm2), ["battery": 68])
        XCTAssertEqual(bm2?.model, SensorModel(maker: "BM", model: "BM2"))
        XCTAssertEqual(values(decode(company: 0x004C, "02153ba29cd9a42c894856badaf2606ef777114d0000cd")), ["battery": 77])
        XCTAssertNil(decode(company: 0x004C, "0215655f83caae16a10a702e31f30d58dd83f441423144")?.readings.first, "another UUID")
    }

    func testARadiolandBeaconSaysTemperatureAndHumidity() {
        XCTAssertEqual(values(decode(name: "RDL52832", service: "1803", serviceHex: "183a2f33010000020000000100000907")),
                       ["temperature": 24.23, "humidity": 47.2])
        XCTAssertNil(decode(name: "Beacon", service: "1803", serviceHex: "183a2f33010000020000000100000907"), "another name")
    }

    func testARAPTPillSaysTemperatureGravityAndBattery() {
        // Version 1: "PT", 1, the address, 293.156 K (37,524/128), gravity 1048.5 (a float), three axes, 99.5 % (25,472/256).
        let v1 = decode(company: 0x4152, "5054" + "01" + "c47c8d000102" + "9294" + "44830f00" + "0010" + "0020" + "fff0" + "6380")
        XCTAssertEqual(values(v1), ["temperature": 20.01, "specific_gravity": 1.0485, "battery": 100])
        // Version 2: a byte, a flag and the gravity's velocity where the address was.
        let v2 = decode(company: 0x4152, "5054" + "02" + "00" + "01" + "3f800000" + "9294" + "44830f00" + "0010" + "0020" + "fff0" + "3200")
        XCTAssertEqual(values(v2)["battery"], 50)
        XCTAssertNil(decode(company: 0x4152, "5054" + "03" + "00" + "01" + "3f800000" + "9294" + "44830f00" + "0010" + "0020" + "fff0" + "3200"),
                     "a version it does not know")
    }

    func testAMoatS2SaysClimateAndTheChargeOfItsCell() {
        // SHT2x ticks: 26,000 and 30,000; 2,950 mV.
        let data = decode(name: "Moat_S2", service: "1000", serviceHex: "00000000000000000000" + "9065" + "3075" + "860b")
        XCTAssertEqual(values(data), ["temperature": 22.863, "humidity": 51.22, "voltage": 2.95, "battery": 71])
        XCTAssertNil(decode(name: "Kitchen", service: "1000", serviceHex: "00000000000000000000906530758 60b".replacingOccurrences(of: " ", with: "")),
                     "another name")
    }

    func testALeaoneScaleCountsOnlyASettledWeightInItsUnit() {
        // 72.4 kg, 512.3 Ω, settled (0x21), then the scale's own address.
        let kg = decode(company: 0x1C00, "02d4" + "1403" + "0000" + "21" + "c47c8d000102")
        XCTAssertEqual(values(kg), ["weight": 72.4, "impedance": 512.3])
        XCTAssertEqual(kg?.model, SensorModel(maker: "Leaone", model: "TZC4"))
        let pounds = decode(company: 0x1C00, "0659" + "1403" + "0000" + "31" + "c47c8d000102")
        XCTAssertEqual(values(pounds), ["weight": 162.5, "impedance": 512.3])
        XCTAssertEqual(pounds?.readings.first?.quantity.unit, "lb")
        XCTAssertEqual(values(decode(company: 0x1C00, "02d4" + "1403" + "0000" + "20" + "c47c8d000102")), [:], "still moving")
        XCTAssertNil(decode(company: 0x1C00, "02d4" + "1403" + "0000" + "21" + "c47c8d000103"), "another address")
    }

    func testFeasycomAprilBrotherN03AndMokosmartsOlderBeaconFromTheengsFrames() {
        let address = "AA:BB:CC:DD:EE:FF"
        let feasy = decode(service: "FFF0", serviceHex: "27021992aabbccddeeff64", address: address)
        XCTAssertEqual(values(feasy), ["plug": 0, "battery": 100])
        XCTAssertEqual(feasy?.model, SensorModel(maker: "Feasycom", model: "BP108"))
        XCTAssertEqual(values(decode(service: "FFF0", serviceHex: "29021992aabbccddeeff65", address: address)), ["plug": 1], "on external power")
        XCTAssertNil(decode(service: "FFF0", serviceHex: "27021992aabbccddeeff64"), "a frame that carries another address")
        // N03: −2.625 °C, 63.5 %, 350 lx, 100 %, under whatever UUID it is sent.
        XCTAssertEqual(values(decode(service: "AB03", serviceHex: "ab03aabbccddeeff64ebff7f005e01", address: address)),
                       ["temperature": -2.625, "humidity": 63.5, "illuminance": 350, "battery": 100])
        XCTAssertNil(decode(service: "AB03", serviceHex: "ab03aabbccddeeff64ebff7f005e01"), "another device's address")
        let moko = decode(service: "FF01", serviceHex: "64000000005085a000f0ffe003")
        XCTAssertEqual(moko?.named.map(\.0), ["acceleration_1", "acceleration_2", "acceleration_3", "battery"])
        XCTAssertEqual(values(moko)["acceleration_1"] ?? 0, -24.1008, accuracy: 0.0001)
        XCTAssertEqual(values(moko)["battery"], 100)
    }

    func testANodOnNIUSaysEachPressOnce() {
        // Theengs' frames: a click, a double click, held; battery 99 %; the two bytes before the press change each time.
        XCTAssertEqual(values(decode(service: "0000", serviceHex: "02599c37d90287a521520006635ab801")),
                       ["button": 1, "battery": 99, "packet_id": 0x5AB8])
        XCTAssertEqual(values(decode(service: "0000", serviceHex: "02599c37d90287a52152000663ee4b02"))["button"], 2)
        XCTAssertEqual(values(decode(service: "0000", serviceHex: "02599c37d90287a52152000660259003"))["button"], 4, "held: a long press")
        XCTAssertEqual(values(decode(service: "0000", serviceHex: "02599c37d90287a521520004595eb905"))["button"], 3, "a triple click")
        XCTAssertEqual(values(decode(service: "0000", serviceHex: "02599c37d90287a521520006622b8104"))["button"], 0x83, "the release")
        let four = decode(service: "0000", serviceHex: "02599c37d90287a521520006622b8206")
        XCTAssertEqual(four?.readings.first.flatMap { $0.quantity.info?.event($0.value)?.0.type }, "quadruple_press", "four clicks")
        let five = decode(service: "0000", serviceHex: "02599c37d90287a521520006622b8307")
        XCTAssertEqual(five?.readings.first.flatMap { $0.quantity.info?.event($0.value)?.0.words(0) }, "Button pressed five times")
        XCTAssertNil(decode(service: "0000", serviceHex: "02599c37d90287a521520006622b8108"), "a code it does not send")
    }

    func testAnOrasShowerSaysWaterTemperatureTimeAndEnergyAndAFaucetItsBattery() {
        // Shower 36: 21 s, 2.6 L at 41 °C, 0.12 kWh.
        let shower = decode(company: 0xFAEE, "000024" + "0015" + "00" + "0015" + "001a00" + "29" + "000c" + "194f000000")
        XCTAssertEqual(values(shower), ["water": 2.6, "temperature": 41, "duration": 21, "energy": 0.12])
        XCTAssertEqual(shower?.model, SensorModel(maker: "Oras", model: "Hydractiva Digital"))
        // The faucet's serial number ("2111007935") is text the device chooses: not a reading.
        XCTAssertEqual(values(decode(company: 0x0131, "006400323131313030373933350020202020")), ["battery": 100])
        XCTAssertNil(decode(company: 0xFAEE, "0000240015000015001a00"), "cut short")
    }

    func testAMiBandSaysTheHeartRateAndTodaysSteps() {
        let band = decode(company: 0x0157, "0202017dffffffffffffffffffffffffff02aabbccddeeff", service: "FEE0", serviceHex: "8d230000",
                          address: "AA:BB:CC:DD:EE:FF")
        XCTAssertEqual(values(band), ["heart_rate": 125, "steps": 9101])
        XCTAssertEqual(values(decode(company: 0x0157, "02" + String(repeating: "ff", count: 16) + "02aabbccddeeff", service: "FEE0", serviceHex: "ac1e0000",
                                     address: "AA:BB:CC:DD:EE:FF")), ["steps": 7852], "no rate measured")
        XCTAssertNil(decode(company: 0x0157, "0202017dffffffffffffffffffffffffff02aabbccddeeff", address: "AA:BB:CC:DD:EE:FE"),
                     "another address")
    }
}
