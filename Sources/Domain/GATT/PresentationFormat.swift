// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation
import Localization

/// A Characteristic Presentation Format descriptor (0x2904, Core spec Vol 3 Part G §3.3.3.5):
/// how a characteristic without a decoder of its own says its value is laid out.
public struct PresentationFormat: Equatable, Sendable {
    /// The format code (Table 3.16): 0x04 uint8 … 0x19 utf8s.
    public let format: UInt8
    /// The value is the number times 10^exponent.
    public let exponent: Int8
    /// The unit, a 16-bit org.bluetooth.unit UUID (0x2700 unitless).
    public let unit: UInt16

    public init(format: UInt8, exponent: Int8, unit: UInt16) {
        self.format = format
        self.exponent = exponent
        self.unit = unit
    }

    /// Reads the descriptor's 7 bytes; nil for any other length.
    public init?(descriptor bytes: [UInt8]) {
        guard bytes.count == 7 else { return nil }
        self.init(format: bytes[0], exponent: Int8(bitPattern: bytes[1]), unit: UInt16(bytes[2]) | UInt16(bytes[3]) << 8)
    }

    /// The width in bytes of an integer format, and whether it is signed; nil for the others.
    private var integer: (bytes: Int, signed: Bool)? {
        switch format {
        case 0x04: return (1, false)
        case 0x06: return (2, false)
        case 0x07: return (3, false)
        case 0x08: return (4, false)
        case 0x09: return (6, false)
        case 0x0A: return (8, false)
        case 0x0C: return (1, true)
        case 0x0E: return (2, true)
        case 0x0F: return (3, true)
        case 0x10: return (4, true)
        case 0x11: return (6, true)
        case 0x12: return (8, true)
        default: return nil
        }
    }

    /// The value as this format says; `.unknown` for formats FavBlue does not read (nibbles,
    /// 12-bit and 128-bit integers, structs), which then show as hex.
    public func decode(_ bytes: [UInt8]) -> DecodedValue {
        var r = ValueReader(bytes)
        do throws(ValueTooShort) {
            let number: Double?
            if let integer {
                number = integer.signed ? Double(try r.signed(integer.bytes)) : Double(try r.unsigned(integer.bytes))
            } else {
                switch format {
                case 0x01:
                    let value = try r.u8()
                    guard value <= 1 else { return .notAValue(L10n.format("{} is neither true nor false.", Formats.number(value))) }
                    return .decoded(summary: value == 1 ? L10n.tr("True") : L10n.tr("False"), parts: [])
                case 0x14:
                    number = Double(Float(bitPattern: UInt32(try r.unsigned(4))))
                case 0x15:
                    number = Double(bitPattern: try r.unsigned(8))
                case 0x16:
                    number = try r.medicalShortFloat()
                case 0x17:
                    number = try r.medicalFloat()
                case 0x19:
                    return .decoded(summary: DeviceText.shown(bytes: bytes), parts: [])
                case 0x1A:
                    let units = stride(from: 0, to: bytes.count - 1, by: 2).map { UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8 }
                    return .decoded(summary: DeviceText.shown(String(decoding: units, as: UTF16.self)), parts: [])
                default:
                    return .unknown
                }
            }
            guard let number, number.isFinite else { return .notAValue(L10n.tr("The device sent no number.")) }
            let scaled = number * pow(10, Double(exponent))
            let digits = integer != nil ? min(max(0, -Int(exponent)), 12) : 2
            let text = Formats.decimal(scaled, digits: digits)
            guard let symbol = Self.symbol(unit) else {
                return .decoded(summary: text, parts: [.init(L10n.tr("Unit"), String(format: "0x%04X", unit))], figure: scaled)
            }
            return .decoded(summary: symbol.isEmpty ? text : "\(text) \(symbol)", parts: [], figure: scaled)
        } catch {
            return .tooShort(needs: error.needs, got: bytes.count)
        }
    }

    /// Unit symbols (Assigned Numbers §3.5); nil for a unit the table does not know.
    public static func symbol(_ unit: UInt16) -> String? {
        switch unit {
        case 0x2700: return ""
        case 0x2701: return "m"
        case 0x2702: return "kg"
        case 0x2703: return "s"
        case 0x2704: return "A"
        case 0x2705: return "K"
        case 0x2712: return "m/s"
        case 0x2720: return "Hz"
        case 0x2722: return "Pa"
        case 0x2723: return "J"
        case 0x2724: return "W"
        case 0x2726: return "V"
        case 0x272F: return "°C"
        case 0x27AC: return "°F"
        case 0x27AD: return "%"
        default: return nil
        }
    }
}
