// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

@testable import Domain
import XCTest

/// Advertisements as bytes, the limits said before a controller refuses, and the files that
/// keep advertisements and servers: FavBlue's own and nRF Connect for Desktop's.
final class PeripheralSetupTests: XCTestCase {
    func testAnIBeaconIsTheFlagsThenApplesBlockByteForByte() {
        let ad = AdvertisingPreset.iBeacon.advertisement()
        XCTAssertEqual(Hex.spaced(ad.data.encoded),
                       "02 01 06 1A FF 4C 00 02 15 7E 57 C0 DE 2C 8F 4F 3C 9F 91 85 77 E1 89 12 34 00 01 00 02 C5")
        XCTAssertEqual(ad.kind, .nonConnectable)
        XCTAssertEqual(ad.problems(limits: AdvertisingLimits()), [])
    }

    func testUUIDListsGoInTheirShortestFormAndServiceDataByTheirWidth() {
        let fields = AdvertisingFields(serviceUUIDs: [BluetoothUUID("180D")!, BluetoothUUID("0000FEAA-0000-1000-8000-00805F9B34FB")!,
                                                      BluetoothUUID("12345678")!],
                                       serviceData: [ServiceDataField(uuid: BluetoothUUID("FCD2")!, data: [0x40, 0x01, 0x50])])
        XCTAssertEqual(Hex.spaced(fields.encoded), "05 03 0D 18 AA FE 05 05 78 56 34 12 06 16 D2 FC 40 01 50")
    }

    func testAFieldThatDoesNotFitSaysWhichAndByHowMuch() {
        var ad = Advertisement(label: "Long", data: AdvertisingFields(flags: 0x06, localName: "A name far too long for thirty-one"))
        XCTAssertEqual(ad.problems(limits: AdvertisingLimits()).map(\.message),
                       ["The name does not fit: 8 bytes over the 31 bytes of a legacy advertisement."])
        ad.data.localName = "A name that fits in twenty"
        ad.data.manufacturerData = [ManufacturerField(companyID: 0x004C, data: [1, 2, 3])]
        XCTAssertEqual(ad.problems(limits: AdvertisingLimits(), company: { $0 == 0x004C ? "Apple, Inc." : "?" }).map(\.message),
                       ["The manufacturer data of Apple, Inc. does not fit: 7 bytes over the 31 bytes of a legacy advertisement."])
        ad.extended = true
        let limits = AdvertisingLimits(extended: true, maximumExtendedLength: 251, sets: 4)
        XCTAssertEqual(ad.problems(limits: limits), [], "an extended set holds it")
        ad.data.raw = [RawADField(type: 0x24, data: [UInt8](repeating: 0, count: 240))]
        XCTAssertEqual(ad.problems(limits: limits).map(\.message),
                       ["The AD structure of type 0x24 does not fit: 29 bytes over the 251 bytes of an extended advertisement on this adapter."])
    }

    func testWhatTheAdapterLacksIsSaidBeforeItRefuses() {
        let ad = Advertisement(label: "Far", kind: .scannable, extended: true, primaryPHY: .coded, secondaryPHY: .le2M,
                               data: AdvertisingFields(localName: "x"), scanResponse: AdvertisingFields(localName: "y"))
        XCTAssertEqual(ad.problems(limits: AdvertisingLimits()).map(\.message), [
            "This adapter has no extended advertising: send it as a legacy advertisement.",
            "This adapter cannot advertise on the LE Coded PHY.",
            "This adapter cannot send advertising data on the LE 2M PHY.",
            "An extended scannable advertisement carries its data in the scan response alone: move the fields there.",
        ])
        let beacon = Advertisement(label: "b", kind: .nonConnectable, data: AdvertisingFields(), scanResponse: AdvertisingFields(localName: "z"))
        XCTAssertEqual(beacon.problems(limits: AdvertisingLimits()).map(\.part), [.scanResponse])
    }

    func testEddystoneURLUsesTheSchemeAndExpansionCodes() {
        XCTAssertEqual(AdvertisingPreset.eddystoneURL("https://www.example.com/x"), [0x01] + Array("example".utf8) + [0x00, UInt8(ascii: "x")])
        XCTAssertEqual(AdvertisingPreset.eddystoneURL("http://a.org"), [0x02, UInt8(ascii: "a"), 0x08])
    }

