// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import XCTest

/// Grill probes, SensorPush, Oral-B, Mopeka, Sensirion, Aranet, b-parasite, Jaalee and the
/// SwitchBot sensors, each from one worked frame, with what each refuses.
final class MoreSensorFamilyTests: XCTestCase {
    private func decode(name: String? = nil, company: UInt16? = nil, _ hex: String = "", service: String? = nil,
                        serviceHex: String = "", lists: [String] = []) -> SensorData? {
        SensorDecoders.decode(SensorFrame(
            address: "C4:7C:8D:00:01:02", name: name,
            manufacturerData: company.map { [ManufacturerData(companyID: $0, companyName: "", data: Hex.bytes(hex)!)] } ?? [],
            serviceData: service.map { [ServiceID(BluetoothUUID($0)!, name: nil): Hex.bytes(serviceHex)!] } ?? [:],
            services: lists.map { ServiceID(BluetoothUUID($0)!, name: nil) }))
    }

    private func values(_ data: SensorData?) -> [String: Double] {
        Dictionary(uniqueKeysWithValues: (data?.named ?? []).map { ($0.0, $0.1.value) })
    }

    /// What `data` says but its alarms, which tests of the probes leave to their own checks.
    private func measured(_ data: SensorData?) -> [String: Double] { values(data).filter { !$0.key.contains("alarm") } }

    func testAnIBBQKeepsEachProbesNumberWhenOneIsUnplugged() {
        // Four probes: 21.5 °C, unplugged (0xFFFF), −4.0 °C, 250.0 °C.
        let data = decode(name: "iBBQ", company: 0x0000, "0000000000000000" + "d700" + "ffff" + "d8ff" + "c409")
        XCTAssertEqual(values(data), ["temperature_1": 21.5, "temperature_3": -4.0, "temperature_4": 250.0])
        XCTAssertEqual(data?.model, SensorModel(maker: "Inkbird", model: "iBBQ-4"))
        XCTAssertNil(decode(name: "Kitchen", company: 0x0000, "0000000000000000d700ffffd8ffc409"), "not named iBBQ")
        XCTAssertNil(decode(name: "iBBQ", company: 0x0000, "0000000000000000d700ff"), "a length no model has")
    }

    func testAGoveeH5055FrameCarriesTwoProbesAndTheFoldKeepsTheOthers() {
        let id = DeviceID(octets: [0xC4, 0x7C, 0x8D, 0x00, 0x01, 0x02], kind: .lePublic)
        func frame(_ pair: UInt8, _ first: Int16, _ second: Int16) -> Observation {
            var body: [UInt8] = [0, 0, 87, pair | 0x3F, 0]
            for value in [first, 0, 300] { body += withUnsafeBytes(of: value.littleEndian, Array.init) }
            body.append(0)
            for value in [second, 0, 300] { body += withUnsafeBytes(of: value.littleEndian, Array.init) }
            body += [0, 0]
            return Observation(id: id, timestamp: Date(), rssi: -60, services: [ServiceID(BluetoothUUID(0x5550), name: nil)],
                               manufacturerData: [ManufacturerData(companyID: 0x04CF, companyName: "", data: body)])
        }
        var advertised = AdvertisedData(frame(0x00, 21, 22))
        XCTAssertEqual(values(advertised.sensor), ["temperature_1": 21, "temperature_2": 22, "battery": 87,
                                                  "temperature_alarm_high_1": 300, "temperature_alarm_low_1": 0,
                                                  "temperature_alarm_high_2": 300, "temperature_alarm_low_2": 0],
                       "each probe's alarms as set on it, beside it")
        advertised.merge(frame(0x80, 90, 91))  // not read before the next: still kept
        advertised.merge(frame(0x40, 63, -4))
        XCTAssertEqual(measured(advertised.sensor), ["temperature_1": 21, "temperature_2": 22, "temperature_3": 63, "temperature_4": -4,
                                                  "temperature_5": 90, "temperature_6": 91, "battery": 87])
        advertised.merge(frame(0x00, 25, 22))
        XCTAssertEqual(advertised.sensor?.named.map(\.0).filter { !$0.contains("alarm") },
                       ["temperature_1", "temperature_2", "temperature_3", "temperature_4", "temperature_5", "temperature_6", "battery"])
        XCTAssertEqual(values(advertised.sensor)["temperature_1"], 25, "a newer frame's probe replaces the older")
    }

