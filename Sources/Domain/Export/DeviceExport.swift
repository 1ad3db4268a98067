// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation

/// Devices and signal readings as CSV and JSON, with `DeviceRecord`'s keys. `favblue-scan`
/// prints one JSON object a line with `jsonLine`; the app writes whole files with `document`.
public enum DeviceExport {
    /// The whole file in `format`: a header row and one row per device, or a JSON array.
    public static func document(_ records: [DeviceRecord], format: ExportFormat) -> Data {
        switch format {
        case .csv: return csv(records)
        case .json: return json(records)
        }
    }

    /// A header row of the keys, then one row per device. Lists join with ";", maps are
    /// written "key=hex;key=hex" in key order, and a missing value is an empty field.
    public static func csv(_ records: [DeviceRecord]) -> Data {
        let keys = records.first?.csvKeys
            ?? DeviceRecord.Key.allCases.filter { ![.sources, .sensor, .beacon].contains($0) }
        var writer = CSVWriter()
        writer.row(keys.map(\.stringValue))
        for record in records { writer.row(keys.map { csvField(record, $0) }) }
        return writer.data
    }

    /// A JSON array of objects, one per device, pretty-printed so it reads and diffs well.
    public static func json(_ records: [DeviceRecord]) -> Data {
        let body = records.map { "  " + jsonLine($0) }.joined(separator: ",\n")
        return Data(("[\n" + body + (records.isEmpty ? "" : "\n") + "]\n").utf8)
    }

    /// One device as one JSON object on one line, keys sorted, nulls written out.
    public static func jsonLine(_ record: DeviceRecord) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        return (try? String(decoding: encoder.encode(Encoded(record: record)), as: UTF8.self)) ?? "{}"
    }

    /// The lines of `favblue-scan`'s table: a header, then address, type, RSSI, reports and name.
    /// Names pass through `DeviceText.terminal`, so a newline, BEL or escape sequence a device
    /// advertised is printed as `\n`, `\x07`, `\x1b` and never reaches the terminal as a control.
    public static func table(_ records: [DeviceRecord]) -> [String] {
        func left(_ s: String, _ width: Int) -> String { s.count >= width ? s : s + String(repeating: " ", count: width - s.count) }
        func right(_ s: String, _ width: Int) -> String { s.count >= width ? s : String(repeating: " ", count: width - s.count) + s }
        let header = "ADDRESS            TYPE    RSSI  REPORTS  NAME                      READINGS"
        return [header] + records.map { r in
            let type = r.transport == "bredr" ? "bredr" : r.addressType
            let line = "\(left(r.address, 17))  \(left(type, 6))  \(right(r.rssi.map(String.init) ?? "-", 4))  "
                + "\(right(String(r.reports), 7))  \(left(DeviceText.terminal(r.name ?? ""), 24))"
            let readings = readingsField(r, separator: " ")
            return readings.isEmpty ? line.trimmingBlanks : line + "  " + readings
        }
    }

    /// `time,rssi` rows of signal readings (dBm), oldest first.
    public static func signalHistory(_ readings: [(Date, Int)]) -> Data {
        var writer = CSVWriter()
        writer.row(["time", "rssi"])
        for (time, rssi) in readings.sorted(by: { $0.0 < $1.0 }) { writer.row([ExportTime.string(time), String(rssi)]) }
        return writer.data
    }

    private static func csvField(_ r: DeviceRecord, _ key: DeviceRecord.Key) -> String {
        func map(_ m: [String: String]) -> String { m.keys.sorted().map { "\($0)=\(m[$0]!)" }.joined(separator: ";") }
        switch key {
        case .address: return r.address
        case .addressType: return r.addressType
        case .transport: return r.transport
        case .name: return r.name ?? ""
        case .rssi: return r.rssi.map(String.init) ?? ""
        case .rssiMax: return r.rssiMax.map(String.init) ?? ""
        case .txPower: return r.txPower.map(String.init) ?? ""
        case .company: return r.company ?? ""
        case .companyId: return r.companyId.map(String.init) ?? ""
        case .services: return r.services.joined(separator: ";")
        case .reports: return String(r.reports)
        case .firstSeen: return ExportTime.string(r.firstSeen)
        case .lastSeen: return ExportTime.string(r.lastSeen)
        case .manufacturerData: return map(r.manufacturerData)
        case .serviceData: return map(r.serviceData)
        case .readings: return readingsField(r, separator: ";")
        case .sensor, .beacon: return ""
        case .addresses: return r.addresses.joined(separator: ";")
        case .sources: return (r.sources ?? []).map { "\($0.name)=\($0.rssi.map(String.init) ?? "")" }.joined(separator: ";")
        case .nickname: return r.nickname ?? ""
        case .favorite: return r.favorite.map { $0 ? "true" : "false" } ?? ""
        }
    }

    /// "temperature=21.4;humidity=48": each reading at the format's resolution, in the order given.
    static func readingsField(_ r: DeviceRecord, separator: String) -> String {
        (r.sensorData?.named ?? []).map { "\($0.0)=\(SensorText.number($0.1))" }.joined(separator: separator)
    }

    /// The JSON face of a record: every key present, missing values as null.
    private struct Encoded: Encodable {
        let record: DeviceRecord

        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: DeviceRecord.Key.self)
            let r = record
            for key in r.keys {
                switch key {
                case .address: try c.encode(r.address, forKey: key)
                case .addressType: try c.encode(r.addressType, forKey: key)
                case .transport: try c.encode(r.transport, forKey: key)
                case .name: try c.encode(r.name, forKey: key)
                case .rssi: try c.encode(r.rssi, forKey: key)
                case .rssiMax: try c.encode(r.rssiMax, forKey: key)
                case .txPower: try c.encode(r.txPower, forKey: key)
                case .company: try c.encode(r.company, forKey: key)
                case .companyId: try c.encode(r.companyId, forKey: key)
                case .services: try c.encode(r.services, forKey: key)
                case .reports: try c.encode(r.reports, forKey: key)
                case .firstSeen: try c.encode(ExportTime.string(r.firstSeen), forKey: key)
                case .lastSeen: try c.encode(ExportTime.string(r.lastSeen), forKey: key)
                case .manufacturerData: try c.encode(r.manufacturerData, forKey: key)
                case .serviceData: try c.encode(r.serviceData, forKey: key)
                case .readings: try c.encode(Readings(data: r.sensorData), forKey: key)
                case .sensor: try c.encode(r.sensorData.flatMap(SensorObject.init), forKey: key)
                case .beacon: try c.encode(r.sensorData?.beacon.map(BeaconObject.init), forKey: key)
                case .addresses: try c.encode(r.addresses, forKey: key)
                case .sources: try c.encode(r.sources, forKey: key)
                case .nickname: try c.encode(r.nickname, forKey: key)
                case .favorite: try c.encode(r.favorite, forKey: key)
                }
            }
        }
    }
}

