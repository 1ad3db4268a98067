// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation

/// Writes comma-separated values as RFC 4180 says: CRLF line ends, and a field holding a comma,
/// a double quote, CR or LF is quoted with its quotes doubled. Text is kept exactly (emoji,
/// right-to-left names), so a reader gets back what the device advertised, except that a cell a
/// spreadsheet would run as a formula gets a leading `'` (OWASP's rule for CSV injection).
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

    /// One field: defused when a spreadsheet would run it, then quoted when it must be
    /// (RFC 4180, §2 rules 5–7).
    public static func field(_ value: String) -> String {
        let value = defused(value)
        // unicodeScalars: "\r\n" is one Character in Swift, so a Character test would miss it.
        guard value.unicodeScalars.contains(where: { $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n" }) else { return value }
        return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// The characters that make a spreadsheet read a cell as a formula (or, for tab and CR,
    /// hide one behind whitespace).
    public static let formulaStarters: Set<Unicode.Scalar> = ["=", "+", "-", "@", "\t", "\r"]

    /// `value` with a leading `'` when it starts like a formula. A plain number such as "-43"
    /// (an RSSI) is data, not a formula, and stays as it is so it still sorts as a number.
    public static func defused(_ value: String) -> String {
        guard let first = value.unicodeScalars.first, formulaStarters.contains(first),
              !isPlainNumber(value) else { return value }
        return "'" + value
    }

    private static func isPlainNumber(_ value: String) -> Bool {
        var rest = Substring(value)
        if rest.first == "-" { rest = rest.dropFirst() }
        let parts = rest.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let digits = { (s: Substring) in !s.isEmpty && s.unicodeScalars.allSatisfy { ("0"..."9").contains($0) } }
        return digits(parts[0]) && (parts.count == 1 || digits(parts[1]))
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