    func testAKegtronSaysWhatIsLeftAndAKT200KeepsBothPorts() {
        // bleparser's KT-100 frame: a 1/2 barrel (58.674 L), 18.927 L at start, 4.567 L poured, set up, "Hello".
        let single = "e532" + "49ef" + "11d7" + "01" + "48656c6c6f" + String(repeating: "00", count: 15)
        XCTAssertEqual(values(decode(company: 0xFFFF, single)),
                       ["volume_remaining": 14.36, "volume_dispensed": 4.567, "volume_start": 18.927, "keg_size": 58.674])
        XCTAssertEqual(decode(company: 0xFFFF, single)?.model, SensorModel(maker: "Kegtron", model: "KT-100"))
        XCTAssertNil(decode(company: 0xFFFF, single + "00"), "0xFFFF is any test device's: only 27 bytes are a Kegtron's")
        XCTAssertNil(decode(company: 0xFFFF, "e53249ef11d701" + "48ff" + String(repeating: "00", count: 18)), "a port name that is not text")
        XCTAssertNil(decode(company: 0xFFFF, "e53249ef11d701" + "480048" + String(repeating: "00", count: 17)), "text after the padding")
        XCTAssertEqual(values(decode(company: 0xFFFF, "e532" + "1000" + "2000" + "00" + String(repeating: "00", count: 20)))["volume_remaining"], 0,
                       "more poured than it held: none left, not a negative volume")

        // A KT-200 sends its ports in turn; the fold keeps the port a frame does not carry.
        let id = DeviceID(octets: [0xC4, 0x7C, 0x8D, 0x00, 0x01, 0x03], kind: .leRandom)
        func frame(_ port: String, _ poured: String) -> Observation {
            Observation(id: id, timestamp: Date(), rssi: -60,
                        manufacturerData: [ManufacturerData(companyID: 0xFFFF, companyName: "",
                                                            data: Hex.bytes("e532" + "49ef" + poured + port + String(repeating: "00", count: 20))!)])
        }
        var advertised = AdvertisedData(frame("41", "03e8"))
        advertised.merge(frame("51", "07d0"))
        XCTAssertEqual(advertised.sensor?.model, SensorModel(maker: "Kegtron", model: "KT-200"))
        XCTAssertEqual(values(advertised.sensor)["volume_dispensed_1"], 1)
        XCTAssertEqual(values(advertised.sensor)["volume_dispensed_2"], 2)
        advertised.merge(frame("41", "0bb8"))
        XCTAssertEqual(values(advertised.sensor)["volume_remaining_1"], 15.927)
        XCTAssertEqual(values(advertised.sensor)["volume_remaining_2"], 16.927)
    }

    func testAKegtronsPortNamesAreKeptAsSentAndAKT200KeepsTheOtherPortsName() {
        let single = "e532" + "49ef" + "11d7" + "01" + "48656c6c6f" + String(repeating: "00", count: 15)
        XCTAssertEqual(decode(company: 0xFFFF, single)?.slotNames, [1: "Hello"], "a KT-100's one port")
        let id = DeviceID(octets: [0xC4, 0x7C, 0x8D, 0x00, 0x01, 0x04], kind: .leRandom)
        func frame(_ port: String, _ name: [UInt8]) -> Observation {
            let padded = name + [UInt8](repeating: 0, count: 20 - name.count)
            return Observation(id: id, timestamp: Date(), rssi: -60,
                               manufacturerData: [ManufacturerData(companyID: 0xFFFF, companyName: "",
                                                                   data: Hex.bytes("e532" + "49ef" + "03e8" + port)! + padded)])
        }
        var advertised = AdvertisedData(frame("41", Array("IPA".utf8)))
        advertised.merge(frame("51", Array("Stout \u{1B}[31m".utf8)))
        XCTAssertEqual(advertised.sensor?.slotNames, [1: "IPA", 2: "Stout \u{1B}[31m"], "each port's name, kept as sent")
        advertised.merge(frame("41", []))
        XCTAssertEqual(advertised.sensor?.slotNames, [2: "Stout \u{1B}[31m"], "port 1's name cleared in Kegtron's app")
    }