    private func sample() -> PeripheralFile {
        var heart = AdvertisingPreset.heartRate.advertisement(name: "Pulse \"7\"")
        heart.id = "A1"
        heart.scanResponse = AdvertisingFields(manufacturerData: [ManufacturerField(companyID: 0x0059, data: [0xDE, 0xAD])])
        var server = AdvertisingPreset.heartRate.server(name: "Pulse")!
        server.id = "S1"
        server.services.append(ServedService(uuid: BluetoothUUID("5E7F1000-1C2B-4A5D-8E9F-0A1B2C3D4E5F")!, characteristics: [
            ServedCharacteristic(uuid: BluetoothUUID("5E7F1001-1C2B-4A5D-8E9F-0A1B2C3D4E5F")!, properties: [.read, .write, .indicate],
                                 readSecurity: .encrypted, writeSecurity: .authenticated, value: [1, 2, 3], maximumLength: 20,
                                 userDescription: "Set point", presentation: PresentationFormat(format: 0x06, exponent: -1, unit: 0x272F),
                                 descriptors: [ServedDescriptor(uuid: BluetoothUUID("2906")!, value: [0, 0, 100, 0], handle: 40)],
                                 handle: 30, cccdHandle: 41),
        ], handle: 29))
        return PeripheralFile(advertisements: [heart], server: server)
    }

    func testAFileReadsBackAsItWasWritten() throws {
        let file = sample()
        let text = file.text
        XCTAssertEqual(try PeripheralFile.read(text), file)
        XCTAssertTrue(text.contains("\"name\": \"Pulse \\\"7\\\"\""), "quotes escaped: \(text)")
    }

    func testAHandleThatComesTwiceNamesItsLineAndNothingIsImported() throws {
        var lines = sample().text.components(separatedBy: "\n")
        let second = try XCTUnwrap(lines.firstIndex { $0.contains("\"handle\": 40") })
        lines[second] = lines[second].replacingOccurrences(of: "40", with: "31")
        XCTAssertThrowsError(try PeripheralFile.read(lines.joined(separator: "\n"))) { error in
            let first = lines.firstIndex { $0.contains("\"handle\": 30") }! + 1
            XCTAssertEqual(error as? JSONFileProblem,
                           JSONFileProblem(line: second + 1, "the handle 31 is taken already, on line \(first)."),
                           "the value's handle follows the declaration's")
        }
    }

    func testAUUIDThatDoesNotParseAndBrokenJSONNameTheirLines() {
        let text = "{\n  \"format\": \"favblue-peripheral\",\n  \"version\": 1,\n  \"server\": {\n    \"name\": \"x\",\n    \"services\": [\n      {\"uuid\": \"18G0\"}\n    ]\n  }\n}\n"
        XCTAssertThrowsError(try PeripheralFile.read(text)) {
            XCTAssertEqual(($0 as? JSONFileProblem)?.description, "Line 7: “18G0” is not a UUID (4 or 32 hex digits).")
        }
        XCTAssertThrowsError(try PeripheralFile.read("{\n  \"format\": \"favblue-peripheral\",\n  \"version\": 1,\n  \"advertisements\": [\n    {\"label\": \"a\",}\n  ]\n}")) {
            XCTAssertEqual(($0 as? JSONFileProblem)?.line, 5)
        }
        XCTAssertThrowsError(try PeripheralFile.read("[1, 2]")) {
            XCTAssertEqual(($0 as? JSONFileProblem)?.description, "Line 1: the file holds no JSON object.")
        }
        let deep = String(repeating: "[", count: 200) + String(repeating: "]", count: 200)
        XCTAssertThrowsError(try JSONDocument.parse(deep), "a file nested past reason is refused, not recursed into")
    }

    func testAdvertisingHeardIsReadIntoFieldsOrKeptRawSoACopySendsTheSameBytes() {
        let typed: [UInt8] = [0x02, 0x01, 0x06, 0x05, 0x09, 0x54, 0x61, 0x67, 0x21, 0x03, 0x03, 0x0F, 0x18, 0x05, 0xFF, 0x59, 0x00, 0xAA, 0xBB]
        let fields = AdvertisingFields(parsing: typed)
        XCTAssertEqual(fields.localName, "Tag!")
        XCTAssertEqual(fields.serviceUUIDs, [BluetoothUUID(0x180F)])
        XCTAssertEqual(fields.manufacturerData, [ManufacturerField(companyID: 0x0059, data: [0xAA, 0xBB])])
        XCTAssertEqual(fields.encoded, typed)
        // Manufacturer data before the name: fields would send them in another order, so all stay raw.
        let reordered: [UInt8] = [0x05, 0xFF, 0x59, 0x00, 0xAA, 0xBB, 0x05, 0x09, 0x54, 0x61, 0x67, 0x21]
        let kept = AdvertisingFields(parsing: reordered)
        XCTAssertEqual(kept.raw.map(\.type), [0xFF, 0x09])
        XCTAssertEqual(kept.encoded, reordered)
        XCTAssertEqual(AdvertisingFields(parsing: [0x05, 0x09, 0x41]).encoded, [], "a structure cut short is dropped, nothing read past it")
    }

