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
        let keys = records.first?.keys ?? DeviceRecord.Key.allCases.filter { $0 != .sources }
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
        let header = "ADDRESS            TYPE    RSSI  REPORTS  NAME"
        return [header] + records.map { r in
            let type = r.transport == "bredr" ? "bredr" : r.addressType
            return "\(left(r.address, 17))  \(left(type, 6))  \(right(r.rssi.map(String.init) ?? "-", 4))  "
                + "\(right(String(r.reports), 7))  \(DeviceText.terminal(r.name ?? ""))"
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
        case .addresses: return r.addresses.joined(separator: ";")
        case .sources: return (r.sources ?? []).map { "\($0.name)=\($0.rssi.map(String.init) ?? "")" }.joined(separator: ";")
        case .nickname: return r.nickname ?? ""
        case .favorite: return r.favorite.map { $0 ? "true" : "false" } ?? ""
        }
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
                case .addresses: try c.encode(r.addresses, forKey: key)
                case .sources: try c.encode(r.sources, forKey: key)
                case .nickname: try c.encode(r.nickname, forKey: key)
                case .favorite: try c.encode(r.favorite, forKey: key)
                }
            }
        }
    }
}