    func testGoveesOtherModelsAsGoveeBleReadsThem() {
        // H5051: nine bytes under 0xEC88, little-endian hundredths; 21.50 °C, 48.00 %, 87 %.
        XCTAssertEqual(values(decode(company: 0xEC88, "006608c01257000000")),
                       ["temperature": 21.5, "humidity": 48, "battery": 87])
        XCTAssertEqual(decode(name: "Govee_H5071_1A2B", company: 0xEC88, "006608c01257000000")?.model, SensorModel(maker: "Govee", model: "H5071"))
        // H5140: by name; 21.4 °C and 48.6 % packed, 1,234 ppm, no error; an error byte is no reading.
        XCTAssertEqual(values(decode(name: "GV5140_1A2B", company: 0x0001, "0101" + "0345d6" + "04d2" + "00")),
                       ["temperature": 21.4, "humidity": 48.6, "carbon_dioxide": 1234])
        XCTAssertEqual(values(decode(name: "GV5140_1A2B", company: 0x0001, "0101" + "0345d6" + "04d2" + "01")), [:], "the sensor says its figures are wrong")
        // H5112: its own sensor (0x41) with humidity, then the probe on its cable (0x82), temperature only.
        XCTAssertEqual(values(decode(name: "GV5112_1A2B", company: 0x0001, "0101" + "0345d6" + "50" + "00" + "41")),
                       ["temperature_1": 21.4, "humidity_1": 48.6, "battery": 80])
        XCTAssertEqual(values(decode(name: "GV5112_1A2B", company: 0x0001, "0101" + "8345d6" + "50" + "00" + "82")),
                       ["temperature_2": -21.4, "battery": 80])
        // H5127: someone present, no motion; and six bytes under 0x8843 that do not start as its frame do.
        XCTAssertEqual(values(decode(company: 0x8843, "ec0002010100")), ["occupancy": 1, "motion": 0])
        XCTAssertNil(decode(company: 0x8843, "ec0003010100"), "a light or plug of Govee's, not a presence sensor")
        // A meat thermometer: probe 1 at 65.43 °C, probe 2 unplugged (negative): no second figure.
        XCTAssertEqual(values(decode(company: 0x2730, "0000000000000000" + "198f" + "1f40" + "00" + "ffff" + "1f40")),
                       ["temperature_1": 65.43, "temperature_alarm_high_1": 80])
        // An H5198: probe 1 with its high and low alarms, probe 2 with no alarm set (negative).
        XCTAssertEqual(values(decode(company: 0x3022, "0000000000000100" + "198f" + "1f40" + "0fa0" + "0898" + "ffff" + "ffff")),
                       ["temperature_1": 65.43, "temperature_alarm_high_1": 80, "temperature_alarm_low_1": 40, "temperature_2": 22])
        XCTAssertEqual(decode(company: 0x2730, "0000000000000000198f1f4000ffff1f40")?.model, SensorModel(maker: "Govee", model: "H5182"))
        XCTAssertNil(decode(company: 0x2731, "0000000000000000198f1f4000ffff1f40"), "neither its company, its name nor its service")
    }