    func testACloneKeepsHandlesValuesAndTheDevicesOwnName() throws {
        let tree = [
            GATTService(uuid: BluetoothUUID(0x1800), name: nil, start: 1, end: 3, characteristics: [
                GATTCharacteristic(uuid: BluetoothUUID(0x2A00), handle: 2, valueHandle: 3, properties: [.read])]),
            GATTService(uuid: BluetoothUUID(0x180F), name: nil, start: 20, end: 24, characteristics: [
                GATTCharacteristic(uuid: BluetoothUUID(0x2A19), handle: 21, valueHandle: 22, properties: [.read, .notify],
                                   descriptors: [GATTDescriptor(uuid: BluetoothUUID(0x2902), handle: 23), GATTDescriptor(uuid: BluetoothUUID(0x2901), handle: 24)])]),
        ]
        let file = PeripheralClone.make(name: "Heard", services: tree, values: [3: Array("Own".utf8), 22: [55], 24: Array("Level".utf8)],
                                        advertising: [0x02, 0x01, 0x06], scanResponse: [], connectable: true)
        let setup = try XCTUnwrap(file.server)
        XCTAssertEqual(setup.name, "Own", "the GAP name read, not the one heard")
        XCTAssertEqual(setup.services.map(\.handle), [1, 20])
        let level = setup.services[1].characteristics[0]
        XCTAssertEqual(level.handle, 21)
        XCTAssertEqual(level.cccdHandle, 23)
        XCTAssertEqual(level.value, [55])
        XCTAssertEqual(level.descriptors, [ServedDescriptor(uuid: BluetoothUUID(0x2901), value: Array("Level".utf8), handle: 24)])
        XCTAssertEqual(file.advertisements.first?.label, "Copy of Heard")
        XCTAssertEqual(try PeripheralFile.read(file.text), file, "a clone exports and imports as it is")
    }

    /// A setup as nRF Connect for Desktop saves it (its server setup reducer's state as JSON),
    /// both spellings of its property keys, and its CCCD added by hand.
    func testAnNRFConnectServerSetupImports() throws {
        let text = """
        {
          "selectedComponent": "local.server.3.5",
          "children": {
            "local.server.1": {"instanceId": "local.server.1", "uuid": "1800", "name": "Generic Access", "children": {
              "local.server.1.1": {"instanceId": "local.server.1.1", "uuid": "2A00", "value": [110, 82, 70, 53, 120],
                                   "properties": {"read": true, "write": true}, "readPerm": "open", "writePerm": "open", "children": {}},
              "local.server.1.2": {"instanceId": "local.server.1.2", "uuid": "2A01", "value": [64, 3],
                                   "properties": {"read": true}, "readPerm": "open", "writePerm": "open", "children": {}}}},
            "local.server.2": {"instanceId": "local.server.2", "uuid": "1801", "name": "Generic Attribute", "children": {}},
            "local.server.3": {"instanceId": "local.server.3", "uuid": "5E7F10001C2B4A5D8E9F0A1B2C3D4E5F", "name": "Vendor", "children": {
              "local.server.3.4": {"instanceId": "local.server.3.4", "uuid": "5E7F10011C2B4A5D8E9F0A1B2C3D4E5F", "name": "Level",
                                   "value": [1, 2], "properties": {"read": true, "write_wo_resp": true, "notify": true},
                                   "readPerm": "encrypt", "writePerm": "encrypt mitm-protection", "fixedLength": false, "maxLength": 20,
                                   "children": {
                "local.server.3.4.5": {"instanceId": "local.server.3.4.5", "uuid": "2902", "value": [0, 0], "readPerm": "open", "writePerm": "open"},
                "local.server.3.4.6": {"instanceId": "local.server.3.4.6", "uuid": "2901", "value": [76, 118, 108], "readPerm": "open", "writePerm": "no_access"}}}}}
          }
        }
        """
        let setup = try XCTUnwrap(try PeripheralFile.read(text).server)
        XCTAssertEqual(setup.name, "nRF5x")
        XCTAssertEqual(setup.appearance, 0x0340)
        XCTAssertEqual(setup.services.map(\.uuid.text), ["5E7F1000-1C2B-4A5D-8E9F-0A1B2C3D4E5F"], "Generic Access and Attribute are FavBlue's own")
        let level = try XCTUnwrap(setup.services.first?.characteristics.first)
        XCTAssertEqual(level.properties, [.read, .writeWithoutResponse, .notify])
        XCTAssertEqual(level.readSecurity, .encrypted)
        XCTAssertEqual(level.writeSecurity, .authenticated)
        XCTAssertEqual(level.value, [1, 2])
        XCTAssertEqual(level.maximumLength, 20)
        XCTAssertEqual(level.userDescription, "Lvl")
        XCTAssertEqual(level.descriptors, [], "the CCCD added by hand is made by FavBlue instead")
    }

    func testAnEventLineKeepsTextExactlyWithItsControlCharactersEscaped() {
        let node = JSONNode(.object([JSONMember("event", JSONNode(.string("write"))),
                                     JSONMember("text", JSONNode(.string("a  b\u{1B}[2J\n")))]))
        XCTAssertEqual(JSONDocument.line(node), #"{"event": "write", "text": "a  b\u001b[2J\n"}"#)
    }
}