/// `readings`: quantity name → number, each at the format's resolution.
private struct Readings: Encodable {
    let data: SensorData?

    struct Key: CodingKey {
        let stringValue: String
        init(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        for (name, reading) in data?.named ?? [] {
            // A reading is the double nearest its decimal text (its scaled integer over a power of
            // ten), which JSON writes as that text: 25.06, not 25.060000000000002.
            try c.encode(reading.value, forKey: Key(stringValue: name))
        }
    }
}

/// `sensor`: maker and model, and whether its frames are encrypted and unopened.
private struct SensorObject: Encodable {
    let data: SensorData

    init?(_ data: SensorData) {
        guard data.model != nil || data.encrypted else { return nil }
        self.data = data
    }

    enum CodingKeys: String, CodingKey { case maker, model, encrypted, wrongKey }

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        if let model = data.model {
            try c.encode(model.maker, forKey: .maker)
            try c.encode(model.model, forKey: .model)
        }
        try c.encode(data.encrypted, forKey: .encrypted)
        if data.wrongKey { try c.encode(true, forKey: .wrongKey) }
    }
}

/// `beacon`: its kind, its identity's fields and its calibrated power.
private struct BeaconObject: Encodable {
    let beacon: Beacon

    init(_ beacon: Beacon) { self.beacon = beacon }

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: Readings.Key.self)
        try c.encode(beacon.kind.rawValue, forKey: Readings.Key(stringValue: "kind"))
        for (name, field) in beacon.fields {
            switch field {
            case .text(let text): try c.encode(text, forKey: Readings.Key(stringValue: name))
            case .number(let number): try c.encode(number, forKey: Readings.Key(stringValue: name))
            }
        }
        try c.encode(beacon.power, forKey: Readings.Key(stringValue: "power"))
    }
}
