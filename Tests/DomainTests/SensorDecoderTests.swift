// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import XCTest

/// The sensor families read from their specifications' own examples: the shape of each format,
/// its edges and what it refuses. Tests/sensors/oracles.py compares many more against trusted
/// decoders.
final class SensorDecoderTests: XCTestCase {
    private func service(_ uuid: String, _ hex: String, name: String? = nil, address: String = "A4:C1:38:00:11:22") -> SensorData? {
        SensorDecoders.decode(SensorFrame(address: address, name: name, manufacturerData: [],
                                          serviceData: [ServiceID(BluetoothUUID(uuid)!, name: nil): Hex.bytes(hex)!]))
    }

    private func company(_ id: UInt16, _ hex: String, name: String? = nil) -> SensorData? {
        SensorDecoders.decode(SensorFrame(address: "A4:C1:38:00:11:22", name: name,
                                          manufacturerData: [ManufacturerData(companyID: id, companyName: "", data: Hex.bytes(hex)!)],
                                          serviceData: [:]))
    }

    private func values(_ data: SensorData?) -> [String: Double] {
        Dictionary(uniqueKeysWithValues: (data?.named ?? []).map { ($0.0, $0.1.value) })
    }

    func testBTHomeV2ReadsTemperatureAndHumidityAtTheirResolution() {
        // bthome.io/format: 0x02 temperature sint16 × 0.01, 0x03 humidity uint16 × 0.01.
        let data = service("FCD2", "4002ca0903bf13")
        XCTAssertEqual(values(data), ["temperature": 25.06, "humidity": 50.55])
        XCTAssertEqual(data?.readings.first?.quantity.unit, "°C")
        XCTAssertEqual(data?.readings.first.map(SensorText.number), "25.06")
        XCTAssertEqual(data?.model, SensorModel(maker: "BTHome", model: "v2"))
    }

    func testBTHomeRepeatedObjectsAreNumberedAndNegativeValuesKeepTheirSign() {
        // Two temperatures, −12.34 °C and 21.00 °C, with a packet id and a button press.
        let data = service("FCD2", "400009022efb0234083a01")
        XCTAssertEqual(values(data), ["packet_id": 9, "temperature_1": -12.34, "temperature_2": 21.0, "button": 1])
        XCTAssertEqual(data?.readings.last?.quantity.kind, .event)
    }

    func testBTHomeSteppedTemperatureKeepsItsTwoPlaces() {
        // 0x58: sint8 × 0.35 °C; 127 steps are 44.45 °C exactly.
        XCTAssertEqual(values(service("FCD2", "40587f")), ["temperature": 44.45])
    }

    func testBTHomeStopsAtAnUnknownObjectOrACutOneAndSaysWhat() {
        let unknown = service("FCD2", "400150ee0102")
        XCTAssertEqual(values(unknown), ["battery": 80])
        XCTAssertEqual(unknown?.skipped, ["unknown object 0xEE"])
        let cut = service("FCD2", "40015002c4")
        XCTAssertEqual(values(cut), ["battery": 80])
        XCTAssertEqual(cut?.skipped, ["object 0x02: overruns the frame"])
        XCTAssertNil(service("FCD2", "2002ca09"), "version 1 bits under the version 2 UUID are not read")
    }

    func testAnEncryptedBTHomeFrameWithoutAKeyShowsNoValues() {
        let data = service("FCD2", "41a47266c95f730011223378237214")
        XCTAssertEqual(data?.encrypted, true)
        XCTAssertEqual(data?.readings, [])
    }

    func testBTHomeV1ReadsItsControlBytes() {
        // v1: control byte (format << 5 | length), object id, value: 0x23 0x02 = signed, 3 bytes.
        XCTAssertEqual(values(service("181C", "2302ca090303bf")), ["temperature": 25.06], "a cut object is left out")
        XCTAssertEqual(values(service("181C", "2302ca090303bf13")), ["temperature": 25.06, "humidity": 50.55])
        // A binary object (0x11, opening) says 0 or 1; anything else is no state and is skipped.
        let odd = service("181C", "021101" + "0211c3")
        XCTAssertEqual(values(odd), ["opening": 1])
        XCTAssertEqual(odd?.skipped, ["object 0x11: 195 is not a state"])
    }

