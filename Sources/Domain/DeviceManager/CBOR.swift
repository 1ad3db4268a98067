// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation
import Localization

/// One CBOR data item (RFC 8949), as MCUmgr's SMP carries them: integers, byte and text
/// strings, arrays, maps, booleans, null, and floats where a device sends one.
public indirect enum CBOR: Equatable, Sendable {
    case unsigned(UInt64)
    /// −1 − n (§3.1, major type 1).
    case negative(UInt64)
    case bytes([UInt8])
    case text(String)
    case array([CBOR])
    /// Keys and values in the order they came; a key may be any item.
    case map([CBORPair])
    case bool(Bool)
    case null
    case undefined
    case float(Double)

    /// An integer item.
    public static func int(_ value: Int64) -> CBOR {
        value >= 0 ? .unsigned(UInt64(value)) : .negative(UInt64(-(value + 1)))
    }

    /// A map with text keys, in this order.
    public static func object(_ members: KeyValuePairs<String, CBOR>) -> CBOR {
        .map(members.map { CBORPair(key: .text($0.key), value: $0.value) })
    }

    /// The integer, where it is one that fits.
    public var int: Int64? {
        switch self {
        case .unsigned(let n): return n <= UInt64(Int64.max) ? Int64(n) : nil
        case .negative(let n): return n <= UInt64(Int64.max) ? -1 - Int64(n) : nil
        default: return nil
        }
    }

    public var text: String? { if case .text(let s) = self { return s } else { return nil } }
    public var bytes: [UInt8]? { if case .bytes(let b) = self { return b } else { return nil } }
    public var bool: Bool? { if case .bool(let b) = self { return b } else { return nil } }
    public var array: [CBOR]? { if case .array(let a) = self { return a } else { return nil } }
    public var pairs: [CBORPair]? { if case .map(let m) = self { return m } else { return nil } }

    /// The value under the text key `key`, in a map; the first where a device sends it twice.
    public subscript(key: String) -> CBOR? {
        pairs?.first { $0.key == .text(key) }?.value
    }
}

/// One key and its value in a CBOR map.
public struct CBORPair: Equatable, Sendable {
    public let key: CBOR
    public let value: CBOR

    public init(key: CBOR, value: CBOR) {
        self.key = key
        self.value = value
    }
}

/// Why bytes are not one CBOR item, in words; never a trap.
public struct CBORProblem: Error, Equatable, Sendable {
    public let message: String
}

extension CBOR {
    /// Nesting deeper than this is refused: a device that nests 10,000 deep gets a word, not a stack overflow.
    public static let maximumDepth = 64

    /// The item's bytes: definite lengths, each head as short as it can be (§4.2.1).
    public var encoded: [UInt8] {
        var out: [UInt8] = []
        Self.encode(self, into: &out)
        return out
    }

    private static func head(_ major: UInt8, _ value: UInt64, into out: inout [UInt8]) {
        let m = major << 5
        switch value {
        case 0..<24: out.append(m | UInt8(value))
        case 24...0xFF: out += [m | 24, UInt8(value)]
        case 0x100...0xFFFF: out += [m | 25] + (0..<2).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
        case 0x1_0000...0xFFFF_FFFF: out += [m | 26] + (0..<4).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
        default: out += [m | 27] + (0..<8).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
        }
    }

    private static func encode(_ item: CBOR, into out: inout [UInt8]) {
        switch item {
        case .unsigned(let n): head(0, n, into: &out)
        case .negative(let n): head(1, n, into: &out)
        case .bytes(let b):
            head(2, UInt64(b.count), into: &out)
            out += b
        case .text(let s):
            let utf8 = Array(s.utf8)
            head(3, UInt64(utf8.count), into: &out)
            out += utf8
        case .array(let items):
            head(4, UInt64(items.count), into: &out)
            for i in items { encode(i, into: &out) }
        case .map(let pairs):
            head(5, UInt64(pairs.count), into: &out)
            for p in pairs {
                encode(p.key, into: &out)
                encode(p.value, into: &out)
            }
        case .bool(let b): out.append(b ? 0xF5 : 0xF4)
        case .null: out.append(0xF6)
        case .undefined: out.append(0xF7)
        case .float(let d):
            out.append(0xFB)
            out += (0..<8).reversed().map { UInt8(truncatingIfNeeded: d.bitPattern >> (8 * UInt64($0))) }
        }
    }

    /// Reads one item that fills `bytes` whole. Definite and indefinite lengths (§3.2.2, which
    /// Zephyr's zcbor sends for maps); a length past the end, a nesting too deep, text that is
    /// not UTF-8, a break out of place or bytes after the item are each a problem in words.
    public static func decode(_ bytes: [UInt8]) throws(CBORProblem) -> CBOR {
        var reader = Reader(bytes: bytes)
        let item = try reader.item(depth: 0)
        guard reader.at == bytes.count else {
            throw CBORProblem(message: L10n.plural("{} byte follows the CBOR item.", "{} bytes follow the CBOR item.",
                                                   bytes.count - reader.at, Formats.number(bytes.count - reader.at)))
        }
        return item
    }

    private struct Reader {
        let bytes: [UInt8]
        var at = 0

        mutating func byte() throws(CBORProblem) -> UInt8 {
            guard at < bytes.count else { throw CBORProblem(message: L10n.tr("The CBOR ends in the middle of an item.")) }
            defer { at += 1 }
            return bytes[at]
        }