    func testAnH5178KeepsItsRemoteSensorAndAnH5055IsHeardWithoutItsScanResponse() {
        let id = DeviceID(octets: [0xC4, 0x7C, 0x8D, 0x00, 0x01, 0x04], kind: .lePublic)
        func frame(_ company: UInt16, _ hex: String) -> Observation {
            Observation(id: id, timestamp: Date(), rssi: -60, manufacturerData: [ManufacturerData(companyID: company, companyName: "", data: Hex.bytes(hex)!)])
        }
        var h5178 = AdvertisedData(frame(0x0001, "010100" + "0345d6" + "50" + "0000"))
        h5178.merge(frame(0x0001, "010101" + "8345d6" + "4b" + "0000"))
        XCTAssertEqual(values(h5178.sensor), ["temperature_1": 21.4, "humidity_1": 48.6, "battery_1": 80,
                                              "temperature_2": -21.4, "humidity_2": 48.6, "battery_2": 75])
        // Theengs' frames: probes 1 and 2, then 3 and 4, no service listed, no name.
        var h5055 = AdvertisedData(frame(0x04CF, "0400461b061700ffff2c01067300ffff2c010000"))
        h5055.merge(frame(0x04CF, "0400417f065600ffff2c01069100ffff2c010000"))
        XCTAssertEqual(measured(h5055.sensor), ["temperature_1": 23, "temperature_2": 115, "temperature_3": 86, "temperature_4": 145, "battery": 65])
        XCTAssertNil(AdvertisedData(frame(0x04CF, "0400461b001700ffff2c01007300ffff2c010000")).sensor,
                     "twenty bytes under 0x04CF without a probe's kind byte are someone else's")
    }

    func testAThermoBeaconsReadingsOutliveTheFrameOfItsDaysExtremes() {
        // Theengs' frames: readings (25.125 °C, 55.75 %, 3.0 V), then the day's highest and lowest.
        let id = DeviceID(octets: [0xDC, 0x23, 0x00, 0x00, 0x0A, 0xAE], kind: .leRandom)
        func frame(_ hex: String) -> Observation {
            Observation(id: id, timestamp: Date(), rssi: -60, manufacturerData: [ManufacturerData(companyID: 0x0011, companyName: "", data: Hex.bytes(hex)!)])
        }
        var advertised = AdvertisedData(frame("0000ae0a000023dcb80b92017c03cdbb0300"))
        advertised.merge(frame("0000ae0a000023dcb001af00000083019d520300"))
        XCTAssertEqual(values(advertised.sensor), ["temperature": 25.125, "humidity": 55.75, "voltage": 3])
        advertised.merge(frame("0000ae0a000023dcb80ba0017c03cdbb0300"))
        XCTAssertEqual(values(advertised.sensor)["temperature"], 26, "the next readings replace them")
        XCTAssertNil(AdvertisedData(Observation(id: DeviceID(octets: [1, 2, 3, 4, 5, 6], kind: .leRandom), timestamp: Date(), rssi: -60,
                                                manufacturerData: [ManufacturerData(companyID: 0x0011, companyName: "",
                                                                                    data: Hex.bytes("0000ae0a000023dcb001af00000083019d520300")!)])).sensor,
                     "twenty bytes that do not carry the address they came from are not a ThermoBeacon's")
    }

    func testAMiBeaconThermometerSendingOneObjectAFrameKeepsEachReading() {
        // Theengs' LYWSD02 frames from AA:BB:CC:DD:EE:FF: 25.6 °C, then 69 %, then the battery at 8 %.
        let id = DeviceID(octets: [0xAA, 0xBB, 0xCC, 0xDD, 0xEE, 0xFF], kind: .lePublic)
        func frame(_ hex: String) -> Observation {
            Observation(id: id, timestamp: Date(), rssi: -60, serviceData: [ServiceID(BluetoothUUID(0xFE95), name: nil): Hex.bytes(hex)!])
        }
        var advertised = AdvertisedData(frame("70205b0475ffeeddccbbaa090410020001"))
        advertised.merge(frame("70205b04dcffeeddccbbaa09061002b202"))
        advertised.merge(frame("70205b0485ffeeddccbbaa090a100108"))
        XCTAssertEqual(advertised.sensor?.named.map(\.0), ["temperature", "humidity", "battery"], "each in the place it came first")
        XCTAssertEqual(values(advertised.sensor), ["temperature": 25.6, "humidity": 69, "battery": 8])
        advertised.merge(frame("70205b0476ffeeddccbbaa090410020901"))
        XCTAssertEqual(values(advertised.sensor)["temperature"], 26.5, "a newer temperature replaces the older")
    }

