// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation
import Localization

/// How the user types a value to write: text, hex, or a number of a given width, sign and byte order.
public enum ValueInputFormat: Equatable, Sendable {
    case text
    case hex
    case number(bytes: Int, signed: Bool, bigEndian: Bool)

    /// The format a Presentation Format descriptor suggests (0x2904), or text when it says nothing usable.
    public init(presentation: PresentationFormat?) {
        switch presentation?.format {
        case 0x04?: self = .number(bytes: 1, signed: false, bigEndian: false)
        case 0x06?: self = .number(bytes: 2, signed: false, bigEndian: false)
        case 0x08?: self = .number(bytes: 4, signed: false, bigEndian: false)
        case 0x0A?: self = .number(bytes: 8, signed: false, bigEndian: false)
        case 0x0C?: self = .number(bytes: 1, signed: true, bigEndian: false)
        case 0x0E?: self = .number(bytes: 2, signed: true, bigEndian: false)
        case 0x10?: self = .number(bytes: 4, signed: true, bigEndian: false)
        case 0x12?: self = .number(bytes: 8, signed: true, bigEndian: false)
        case 0x19?: self = .text
        case nil: self = .text
        default: self = .hex
        }
    }
}

/// Turns what the user typed into the bytes to write, or says at the entry why it cannot;
/// nothing is sent until it can.
public enum ValueInput {
    /// Why a typed value cannot be written.
    public enum Problem: Error, Equatable, Sendable {
        case empty
        case notHex(Character)
        case oddHexDigits
        case notANumber
        case outOfRange(min: String, max: String)
        case tooLong(max: Int)

        /// One sentence under the entry.
        public var message: String {
            switch self {
            case .empty: return L10n.tr("Type a value to write.")
            case .notHex(let ch): return L10n.format("“{}” is not a hex digit (0–9, A–F).", String(ch))
            case .oddHexDigits: return L10n.tr("Hex needs two digits for each byte.")
            case .notANumber: return L10n.tr("Type a whole number.")
            case .outOfRange(let min, let max): return L10n.format("Type a number from {} to {}.", min, max)
            case .tooLong(let max):
                return L10n.plural("An attribute holds at most {} byte.", "An attribute holds at most {} bytes.", max, Formats.number(max))
            }
        }
    }

    /// The most an attribute value may hold (Core spec Vol 3 Part F §3.2.9).
    public static let maximumLength = 512

    /// The bytes for `typed` in `format`.
    public static func bytes(_ typed: String, as format: ValueInputFormat) throws(Problem) -> [UInt8] {
        let result: [UInt8]
        switch format {
        case .text:
            guard !typed.isEmpty else { throw .empty }
            result = Array(typed.utf8)
        case .hex:
            let trimmed = typed.trimmingCharacters(in: .whitespaces)
            let unprefixed = trimmed.hasPrefix("0x") || trimmed.hasPrefix("0X") ? trimmed.dropFirst(2) : Substring(trimmed)
            var body: [UInt8] = []
            for ch in unprefixed where !(ch == " " || ch == ":" || ch == "-") {
                guard ch.isASCII, let value = ch.hexDigitValue else { throw .notHex(ch) }
                body.append(UInt8(value))
            }
            guard !body.isEmpty else { throw .empty }
            guard body.count % 2 == 0 else { throw .oddHexDigits }
            result = stride(from: 0, to: body.count, by: 2).map { body[$0] << 4 | body[$0 + 1] }
        case .number(let width, let signed, let bigEndian):
            let text = typed.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "\u{2212}", with: "-")
            guard !text.isEmpty else { throw .empty }
            let bits = UInt64(width * 8)
            let raw: UInt64
            if signed {
                guard let value = Int64(text) else { throw .notANumber }
                let low = bits == 64 ? Int64.min : -(Int64(1) << (bits - 1))
                let high = bits == 64 ? Int64.max : (Int64(1) << (bits - 1)) - 1
                guard (low...high).contains(value) else {
                    throw .outOfRange(min: Formats.number(Int(low)), max: Formats.number(Int(high)))
                }
                raw = UInt64(bitPattern: value)
            } else {
                guard let value = UInt64(text) else {
                    throw Int64(text) != nil ? .outOfRange(min: "0", max: maxText(bits)) : .notANumber
                }
                guard bits == 64 || value < UInt64(1) << bits else { throw .outOfRange(min: "0", max: maxText(bits)) }
                raw = value
            }
            let little = (0 ..< width).map { UInt8(truncatingIfNeeded: raw >> (8 * UInt64($0))) }
            result = bigEndian ? little.reversed() : little
        }
        guard result.count <= maximumLength else { throw .tooLong(max: maximumLength) }
        return result
    }

    private static func maxText(_ bits: UInt64) -> String {
        bits == 64 ? String(UInt64.max) : Formats.number(Int((UInt64(1) << bits) - 1))
    }
}