        /// The argument of a head (§3): the value, or nil for an indefinite length (31).
        mutating func argument(_ info: UInt8) throws(CBORProblem) -> UInt64? {
            switch info {
            case 0..<24: return UInt64(info)
            case 24, 25, 26, 27:
                let count = 1 << Int(info - 24)
                var value: UInt64 = 0
                for _ in 0..<count { value = value << 8 | UInt64(try byte()) }
                return value
            case 31: return nil
            default: throw CBORProblem(message: L10n.format("The CBOR has a reserved length code ({}).", String(info)))
            }
        }

        /// A length that the bytes left can hold: a 4 GB one is refused before anything is kept.
        mutating func length(_ value: UInt64, each: Int = 1) throws(CBORProblem) -> Int {
            guard value <= UInt64(bytes.count - at) / UInt64(each) else {
                throw CBORProblem(message: L10n.tr("The CBOR announces more than it holds."))
            }
            return Int(value)
        }

        mutating func take(_ count: Int) -> [UInt8] {
            defer { at += count }
            return Array(bytes[at..<(at + count)])
        }

        mutating func item(depth: Int) throws(CBORProblem) -> CBOR {
            guard depth < CBOR.maximumDepth else { throw CBORProblem(message: L10n.tr("The CBOR is nested too deeply.")) }
            let initial = try byte()
            let major = initial >> 5, info = initial & 0x1F
            switch major {
            case 0, 1:
                guard let n = try argument(info) else { throw CBORProblem(message: L10n.tr("An integer has no length.")) }
                return major == 0 ? .unsigned(n) : .negative(n)
            case 2, 3:
                var raw: [UInt8] = []
                if let n = try argument(info) {
                    raw = take(try length(n))
                } else {
                    // Indefinite: definite chunks of the same type until the break (§3.2.3).
                    while true {
                        let chunk = try byte()
                        if chunk == 0xFF { break }
                        guard chunk >> 5 == major, let n = try argument(chunk & 0x1F) else {
                            throw CBORProblem(message: L10n.tr("A string in parts holds something other than its parts."))
                        }
                        raw += take(try length(n))
                    }
                }
                if major == 2 { return .bytes(raw) }
                guard let text = String(validating: raw, as: UTF8.self) else {
                    throw CBORProblem(message: L10n.tr("A CBOR text is not UTF-8."))
                }
                return .text(text)
            case 4:
                var items: [CBOR] = []
                if let n = try argument(info) {
                    // Each item takes a byte at least.
                    let count = try length(n)
                    items.reserveCapacity(count)
                    for _ in 0..<count { items.append(try item(depth: depth + 1)) }
                } else {
                    while try !atBreak() { items.append(try item(depth: depth + 1)) }
                }
                return .array(items)
            case 5:
                var pairs: [CBORPair] = []
                if let n = try argument(info) {
                    let count = try length(n, each: 2)
                    pairs.reserveCapacity(count)
                    for _ in 0..<count { pairs.append(CBORPair(key: try item(depth: depth + 1), value: try item(depth: depth + 1))) }
                } else {
                    while try !atBreak() {
                        let key = try item(depth: depth + 1)
                        guard try !atBreak() else { throw CBORProblem(message: L10n.tr("A CBOR map ends on a key without its value.")) }
                        pairs.append(CBORPair(key: key, value: try item(depth: depth + 1)))
                    }
                }
                return .map(pairs)
            case 6:
                // A tag (§3.4) says how to read what follows; SMP uses none, so the item is kept as it is.
                _ = try argument(info)
                return try item(depth: depth + 1)
            default:
                switch info {
                case 20: return .bool(false)
                case 21: return .bool(true)
                case 22: return .null
                case 23: return .undefined
                case 25:
                    let half = UInt16(try byte()) << 8 | UInt16(try byte())
                    return .float(Double(Float16Bits(half).value))
                case 26:
                    var bits: UInt32 = 0
                    for _ in 0..<4 { bits = bits << 8 | UInt32(try byte()) }
                    return .float(Double(Float(bitPattern: bits)))
                case 27:
                    var bits: UInt64 = 0
                    for _ in 0..<8 { bits = bits << 8 | UInt64(try byte()) }
                    return .float(Double(bitPattern: bits))
                case 31: throw CBORProblem(message: L10n.tr("A CBOR break stands where no list or map is open."))
                default: throw CBORProblem(message: L10n.format("The CBOR holds a simple value FavBlue does not know ({}).", String(info)))
                }
            }
        }

        /// Whether the next byte ends an indefinite list or map; takes it if so.
        mutating func atBreak() throws(CBORProblem) -> Bool {
            guard at < bytes.count else { throw CBORProblem(message: L10n.tr("The CBOR ends in the middle of an item.")) }
            if bytes[at] == 0xFF {
                at += 1
                return true
            }
            return false
        }
    }
}

/// IEEE 754 half precision, read by hand: Float16 is missing on some of Swift's Linux targets.
private struct Float16Bits {
    let bits: UInt16
    init(_ bits: UInt16) { self.bits = bits }

    var value: Float {
        let sign: Float = bits & 0x8000 != 0 ? -1 : 1
        let exponent = Int(bits >> 10 & 0x1F), fraction = Float(bits & 0x3FF)
        switch exponent {
        case 0: return sign * fraction * powf(2, -24)
        case 31: return fraction == 0 ? sign * .infinity : .nan
        default: return sign * (1 + fraction / 1024) * powf(2, Float(exponent - 15))
        }
    }
}
