// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import XCTest

/// The export writers: what a spreadsheet or a script gets back from a CSV or JSON file.
final class DeviceExportTests: XCTestCase {
    /// Names a nearby device may advertise to break a careless writer.
    static let hostileNames = [
        "Plain",
        "Comma, Inc.",
        "Say \"hi\"",
        "\"",
        "Two\nlines",
        "Windows\r\nline",
        "Bare\rreturn",
        ",\",\r\n",
        "Emoji 🎧🔋👩🏽‍💻",
        "מדחום מטבח",
        "ترموستات، مطبخ",
        " padded ",
        "",
        "=1+1",
        "+cmd|' /C calc'!A0",
        "-2+3",
        "@SUM(1+1)",
        "=HYPERLINK(\"http://x\",\"y\")",
        "\tTabbed",
        "\r=1",
    ]

    func testTheScanTableKeepsOneLinePerDeviceWhateverTheNamesHold() {
        let names = ["Two\nlines", "\u{07}Bell", "\u{1B}[31mRed", "\u{202E}exe.live", "Windows\r\nline", "Plain"]
        let lines = DeviceExport.table(names.map { record(name: $0) })
        XCTAssertEqual(lines.count, names.count + 1)
        XCTAssertEqual(lines[0], "ADDRESS            TYPE    RSSI  REPORTS  NAME                      READINGS")
        XCTAssertEqual(lines[1], "C0:98:E5:49:00:01  random   -50        3  Two\\nlines")
        XCTAssertTrue(lines[3].hasSuffix("\\x1b[31mRed"))
        XCTAssertTrue(lines[4].hasSuffix("\\u{202e}exe.live"))
        for line in lines {
            XCTAssertFalse(line.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || (0x202A...0x202E).contains($0.value) },
                           "no control reaches the terminal: \(line.debugDescription)")
        }
    }

    /// What a spreadsheet shows for a cell: the `'` that stops a formula is not part of the text.
    private func shownBySpreadsheet(_ cell: String) -> String {
        cell.hasPrefix("'") ? String(cell.dropFirst()) : cell
    }

    private func record(name: String?, nickname: String? = nil, favorite: Bool? = false) -> DeviceRecord {
        var advertised = AdvertisedData()
        let id = DeviceID(octets: [0xC0, 0x98, 0xE5, 0x49, 0x00, 0x01], kind: .leRandom)
        advertised.merge(Observation(id: id, timestamp: Date(timeIntervalSince1970: 0), rssi: -50, name: name,
                                     services: [ServiceID(BluetoothUUID(0xFEAA), name: nil), ServiceID(BluetoothUUID(0x180F), name: "Battery")],
                                     manufacturerData: [ManufacturerData(companyID: 0x004C, companyName: "Apple, Inc.", data: [0x02, 0x15, 0xAB])],
                                     serviceData: [ServiceID(BluetoothUUID(0xFEAA), name: nil): [0x10, 0x00, 0x03]]))
        return DeviceRecord(id: id, advertised: advertised, rssi: -50, rssiMax: -41, reports: 3,
                            firstSeen: Date(timeIntervalSince1970: 1_700_000_000.25),
                            lastSeen: Date(timeIntervalSince1970: 1_700_000_061.999_6), nickname: nickname, favorite: favorite)
    }

    func testExportsCarryASensorsReadingsAtTheirResolution() throws {
        var advertised = AdvertisedData()
        let id = DeviceID(octets: [0xA4, 0xC1, 0x38, 0x00, 0x11, 0x22], kind: .lePublic)
        advertised.merge(Observation(id: id, timestamp: Date(timeIntervalSince1970: 0), rssi: -60, name: "Living Room",
                                     serviceData: [ServiceID(BluetoothUUID(0xFCD2), name: nil): Hex.bytes("4002ca0903bf13")!]))
        let record = DeviceRecord(id: id, advertised: advertised, rssi: -60, rssiMax: -60, reports: 1,
                                  firstSeen: Date(timeIntervalSince1970: 0), lastSeen: Date(timeIntervalSince1970: 0))
        let line = DeviceExport.jsonLine(record)
        XCTAssertTrue(line.contains("\"readings\":{\"humidity\":50.55,\"temperature\":25.06}"), line)
        XCTAssertTrue(line.contains("\"sensor\":{\"encrypted\":false,\"maker\":\"BTHome\",\"model\":\"v2\"}"), line)
        XCTAssertTrue(line.contains("\"beacon\":null"), line)
        let rows = try CSVReader.parse(String(decoding: DeviceExport.csv([record]), as: UTF8.self))
        XCTAssertEqual(Dictionary(uniqueKeysWithValues: zip(rows[0], rows[1]))["readings"], "temperature=25.06;humidity=50.55")
        XCTAssertEqual(DeviceExport.table([record])[1],
                       "A4:C1:38:00:11:22  public   -60        1  Living Room               temperature=25.06 humidity=50.55")
    }

    func testEveryHostileNameComesBackExactlyFromTheCSV() throws {
        let records = Self.hostileNames.map { record(name: $0.isEmpty ? nil : $0, nickname: $0, favorite: true) }
        let text = String(decoding: DeviceExport.csv(records), as: UTF8.self)
        let rows = try CSVReader.parse(text)
        XCTAssertEqual(rows.count, records.count + 1, "a header and one row per device, however many newlines the names hold")
        let header = rows[0]
        for (row, name) in zip(rows.dropFirst(), Self.hostileNames) {
            XCTAssertEqual(row.count, header.count, "every row has every column: \(name.debugDescription)")
            let fields = Dictionary(uniqueKeysWithValues: zip(header, row))
            XCTAssertEqual(fields["name"].map(shownBySpreadsheet), name)
            XCTAssertEqual(fields["nickname"].map(shownBySpreadsheet), name)
            for cell in row {
                guard let first = cell.unicodeScalars.first, CSVWriter.formulaStarters.contains(first) else { continue }
                XCTAssertNotNil(Double(cell), "only a plain number may start like a formula: \(cell.debugDescription)")
            }
        }
    }

    func testACellASpreadsheetWouldRunGetsALeadingQuote() {
        XCTAssertEqual(CSVWriter.field("=1+1"), "'=1+1")
        XCTAssertEqual(CSVWriter.field("+cmd|' /C calc'!A0"), "'+cmd|' /C calc'!A0")
        XCTAssertEqual(CSVWriter.field("-2+3"), "'-2+3")
        XCTAssertEqual(CSVWriter.field("@SUM(1+1)"), "'@SUM(1+1)")
        XCTAssertEqual(CSVWriter.field("\tTabbed"), "'\tTabbed")
        XCTAssertEqual(CSVWriter.field("\r=1"), "\"'\r=1\"", "defused first, then quoted for its CR")
        XCTAssertEqual(CSVWriter.field("=HYPERLINK(\"x\",\"y\")"), "\"'=HYPERLINK(\"\"x\"\",\"\"y\"\")\"")
        XCTAssertEqual(CSVWriter.field("a=b"), "a=b", "only the first character counts")
        XCTAssertEqual(CSVWriter.field("-43"), "-43", "an RSSI stays a number")
        XCTAssertEqual(CSVWriter.field("-0.5"), "-0.5")
        XCTAssertEqual(CSVWriter.field("-"), "'-")
        XCTAssertEqual(CSVWriter.field("-43dB"), "'-43dB")
        XCTAssertEqual(CSVWriter.field("-1.2.3"), "'-1.2.3")
    }

    func testANotificationLogIsWrittenAsTimedRowsOrJSONAndAValueThatLooksLikeAFormulaIsDefused() throws {
        let time = Date(timeIntervalSince1970: 1_800_000_000.25)
        let entries = [NotificationLogExport.Entry(time: time, bytes: [0x10, 0x48], value: "72 bpm"),
                       NotificationLogExport.Entry(time: time.addingTimeInterval(0.1), bytes: [0x3D], value: "=1+1"),
                       NotificationLogExport.Entry(time: time.addingTimeInterval(0.2), bytes: [], value: nil)]
        let csv = String(decoding: NotificationLogExport.document(entries, format: .csv), as: UTF8.self)
        XCTAssertEqual(csv, "time,hex,value\r\n2027-01-15T08:00:00.250Z,1048,72 bpm\r\n2027-01-15T08:00:00.350Z,3d,'=1+1\r\n"
                       + "2027-01-15T08:00:00.450Z,,\r\n")
        let json = try JSONSerialization.jsonObject(with: NotificationLogExport.document(entries, format: .json)) as? [[String: Any]]
        XCTAssertEqual(json?.count, 3)
        XCTAssertEqual(json?[0]["hex"] as? String, "1048")
        XCTAssertEqual(json?[1]["value"] as? String, "=1+1", "JSON keeps the value exactly")
        XCTAssertTrue(json?[2]["value"] is NSNull)
    }

    func testCSVQuotesOnlyWhatRFC4180Requires() {
        XCTAssertEqual(CSVWriter.field("Plain"), "Plain")
        XCTAssertEqual(CSVWriter.field("Emoji 🎧"), "Emoji 🎧")
        XCTAssertEqual(CSVWriter.field("a,b"), "\"a,b\"")
        XCTAssertEqual(CSVWriter.field("Say \"hi\""), "\"Say \"\"hi\"\"\"")
        XCTAssertEqual(CSVWriter.field("a\r\nb"), "\"a\r\nb\"")
        var writer = CSVWriter()
        writer.row(["a", "b"])
        writer.row(["c", ""])
        XCTAssertEqual(String(decoding: writer.data, as: UTF8.self), "a,b\r\nc,\r\n", "records end in CRLF")
    }

    func testTheCSVHeaderIsFavBlueScansKeysThenNicknameAndFavorite() throws {
        let rows = try CSVReader.parse(String(decoding: DeviceExport.csv([record(name: "Lamp", nickname: "Desk")]), as: UTF8.self))
        XCTAssertEqual(rows[0], ["address", "addressType", "transport", "name", "rssi", "rssiMax", "txPower", "company", "companyId",
                                 "services", "reports", "firstSeen", "lastSeen", "manufacturerData", "serviceData",
                                 "readings", "addresses", "nickname", "favorite"])
        let fields = Dictionary(uniqueKeysWithValues: zip(rows[0], rows[1]))
        XCTAssertEqual(fields["address"], "C0:98:E5:49:00:01")
        XCTAssertEqual(fields["addressType"], "random")
        XCTAssertEqual(fields["firstSeen"], "2023-11-14T22:13:20.250Z", "ISO 8601, UTC, milliseconds")
        XCTAssertEqual(fields["lastSeen"], "2023-11-14T22:14:21.999Z", "never rounded into the next second")
        XCTAssertEqual(fields["services"], "FEAA;180F")
        XCTAssertEqual(fields["manufacturerData"], "0x004C=0215ab")
        XCTAssertEqual(fields["serviceData"], "FEAA=100003")
        XCTAssertEqual(fields["companyId"], "76")
        XCTAssertEqual(fields["txPower"], "", "a missing value is an empty field")
        XCTAssertEqual(fields["favorite"], "false")
    }

    func testTheJSONFileIsAnArrayWithTheSameKeysAsTheCSV() throws {
        let records = [record(name: "Lamp"), record(name: nil, nickname: "Mine", favorite: true)]
        let array = try XCTUnwrap(JSONSerialization.jsonObject(with: DeviceExport.json(records)) as? [[String: Any]])
        XCTAssertEqual(array.count, 2)
        let csvHeader = try CSVReader.parse(String(decoding: DeviceExport.csv(records), as: UTF8.self))[0]
        // JSON has the sensor's model and a beacon's identity besides; CSV has the readings alone.
        for object in array { XCTAssertEqual(Set(object.keys), Set(csvHeader).union(["sensor", "beacon"])) }
        XCTAssertTrue(array[0]["name"] is String)
        XCTAssertTrue(array[1]["name"] is NSNull, "a missing name is null, not left out")
        XCTAssertEqual(array[1]["nickname"] as? String, "Mine")
        XCTAssertEqual(array[1]["favorite"] as? Bool, true)
        XCTAssertEqual(array[0]["manufacturerData"] as? [String: String], ["0x004C": "0215ab"])
        XCTAssertEqual(array[0]["serviceData"] as? [String: String], ["FEAA": "100003"])
        XCTAssertEqual(try XCTUnwrap(JSONSerialization.jsonObject(with: DeviceExport.json([])) as? [Any]).count, 0)
    }

    func testAJSONLineWithoutFavoritesLeavesNicknameAndFavoriteOut() throws {
        let line = DeviceExport.jsonLine(record(name: "Lamp", favorite: nil))
        XCTAssertFalse(line.contains("\n"))
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        XCTAssertNil(object["nickname"])
        XCTAssertNil(object["favorite"])
        XCTAssertNotNil(object["manufacturerData"])
    }

    func testSignalHistoryIsTimeAndRSSIOldestFirst() throws {
        let readings = [(Date(timeIntervalSince1970: 20), -60), (Date(timeIntervalSince1970: 10.5), -71)]
        let rows = try CSVReader.parse(String(decoding: DeviceExport.signalHistory(readings), as: UTF8.self))
        XCTAssertEqual(rows, [["time", "rssi"], ["1970-01-01T00:00:10.500Z", "-71"], ["1970-01-01T00:00:20.000Z", "-60"]])
    }

    func testTheFormatFollowsTheExtension() {
        XCTAssertEqual(ExportFormat.resolve(path: "/t/a.JSON", fallback: .csv).format, .json)
        XCTAssertEqual(ExportFormat.resolve(path: "/t/a.csv", fallback: .json).format, .csv)
        let bare = ExportFormat.resolve(path: "/t/devices", fallback: .json)
        XCTAssertEqual(bare.path, "/t/devices.json")
        XCTAssertTrue(bare.extended)
        let other = ExportFormat.resolve(path: "/t/devices.txt", fallback: .csv)
        XCTAssertEqual(other.path, "/t/devices.txt", "a name with another extension is kept as typed")
        XCTAssertEqual(other.format, .csv)
    }
}

