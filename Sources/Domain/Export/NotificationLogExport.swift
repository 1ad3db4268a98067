// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation

/// A characteristic's notification log as a file: `time,hex,value` rows (CSV, through the
/// formula-safe writer) or a JSON array of `{"time", "hex", "value"}`; times in UTC to the millisecond.
public enum NotificationLogExport {
    /// One entry: when it arrived, its bytes, and its value in words (nil when not decoded).
    public struct Entry: Equatable, Sendable {
        public let time: Date
        public let bytes: [UInt8]
        public let value: String?

        public init(time: Date, bytes: [UInt8], value: String?) {
            self.time = time
            self.bytes = bytes
            self.value = value
        }
    }

    /// The whole file in `format`, oldest entry first.
    public static func document(_ entries: [Entry], format: ExportFormat) -> Data {
        switch format {
        case .csv:
            var writer = CSVWriter()
            writer.row(["time", "hex", "value"])
            for entry in entries { writer.row([ExportTime.string(entry.time), DeviceRecord.hex(entry.bytes), entry.value ?? ""]) }
            return writer.data
        case .json:
            struct Row: Encodable {
                let time: String
                let hex: String
                let value: String?

                enum CodingKeys: String, CodingKey { case time, hex, value }

                // A value nothing decoded is written as null, not left out.
                func encode(to encoder: Encoder) throws {
                    var c = encoder.container(keyedBy: CodingKeys.self)
                    try c.encode(time, forKey: .time)
                    try c.encode(hex, forKey: .hex)
                    try c.encode(value, forKey: .value)
                }
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let rows = entries.map { Row(time: ExportTime.string($0.time), hex: DeviceRecord.hex($0.bytes), value: $0.value) }
            let lines = rows.map { "  " + String(decoding: (try? encoder.encode($0)) ?? Data("{}".utf8), as: UTF8.self) }
            return Data(("[\n" + lines.joined(separator: ",\n") + (rows.isEmpty ? "" : "\n") + "]\n").utf8)
        }
    }
}