    func testMiBeaconStatesOfMotionDoorFloodAndSmokeSensors() {
        // Theengs' MUE4094RT frame (no address carried): "motion seen", object 0x0003. It never
        // says that motion stopped, so it is an event (each frame once), not a state left on.
        XCTAssertEqual(values(decode(service: "FE95", serviceHex: "4030dd031d0300010100")), ["motion_seen": 1])
        XCTAssertEqual(decode(service: "FE95", serviceHex: "4030dd031d0300010100")?.readings.first?.quantity.kind, .event)
        XCTAssertEqual(decode(service: "FE95", serviceHex: "4030dd031d0300010100")?.model, SensorModel(maker: "Xiaomi", model: "MUE4094RT"))
        func frame(_ product: String, _ object: String) -> String { "5050" + product + "2a" + "0201008d7cc4" + object }
        // RTCGQ02LM: motion in the dark (0), then two minutes without (0x1017: 120 s).
        XCTAssertEqual(values(decode(service: "FE95", serviceHex: frame("8d0a", "0f0003000000"))), ["motion": 1, "light": 0])
        XCTAssertEqual(values(decode(service: "FE95", serviceHex: frame("8d0a", "17100478000000"))), ["motion": 0])
        XCTAssertEqual(values(decode(service: "FE95", serviceHex: frame("8d0a", "1710041e000000")))["motion"], 1, "30 s still counts as motion")
        // CGPR1: motion with 300 lx.
        XCTAssertEqual(values(decode(service: "FE95", serviceHex: frame("830a", "0f00032c0100"))), ["motion": 1, "illuminance": 300])
        // MCCGQ02HL: open, closed, left open; a reset says nothing of the door.
        XCTAssertEqual(values(decode(service: "FE95", serviceHex: frame("8b09", "19100100"))), ["opening": 1])
        XCTAssertEqual(values(decode(service: "FE95", serviceHex: frame("8b09", "19100101"))), ["opening": 0])
        XCTAssertEqual(values(decode(service: "FE95", serviceHex: frame("8b09", "19100102"))), ["opening": 1])
        XCTAssertEqual(values(decode(service: "FE95", serviceHex: frame("8b09", "19100103"))), [:])
        // SJWS01LM wet, JTYJGD03MI smoke.
        XCTAssertEqual(values(decode(service: "FE95", serviceHex: frame("6308", "14100101"))), ["wet": 1])
        XCTAssertEqual(values(decode(service: "FE95", serviceHex: frame("9709", "15100101"))), ["smoke": 1])
    }

    func testAGrillProbeThatTheFrameSaysIsUnpluggedGoes() {
        let id = DeviceID(octets: [0xC4, 0x7C, 0x8D, 0x00, 0x01, 0x05], kind: .lePublic)
        func frame(_ mask: UInt8) -> Observation {
            var body: [UInt8] = [0, 0, 87, mask, 0]
            for value: Int16 in [21, 0, 300] { body += withUnsafeBytes(of: value.littleEndian, Array.init) }
            body.append(0)
            for value: Int16 in [22, 0, 300] { body += withUnsafeBytes(of: value.littleEndian, Array.init) }
            body += [0, 0]
            return Observation(id: id, timestamp: Date(), rssi: -60, services: [ServiceID(BluetoothUUID(0x5550), name: nil)],
                               manufacturerData: [ManufacturerData(companyID: 0x04CF, companyName: "", data: body)])
        }
        var advertised = AdvertisedData(frame(0x03))
        XCTAssertEqual(values(advertised.sensor)["temperature_2"], 22)
        advertised.merge(frame(0x01))
        XCTAssertEqual(values(advertised.sensor), ["temperature_1": 21, "temperature_alarm_high_1": 300, "temperature_alarm_low_1": 0, "battery": 87],
                       "probe 2 unplugged: neither its last figure nor its alarms")
    }