/// A strict RFC 4180 reader, written here so the writer is checked against the rules, not itself.
enum CSVReader {
    struct Malformed: Error {}

    static func parse(_ text: String) throws -> [[String]] {
        var rows: [[String]] = []
        var row: [String] = []
        var field = ""
        var scalars = Array(text.unicodeScalars)[...]
        var quoted = false
        var fieldStarted = false
        while let c = scalars.popFirst() {
            if quoted {
                if c == "\"" {
                    if scalars.first == "\"" { scalars.removeFirst(); field.unicodeScalars.append("\"") } else { quoted = false }
                } else {
                    field.unicodeScalars.append(c)
                }
                continue
            }
            switch c {
            case "\"":
                guard !fieldStarted, field.isEmpty else { throw Malformed() }
                quoted = true
                fieldStarted = true
            case ",":
                row.append(field); field = ""; fieldStarted = false
            case "\r":
                guard scalars.popFirst() == "\n" else { throw Malformed() }
                row.append(field); rows.append(row); row = []; field = ""; fieldStarted = false
            case "\n":
                throw Malformed() // a bare LF outside quotes is not a record end in RFC 4180
            default:
                field.unicodeScalars.append(c); fieldStarted = true
            }
        }
        guard !quoted, row.isEmpty, field.isEmpty else { throw Malformed() }
        return rows
    }
}