    func testCustomXiaomiFirmwaresReadAsTheirAuthorsDocumentThem() {
        // ATC1441: MAC, temperature 26.6 °C (0x010A), 59 %, 78 %, 3211 mV, counter.
        XCTAssertEqual(values(service("181A", "a4c138001122010a3b4e0c8b2a")),
                       ["temperature": 26.6, "humidity": 59, "battery": 78, "voltage": 3.211])
        // pvvx: reversed MAC, 22.92 °C, 48.78 %, 3044 mV, 91 %, counter, flags.
        XCTAssertEqual(values(service("181A", "22110038c1a4f4080e13e40b5b0104")),
                       ["temperature": 22.92, "humidity": 48.78, "battery": 91, "voltage": 3.044])
        XCTAssertNil(service("181A", "a4c138001122010a3b"), "another length is not these formats")
    }

    func testGoveePackedValuesCarryTheirSignAndAnErrorFlagDropsThem() {
        // −4.5 °C and 52.3 %: 45 523 with the top bit set; battery 64 %.
        XCTAssertEqual(values(company(0xEC88, "0080b1d34000", name: "GVH5075_1A2B")),
                       ["temperature": -4.5, "humidity": 52.3, "battery": 64])
        XCTAssertEqual(values(company(0xEC88, "0003482cc000", name: "GVH5075_1A2B")), ["battery": 64],
                       "the error flag leaves only the battery")
        XCTAssertEqual(company(0xEC88, "0080b1d34000")?.model, SensorModel(maker: "Govee", model: "H5075"))
    }

    func testRuuviDataFormat5FromItsSpecification() {
        // docs.ruuvi.com, data format 5, "valid data" example.
        let data = company(0x0499, "0512FC5394C37C0004FFFC040CAC364200CDCBB8334C884F")
        XCTAssertEqual(values(data), ["temperature": 24.3, "humidity": 53.49, "pressure": 1000.44, "voltage": 2.977,
                                      "movement_counter": 66])
        // The "invalid values" example: nothing measured is shown.
        let invalid = company(0x0499, "058000FFFFFFFF800080008000FFFFFFFFFFFFFFFFFFFFFF")
        XCTAssertEqual(values(invalid), [:])
        XCTAssertEqual(invalid?.skipped, ["temperature invalid", "humidity invalid", "pressure invalid"])
    }

    func testRuuviHumidityOutOfRangeGoesAloneAndOnlyFFFFIsInvalid() {
        // docs.ruuvi.com, data format 3, "maximum values" example: 127.5 % humidity cannot be,
        // the temperature, pressure and battery can.
        let maximum = company(0x0499, "03FF7F63FFFF7FFF7FFF7FFFFFFF")
        XCTAssertEqual(values(maximum), ["temperature": 127.99, "pressure": 1155.35, "voltage": 65.535])
        XCTAssertEqual(maximum?.skipped, ["humidity invalid"])
        // Data format 5 with a humidity of 0xFFFE: the tag measured 163.835 %; only 0xFFFF is invalid.
        let high = company(0x0499, "0512FCFFFEC37C0004FFFC040CAC364200CDCBB8334C884F")
        XCTAssertEqual(values(high)["humidity"], 163.835)
        XCTAssertEqual(high?.skipped, [])
    }

    func testAnInkbirdTPSReadsItsHumidityUnlessItSendsNone() {
        // IBS-TH2 ("tps"): 26.62 °C (the company ID 0x0A66), 45.12 %, probe off, battery 50 %.
        XCTAssertEqual(values(company(0x0A66, "a0110010803208", name: "tps")), ["temperature": 26.62, "humidity": 45.12, "battery": 50])
        XCTAssertEqual(values(company(0x0A66, "00000010803208", name: "tps")), ["temperature": 26.62, "battery": 50], "0x0000: no sensor")
        XCTAssertEqual(values(company(0x0A66, "ffff0010803208", name: "tps")), ["temperature": 26.62, "battery": 50], "0xFFFF: no sensor")
    }

    func testASwitchBotMeterPlusSendingIIsReadAsAMeter() {
        // Type 'i' (0x69), battery 90 %, 21.5 °C, 45 %: Theengs Decoder reads it as the Meter (Plus).
        let data = service("FD3D", "69005a05952d")
        XCTAssertEqual(values(data), ["temperature": 21.5, "humidity": 45, "battery": 90])
        XCTAssertEqual(data?.model, SensorModel(maker: "SwitchBot", model: "Meter Plus"))
    }

    func testAThermoBeaconIsReadUnderEveryCompanyIDItSends() {
        // 3.000 V, 21.125 °C, 34.875 %, under each ID Home Assistant's thermobeacon-ble accepts.
        let body = "0000" + "112233445566" + "b80b" + "5201" + "2e02" + "d2040000"
        for id: UInt16 in [0x0010, 0x0011, 0x0014, 0x0015, 0x0018, 0x001B] {
            XCTAssertEqual(values(company(id, body)), ["temperature": 21.125, "humidity": 34.875, "voltage": 3], "company 0x\(String(id, radix: 16))")
        }
        XCTAssertNil(company(0x0012, body), "0x0012 is some other maker's")
    }

