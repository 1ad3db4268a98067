// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation
import Localization

/// A name, and optionally a value format, the user gave one of a device's characteristics
/// (a vendor's, which the assigned numbers cannot name): kept per device, shown from then on.
public struct CharacteristicLabel: Equatable, Sendable {
    /// The characteristic's UUID in canonical text.
    public let uuid: String
    public let name: String
    /// How its value reads; nil keeps what FavBlue would show anyway.
    public let format: ValueInputFormat?

    public init(uuid: String, name: String, format: ValueInputFormat?) {
        self.uuid = uuid
        self.name = name
        self.format = format
    }

    /// The longest name kept, in characters.
    public static let maximumName = 100
}

extension ValueInputFormat {
    /// How the format is written in the database: "text", "hex", "u16le", "s32be" …
    public var storageKey: String {
        switch self {
        case .text: return "text"
        case .hex: return "hex"
        case .number(let bytes, let signed, let bigEndian):
            return (signed ? "s" : "u") + String(bytes * 8) + (bytes == 1 ? "" : bigEndian ? "be" : "le")
        }
    }

    /// The format `storageKey` names; nil for anything else.
    public init?(storageKey: String) {
        switch storageKey {
        case "text": self = .text
        case "hex": self = .hex
        default:
            var rest = Substring(storageKey)
            guard let sign = rest.popFirst(), sign == "s" || sign == "u" else { return nil }
            let bigEndian = rest.hasSuffix("be")
            if rest.hasSuffix("be") || rest.hasSuffix("le") { rest = rest.dropLast(2) }
            guard let bits = Int(rest), [8, 16, 32, 64].contains(bits), bits == 8 || storageKey.count > 3 else { return nil }
            self = .number(bytes: bits / 8, signed: sign == "s", bigEndian: bigEndian)
        }
    }

    /// A value read in this format: the number or text it holds; hex says nothing more than the bytes.
    public func decode(_ bytes: [UInt8]) -> DecodedValue {
        switch self {
        case .hex: return .unknown
        case .text: return .decoded(summary: DeviceText.shown(bytes: bytes), parts: [])
        case .number(let width, let signed, let bigEndian):
            guard bytes.count >= width else { return .tooShort(needs: width, got: bytes.count) }
            let field = bigEndian ? Array(bytes[0 ..< width].reversed()) : Array(bytes[0 ..< width])
            let raw = field.enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
            if signed {
                let shift = UInt64(64 - width * 8)
                let value = Int64(bitPattern: raw << shift) >> Int64(shift)
                return .decoded(summary: Formats.number(Int(value)), parts: [], figure: Double(value))
            }
            return .decoded(summary: raw <= UInt64(Int.max) ? Formats.number(Int(raw)) : String(raw), parts: [], figure: Double(raw))
        }
    }
}