    func testSensorPushUnpacksItsMixedRadixNumber() {
        // HT.w (type 65): temperature count 24600 (21.5 °C), humidity count 19200 (48 %).
        let packed = UInt64(24600) + UInt64(19200) * 66001
        let whole = [UInt8(1 << 2)] + (0..<4).map { UInt8(truncatingIfNeeded: packed >> (8 * UInt64($0))) }
        let hex = whole.dropFirst(2).map { String(format: "%02x", $0) }.joined()
        let data = decode(name: "SensorPush HT.w 0CA", company: UInt16(whole[0]) | UInt16(whole[1]) << 8, hex)
        XCTAssertEqual(values(data), ["temperature": 21.5, "humidity": 48])
        XCTAssertNil(decode(name: "Kitchen", company: UInt16(whole[0]) | UInt16(whole[1]) << 8, hex), "neither named nor listing its service")
    }

    func testAnOralBToothbrushSaysWhetherItIsBrushingAndForHowLong() {
        let data = decode(company: 0x00DC, "043400030001020102")
        XCTAssertEqual(values(data), ["duration": 62, "brushing": 1])
        XCTAssertEqual(data?.model, SensorModel(maker: "Oral-B", model: "iO Series 4"))
        XCTAssertNil(decode(company: 0x00DC, "04340003010"+"2"), "too short")
    }

    func testAMopekaNeedsItsServiceListedOrAModelHeardPassivelyAndReadsThePropaneLevel() {
        // 3.0 V, 21 °C (61 − 40), level 1000 at quality 3.
        let hex = "0360" + "3d" + "e8c3" + "000000" + "0102"
        let data = decode(company: 0x0059, hex, lists: ["FEE5"])
        XCTAssertEqual(values(data)["temperature"], 21)
        XCTAssertEqual(values(data)["voltage"], 3)
        XCTAssertEqual(values(data)["tank_level"], 380)  // 1000 × (0.573045 − 0.002822·61 − 0.00000535·61²), truncated
        XCTAssertEqual(values(data)["reading_quality"], 100)
        XCTAssertEqual(values(decode(company: 0x0059, hex))["tank_level"], 380, "a Pro Check is told by its first byte, as Theengs tells it")
        XCTAssertEqual(values(decode(company: 0x0059, "0c" + hex.dropFirst(2)))["tank_level"], 380, "a Pro Check Universal too")
        XCTAssertNil(decode(company: 0x0059, "08" + hex.dropFirst(2)), "a Pro Plus without FEE5 listed may be any device of that company")
        XCTAssertNotNil(decode(company: 0x0059, "08" + hex.dropFirst(2), lists: ["FEE5"]))
    }

    func testSensirionAndAranetAndJaalee() {
        XCTAssertEqual(values(decode(name: "MyCO2", company: 0x06D5, "00081a2b" + "0080" + "0080" + "e803")),
                       ["temperature": 42.5, "humidity": 50.0, "carbon_dioxide": 1000])
        // Sample type 10, an SCD4x CO₂ gadget: −10 °C, 76.8 %, 745 ppm (Theengs' frame).
        let scd = decode(name: "SCD4X", company: 0x06D5, "000ae2e733339dc4e902")
        XCTAssertEqual(values(scd), ["temperature": -10, "humidity": 76.8, "carbon_dioxide": 745])
        XCTAssertEqual(scd?.model, SensorModel(maker: "Sensirion", model: "CO2 Gadget"))
        // Aranet4: 412 ppm, 21.5 °C, 1013.2 hPa, 45 %, battery 88 %.
        let aranet = decode(name: "Aranet4 1A2B3", company: 0x0702, "2203050100000000" + "9c01" + "ae01" + "9427" + "2d" + "58" + "01" + "2c01" + "0c00")
        XCTAssertEqual(values(aranet), ["carbon_dioxide": 412, "temperature": 21.5, "pressure": 1013.2, "humidity": 45, "battery": 88])
        XCTAssertNil(decode(name: "Aranet4 1A2B3", company: 0x0702, "0203050100000000" + "9c01ae0194272d58012c010c00"),
                     "integrations off: the device sends no readings")
        let jaalee = decode(company: 0x004C, "0215ebefd08370a247c89837e7b5634df525" + "6a5a" + "7ae1" + "c5" + "50", lists: ["F525"])
        XCTAssertEqual(values(jaalee), ["temperature": 27.7, "humidity": 48.0, "battery": 80])
        // Ticks are unsigned (Sensirion's −45 + 175·t/65535): 45357 is 76.12 °C, where Theengs,
        // reading them signed, says −98.88.
        let hot = decode(company: 0x004C, "0215ebefd08370a247c89837e7b5634df525" + "b12d" + "5be6" + "c5" + "1c", lists: ["F525"])
        XCTAssertEqual(values(hot)["temperature"], 76.12)
        // A passive scan hears no scan response, so no F525 listed: the UUID's end tells it.
        XCTAssertEqual(values(decode(company: 0x004C, "0215ebefd08370a247c89837e7b5634df5256a5a7ae1c550")),
                       ["temperature": 27.7, "humidity": 48.0, "battery": 80])
        XCTAssertEqual(decode(company: 0x004C, "0215ebefd08370a247c89837e7b5634df5266a5a7ae1c550")?.readings ?? [], [],
                       "another iBeacon's major and minor are no readings")
    }

