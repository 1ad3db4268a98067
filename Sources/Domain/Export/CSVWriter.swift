// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation

/// Writes comma-separated values as RFC 4180 says: CRLF line ends, and a field holding a comma,
/// a double quote, CR or LF is quoted with its quotes doubled. Text is kept exactly (emoji,
/// right-to-left names), so a reader gets back what the device advertised.
public struct CSVWriter: Sendable {
    private(set) var text = ""

    /// An empty document.
    public init() {}

    /// Appends one record.
    public mutating func row(_ fields: [String]) {
        text += fields.map(Self.field).joined(separator: ",")
        text += "\r\n"
    }

    /// The document so far, as UTF-8.
    public var data: Data { Data(text.utf8) }

    /// One field, quoted when it must be (RFC 4180, §2 rules 5–7).
    public static func field(_ value: String) -> String {
        // unicodeScalars: "\r\n" is one Character in Swift, so a Character test would miss it.
        guard value.unicodeScalars.contains(where: { $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n" }) else { return value }
        return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

/// Times as ISO 8601 in UTC with milliseconds ("2024-05-01T09:30:00.250Z").
public enum ExportTime {
    /// `date` in UTC, to the millisecond.
    public static func string(_ date: Date) -> String {
        // Whole milliseconds first, so the text never rounds up into the next second.
        let ms = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        let seconds = Date(timeIntervalSince1970: Double(ms.floorDiv(1000)))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: seconds)
        func pad(_ v: Int?, _ width: Int) -> String {
            let s = String(v ?? 0)
            return String(repeating: "0", count: max(0, width - s.count)) + s
        }
        return "\(pad(c.year, 4))-\(pad(c.month, 2))-\(pad(c.day, 2))T\(pad(c.hour, 2)):\(pad(c.minute, 2)):\(pad(c.second, 2))."
            + pad(Int(ms.floorMod(1000)), 3) + "Z"
    }
}

private extension Int64 {
    func floorDiv(_ d: Int64) -> Int64 { self >= 0 ? self / d : (self - d + 1) / d }
    func floorMod(_ d: Int64) -> Int64 { self - floorDiv(d) * d }
}