    func testGoveeSixByteBlocksUnderCompanyOneAreReadForEveryModelThatSendsThem() {
        // 0x0101, then 21.5 °C and 48.0 % packed (215480), battery 55 %.
        for model in ["H5100", "H5103", "H5104", "H5105", "H5108", "H5110", "H5174", "GV5179"] {
            let data = company(0x0001, "0101" + "0349b8" + "37", name: model.hasPrefix("GV") ? "\(model)_1A2B" : "GV\(model)_1A2B")
            XCTAssertEqual(values(data), ["temperature": 21.5, "humidity": 48, "battery": 55], model)
            XCTAssertEqual(data?.model, SensorModel(maker: "Govee", model: model))
        }
        XCTAssertNil(company(0x0001, "0101" + "0349b8" + "37", name: "Speaker"), "six bytes from a device not named as a Govee")
        XCTAssertEqual(company(0x0001, "0101" + "0349b8" + "37" + "0000")?.model, SensorModel(maker: "Govee", model: "H5108"))
    }

    func testIBeaconReadsMajorAndMinorUnsigned() {
        let data = company(0x004C, "0215E2C56DB5DFFB48D2B060D0F5A71096E0FFFF0001C5")
        XCTAssertEqual(data?.beacon, Beacon(kind: .iBeacon, fields: [("uuid", .text("E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")),
                                                                    ("major", .number(65535)), ("minor", .number(1))], power: -59))
    }

    func testEddystoneURLAndTelemetry() {
        // URL: 0x10, power −20, "https://www." + "google" + ".com".
        XCTAssertEqual(service("FEAA", "10ec01676f6f676c6507")?.beacon,
                       Beacon(kind: .eddystoneURL, fields: [("url", .text("https://www.google.com"))], power: -20))
        XCTAssertNil(service("FEAA", "10ec01676f1f676c65"), "a control character is no URL")
        // TLM v0: 3000 mV, 21.5 °C (0x1580), 1 advertisement, 25.0 s.
        XCTAssertEqual(values(service("FEAA", "20000bb81580000000010000 00fa".replacingOccurrences(of: " ", with: ""))),
                       ["voltage": 3.0, "temperature": 21.5, "advertisements": 1, "uptime": 25.0])
        XCTAssertEqual(service("FEAA", "30ec0102030405060708")?.encrypted, true, "EID is shown as encrypted")
    }

    func testMiBeaconReadsItsObjectsAndChecksTheAddressItCarries() {
        // Frame control 0x5050 (v5, objects, address), LYWSD03MMC, counter, the address least
        // significant first, then 0x100D: 21.5 °C and 48.0 %, and 0x100A: battery 77 %.
        let frame = "5050" + "5b05" + "01" + "2211003 8c1a4".replacingOccurrences(of: " ", with: "") + "0d1004d700e001" + "0a10014d"
        let data = service("FE95", frame)
        XCTAssertEqual(values(data), ["temperature": 21.5, "humidity": 48.0, "battery": 77])
        XCTAssertEqual(data?.model, SensorModel(maker: "Xiaomi", model: "LYWSD03MMC"))
        XCTAssertNil(service("FE95", frame, address: "A4:C1:38:00:11:23"), "another device's address in the frame")
        let cut = service("FE95", String(frame.dropLast(2)))
        XCTAssertEqual(values(cut), ["temperature": 21.5, "humidity": 48.0])
        XCTAssertEqual(cut?.skipped, ["object 0x100A: overruns the frame"])
        XCTAssertNil(service("FE95", "d850" + "5b05" + "01"), "a mesh frame")
        XCTAssertEqual(service("FE95", "5830" + "5b05" + "01" + "2211003 8c1a4".replacingOccurrences(of: " ", with: "") + "00112233445566")?.encrypted, true)
    }

