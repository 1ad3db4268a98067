// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation
import Localization

/// One JSON value and the line it starts on, so a file's problem is said where it is.
public struct JSONNode: Sendable {
    /// 1-based.
    public let line: Int
    public let value: JSONValue

    public init(line: Int = 0, _ value: JSONValue) {
        self.line = line
        self.value = value
    }

    /// The member `key` of an object; nil when absent or when this is no object.
    public subscript(_ key: String) -> JSONNode? {
        guard case .object(let members) = value else { return nil }
        return members.first { $0.key == key }?.node
    }

    public var string: String? { if case .string(let s) = value { return s } else { return nil } }
    public var number: Double? { if case .number(let n) = value { return n } else { return nil } }
    public var bool: Bool? { if case .bool(let b) = value { return b } else { return nil } }
    public var array: [JSONNode]? { if case .array(let a) = value { return a } else { return nil } }
    public var members: [JSONMember]? { if case .object(let m) = value { return m } else { return nil } }
}

/// One member of an object, in the order the file has it.
public struct JSONMember: Sendable {
    public let key: String
    public let node: JSONNode

    public init(_ key: String, _ node: JSONNode) {
        self.key = key
        self.node = node
    }
}

/// A JSON value (RFC 8259).
public indirect enum JSONValue: Sendable {
    case object([JSONMember])
    case array([JSONNode])
    case string(String)
    case number(Double)
    case bool(Bool)
    case null
}

/// What is wrong with a file, and on which line.
public struct JSONFileProblem: Error, Equatable, Sendable {
    /// 1-based; 0 for the file as a whole.
    public let line: Int
    public let message: String

    public init(line: Int, _ message: String) {
        self.line = line
        self.message = message
    }

    /// "Line 12: …".
    public var description: String {
        line > 0 ? L10n.format("Line {}: {}", Formats.number(line), message) : message
    }
}

/// Reads and writes JSON with line numbers. Files come from strangers: depth and size are
/// bounded, and every problem is a `JSONFileProblem`, never a trap.
public enum JSONDocument {
    /// The deepest nesting read; a setup needs six levels.
    public static let maximumDepth = 64

    /// Parses `text` as one JSON value.
    public static func parse(_ text: String) throws(JSONFileProblem) -> JSONNode {
        var parser = Parser(Array(text.utf8))
        parser.skipSpace()
        let node = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.atEnd else { throw JSONFileProblem(line: parser.line, L10n.tr("there is more after the end of the JSON.")) }
        return node
    }

    /// The value as text: two spaces a level, members in the order given, a newline at the end.
    public static func write(_ node: JSONNode) -> String {
        var out = ""
        write(node.value, into: &out, indent: 0)
        return out + "\n"
    }

    /// The value on one line, for a stream of events: `{"event": "read", "mtu": 23}`.
    public static func line(_ node: JSONNode) -> String {
        var out = ""
        writeLine(node.value, into: &out)
        return out
    }