    func testAJaaleeCompactBlockCountsOnlyWithTheAddressItWasHeardFrom() {
        // Battery 80 %, the address C4:7C:8D:00:01:02 reversed, then the ticks: 27.70 °C, 48.00 %.
        let compact = decode(company: 0x0F00, "50" + "0201008d7cc4" + "6a5a7ae1")
        XCTAssertEqual(values(compact), ["temperature": 27.7, "humidity": 48.0, "battery": 80])
        XCTAssertEqual(compact?.model, SensorModel(maker: "Jaalee", model: "JHT"))
        XCTAssertEqual(values(decode(company: 0x0F00, "50" + "0201008d7cc4" + "00" + "6a5a7ae1")), ["temperature": 27.7, "humidity": 48.0, "battery": 80],
                       "the twelve-byte form")
        XCTAssertNil(decode(company: 0x0F00, "50" + "0301008d7cc4" + "6a5a7ae1"), "another device's address")
    }

    func testBParasiteOutranksTheCustomXiaomiFormatsOnTheirService() {
        let data = decode(service: "181A", serviceHex: "1105" + "0bb8" + "5dc0" + "8000" + "4000" + "c47c8d000102" + "0100")
        XCTAssertEqual(values(data), ["temperature": 24, "humidity": 50, "moisture": 25, "voltage": 3, "illuminance": 256])
        XCTAssertEqual(data?.model?.maker, "b-parasite")
        XCTAssertNil(decode(service: "181A", serviceHex: "3105" + "0bb85dc080004000c47c8d0001020100"), "a protocol it does not have")
    }

    func testSwitchBotOutdoorMotionAndContactSensors() {
        let outdoor = decode(name: "WoIOSensorTH", company: 0x0969, "c47c8d0001020a0005953000", service: "FD3D", serviceHex: "770064")
        XCTAssertEqual(values(outdoor), ["temperature": 21.5, "humidity": 48, "battery": 100])
        let motion = decode(service: "FD3D", serviceHex: "73405a1e0002")
        XCTAssertEqual(values(motion), ["motion": 1, "light": 1, "battery": 90])
        XCTAssertEqual(motion?.readings.first?.quantity.kind, .binary)
        let contact = decode(service: "FD3D", serviceHex: "64003c020000000000")
        XCTAssertEqual(values(contact), ["opening": 1, "motion": 0, "light": 0, "battery": 60])
        XCTAssertNil(decode(service: "FD3D", serviceHex: "64003c02"), "a contact frame cut short")
    }

    func testMachineTextKeepsEachReadingsPlacesAndSign() {
        let cases: [(Double, Int, String)] = [(25.06, 2, "25.06"), (-7.5, 1, "-7.5"), (0.001, 3, "0.001"), (-0.04, 2, "-0.04"),
                                              (3, 5, "3.00000"), (48, 0, "48"), (1013.2, 1, "1013.2"), (-0.0001, 2, "0.00"),
                                              (4_294_967_295, 0, "4294967295")]
        for (value, places, text) in cases {
            XCTAssertEqual(SensorText.number(SensorReading(.temperature, value, decimals: places)), text)
        }
    }
}