    func testQingpingAndThermoProReadAsTheirCommunityDocumentsThem() {
        // Qingping CGDK2: flags, product 0x10, the address, then 0x01: 23.5 °C and 45.6 %, 0x02: battery 0xFF (powered).
        let qingping = service("FDCD", "0810" + "2211003 8c1a4".replacingOccurrences(of: " ", with: "") + "0104eb00c801" + "0201ff")
        XCTAssertEqual(values(qingping), ["temperature": 23.5, "humidity": 45.6, "battery": 100])
        XCTAssertEqual(qingping?.model, SensorModel(maker: "Qingping", model: "CGDK2"))
        // Light twice, in 0x08 (motion, then 1,200 lx) and 0x09 (1,500 lx): one figure, the later, as qingping-ble reads it;
        // the motion once.
        let light = service("FDCD", "0810" + "22110038c1a4" + "080401b00400" + "0904dc050000")
        XCTAssertEqual(light?.readings.map(\.quantity.key), ["motion", "illuminance"])
        XCTAssertEqual(values(light), ["motion": 1, "illuminance": 1500])
        // ThermoPro TP357: the company ID's high byte and the next one are −1.2 °C, then 48 %, battery full.
        let thermo = SensorDecoders.decode(SensorFrame(address: "A4:C1:38:00:11:22", name: "TP357 (2142)",
                                                       manufacturerData: [ManufacturerData(companyID: 0xF4C2, companyName: "", data: [0xFF, 48, 0x2E, 0])],
                                                       serviceData: [:]))
        XCTAssertEqual(values(thermo), ["temperature": -1.2, "humidity": 48, "battery": 100])
        XCTAssertNil(company(0xF4C2, "ff302e00", name: "Kitchen"), "another name is not a ThermoPro's")
    }

    func testATiltIsReadAsAHydrometerNotAPlainIBeacon() {
        // Tilt red: A495BB10-…, 68 °F, specific gravity 1.050, −59 dBm at 1 m.
        let tilt = company(0x004C, "0215a495bb10c5b14b44b5121370f02d74de0044041ac5")
        XCTAssertEqual(values(tilt), ["temperature": 20, "specific_gravity": 1.05])
        XCTAssertEqual(tilt?.beacon?.kind, .iBeacon, "the more specific family reads it, and its iBeacon identity stays, as ibeacon-ble reads it")
        XCTAssertEqual(tilt?.model, SensorModel(maker: "Tilt", model: "Hydrometer (Red)"))
        // Another UUID is a plain iBeacon.
        XCTAssertEqual(company(0x004C, "0215a495bb10c5b14b44b5121370f02d74df0044041ac5")?.beacon?.kind, .iBeacon)
    }

    func testReadingLimitsAreKeptAsTextAndAnUnreadablePartIsLeftOut() {
        let limits = [ReadingLimit(key: "temperature", above: 25, below: -15.5), ReadingLimit(key: "humidity_2", below: 30)]
        let text = ReadingLimit.encode(limits)
        XCTAssertEqual(text, "temperature>25.0;temperature<-15.5;humidity_2<30.0")
        XCTAssertEqual(ReadingLimit.decode(text), limits)
        XCTAssertEqual(ReadingLimit.decode("temperature>nan;>4;battery<x;battery<20"), [ReadingLimit(key: "battery", below: 20)])
        // Back by 2 % of the limit, at least 0.5, before the same limit tells again.
        XCTAssertEqual(ReadingLimit.hysteresis(25), 0.5)
        XCTAssertEqual(ReadingLimit.hysteresis(-100), 2)
    }

    func testEveryDecoderRefusesShortAndEmptyPayloadsWithoutATrap() {
        // Three bytes hold no reading of any of these families: nothing may come out but nil or no figures.
        for uuid in ["FCD2", "181C", "181E", "181A", "FEAA"] {
            for length in 0..<4 {
                let data = service(uuid, String(repeating: "ff", count: length))
                XCTAssertEqual(data?.readings ?? [], [], "\(uuid), \(length) bytes")
            }
        }
        for id: UInt16 in [0x004C, 0x0499, 0xEC88, 0x0001, 0x8801] {
            for length in 0..<4 {
                let data = company(id, String(repeating: "80", count: length))
                XCTAssertEqual(data?.readings ?? [], [], "company \(id), \(length) bytes")
            }
        }
    }

    func testAKeysFileNamesTheLineThatIsWrong() {
        XCTAssertEqual(try SensorKeyFile.parse("# keys\nA4:C1:38:00:11:22 231d39c1d7cc1ab1aee224cd096db932\n\n"),
                       ["A4:C1:38:00:11:22": Hex.bytes("231d39c1d7cc1ab1aee224cd096db932")!])
        XCTAssertThrowsError(try SensorKeyFile.parse("A4:C1:38:00:11:22 1234\n")) { error in
            XCTAssertEqual((error as? SensorKeyFile.LineError)?.line, 1)
            XCTAssertEqual((error as? SensorKeyFile.LineError)?.reason, "the key is not 32 hex digits")
        }
    }
}