    private static func writeLine(_ value: JSONValue, into out: inout String) {
        switch value {
        case .object(let members):
            out += "{"
            for (i, member) in members.enumerated() {
                if i > 0 { out += ", " }
                out += quoted(member.key) + ": "
                writeLine(member.node.value, into: &out)
            }
            out += "}"
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += ", " }
                writeLine(item.value, into: &out)
            }
            out += "]"
        default:
            write(value, into: &out, indent: 0)
        }
    }

    private static func write(_ value: JSONValue, into out: inout String, indent: Int) {
        let pad = String(repeating: "  ", count: indent + 1), closing = String(repeating: "  ", count: indent)
        switch value {
        case .object(let members):
            guard !members.isEmpty else { out += "{}"; return }
            out += "{\n"
            for (i, member) in members.enumerated() {
                out += pad + quoted(member.key) + ": "
                write(member.node.value, into: &out, indent: indent + 1)
                out += i < members.count - 1 ? ",\n" : "\n"
            }
            out += closing + "}"
        case .array(let items):
            guard !items.isEmpty else { out += "[]"; return }
            // Lists of numbers (bytes) stay on one line.
            if items.allSatisfy({ if case .number = $0.value { return true } else { return false } }) {
                out += "[" + items.map { number($0.number ?? 0) }.joined(separator: ", ") + "]"
                return
            }
            out += "[\n"
            for (i, item) in items.enumerated() {
                out += pad
                write(item.value, into: &out, indent: indent + 1)
                out += i < items.count - 1 ? ",\n" : "\n"
            }
            out += closing + "]"
        case .string(let s): out += quoted(s)
        case .number(let n): out += number(n)
        case .bool(let b): out += b ? "true" : "false"
        case .null: out += "null"
        }
    }

    private static func number(_ n: Double) -> String {
        if n == n.rounded(), abs(n) < 1e15 { return String(Int64(n)) }
        return String(n)
    }

    /// A string as JSON writes it: control characters escaped, so a file never carries raw ones.
    public static func quoted(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029:
                out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    private struct Parser {
        let bytes: [UInt8]
        var at = 0
        var line = 1

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var atEnd: Bool { at >= bytes.count }

        mutating func skipSpace() {
            while at < bytes.count {
                switch bytes[at] {
                case 0x0A: line += 1; at += 1
                case 0x20, 0x09, 0x0D: at += 1
                default: return
                }
            }
        }

        func problem(_ message: String) -> JSONFileProblem { JSONFileProblem(line: line, message) }

        /// What should come here, or, where the file ended before it, that it ended too early:
        /// a file cut short is said as such, not as the first thing it lacks.
        func expected(_ message: String) -> JSONFileProblem {
            at < bytes.count ? problem(message) : problem(L10n.tr("the file ends too early."))
        }

        mutating func value(depth: Int) throws(JSONFileProblem) -> JSONNode {
            guard depth < JSONDocument.maximumDepth else { throw problem(L10n.tr("the JSON is nested too deeply.")) }
            guard at < bytes.count else { throw problem(L10n.tr("the file ends too early.")) }
            let start = line
            switch bytes[at] {
            case UInt8(ascii: "{"):
                at += 1
                var members: [JSONMember] = []
                skipSpace()
                if at < bytes.count, bytes[at] == UInt8(ascii: "}") { at += 1; return JSONNode(line: start, .object([])) }
                while true {
                    skipSpace()
                    guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") else { throw expected(L10n.tr("a name in quotes should come here.")) }
                    let key = try string()
                    skipSpace()
                    guard at < bytes.count, bytes[at] == UInt8(ascii: ":") else { throw expected(L10n.tr("a colon should follow the name.")) }
                    at += 1
                    skipSpace()
                    members.append(JSONMember(key, try value(depth: depth + 1)))
                    skipSpace()
                    guard at < bytes.count else { throw problem(L10n.tr("the file ends too early.")) }
                    if bytes[at] == UInt8(ascii: ",") { at += 1; continue }
                    if bytes[at] == UInt8(ascii: "}") { at += 1; return JSONNode(line: start, .object(members)) }
                    throw problem(L10n.tr("a comma or a closing brace should come here."))
                }
            case UInt8(ascii: "["):
                at += 1
                var items: [JSONNode] = []
                skipSpace()
                if at < bytes.count, bytes[at] == UInt8(ascii: "]") { at += 1; return JSONNode(line: start, .array([])) }
                while true {
                    skipSpace()
                    items.append(try value(depth: depth + 1))
                    skipSpace()
                    guard at < bytes.count else { throw problem(L10n.tr("the file ends too early.")) }
                    if bytes[at] == UInt8(ascii: ",") { at += 1; continue }
                    if bytes[at] == UInt8(ascii: "]") { at += 1; return JSONNode(line: start, .array(items)) }
                    throw problem(L10n.tr("a comma or a closing bracket should come here."))
                }
            case UInt8(ascii: "\""):
                return JSONNode(line: start, .string(try string()))
            case UInt8(ascii: "t"):
                try word("true")
                return JSONNode(line: start, .bool(true))
            case UInt8(ascii: "f"):
                try word("false")
                return JSONNode(line: start, .bool(false))
            case UInt8(ascii: "n"):
                try word("null")
                return JSONNode(line: start, .null)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                return JSONNode(line: start, .number(try number()))
            default:
                throw problem(L10n.tr("this is not a JSON value."))
            }
        }

        mutating func word(_ w: String) throws(JSONFileProblem) {
            let expected = Array(w.utf8)
            guard at + expected.count <= bytes.count, Array(bytes[at..<(at + expected.count)]) == expected else {
                throw problem(L10n.tr("this is not a JSON value."))
            }
            at += expected.count
        }

        mutating func number() throws(JSONFileProblem) -> Double {
            let start = at
            if bytes[at] == UInt8(ascii: "-") { at += 1 }
            while at < bytes.count, "0123456789.eE+-".utf8.contains(bytes[at]) { at += 1 }
            guard let n = Double(String(decoding: bytes[start..<at], as: UTF8.self)), n.isFinite else {
                throw problem(L10n.tr("this is not a number."))
            }
            return n
        }

        mutating func string() throws(JSONFileProblem) -> String {
            at += 1
            var scalars = String.UnicodeScalarView()
            var run = at
            func flush(_ to: Int) { scalars.append(contentsOf: String(decoding: bytes[run..<to], as: UTF8.self).unicodeScalars) }
            while at < bytes.count {
                let b = bytes[at]
                if b == UInt8(ascii: "\"") {
                    flush(at)
                    at += 1
                    return String(scalars)
                }
                if b == 0x0A { throw problem(L10n.tr("a text runs past the end of its line.")) }
                if b < 0x20 { throw problem(L10n.tr("a text holds a control character; write it as \\u escape.")) }
                if b == UInt8(ascii: "\\") {
                    flush(at)
                    at += 1
                    guard at < bytes.count else { break }
                    switch bytes[at] {
                    case UInt8(ascii: "\""): scalars.append("\"")
                    case UInt8(ascii: "\\"): scalars.append("\\")
                    case UInt8(ascii: "/"): scalars.append("/")
                    case UInt8(ascii: "b"): scalars.append("\u{08}")
                    case UInt8(ascii: "f"): scalars.append("\u{0C}")
                    case UInt8(ascii: "n"): scalars.append("\n")
                    case UInt8(ascii: "r"): scalars.append("\r")
                    case UInt8(ascii: "t"): scalars.append("\t")
                    case UInt8(ascii: "u"):
                        var code = try hex4()
                        if (0xD800...0xDBFF).contains(code), at + 2 < bytes.count, bytes[at + 1] == UInt8(ascii: "\\"),
                           bytes[at + 2] == UInt8(ascii: "u") {
                            at += 2
                            let low = try hex4()
                            if (0xDC00...0xDFFF).contains(low) { code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00) }
                        }
                        // A lone surrogate becomes U+FFFD, as invalid UTF-8 does elsewhere.
                        scalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")
                    default:
                        throw problem(L10n.tr("a text holds an unknown escape."))
                    }
                    at += 1
                    run = at
                    continue
                }
                at += 1
            }
            throw problem(L10n.tr("the file ends too early."))
        }

        /// Reads the four digits after "\u"; leaves `at` on the last.
        mutating func hex4() throws(JSONFileProblem) -> UInt32 {
            guard at + 4 < bytes.count, let code = UInt32(String(decoding: bytes[(at + 1)...(at + 4)], as: UTF8.self), radix: 16) else {
                throw problem(L10n.tr("a text holds an unknown escape."))
            }
            at += 4
            return code
        }
    }
}
