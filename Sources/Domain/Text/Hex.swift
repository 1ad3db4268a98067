// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation

/// Bytes as people read them in a Bluetooth tool: "0A FF 3C".
public enum Hex {
    /// Two uppercase digits a byte, a space between bytes.
    public static func spaced(_ bytes: some Collection<UInt8>) -> String { format(bytes, upper: true, space: true) }

    /// Two uppercase digits a byte, nothing between: a key for a map.
    public static func compact(_ bytes: some Collection<UInt8>) -> String { format(bytes, upper: true, space: false) }

    /// Two lowercase digits a byte, nothing between, as exports and gateways write data.
    public static func lower(_ bytes: some Collection<UInt8>) -> String { format(bytes, upper: false, space: false) }

    /// Four uppercase digits: a 16-bit UUID or a company number ("FCD2"), made for each report.
    public static func word(_ value: UInt16) -> String {
        let d = upperDigits
        return String(decoding: [d[Int(value >> 12)], d[Int(value >> 8 & 0xF)], d[Int(value >> 4 & 0xF)], d[Int(value & 0xF)]],
                      as: UTF8.self)
    }

    private static let upperDigits = Array("0123456789ABCDEF".utf8)
    private static let lowerDigits = Array("0123456789abcdef".utf8)

    private static func format(_ bytes: some Collection<UInt8>, upper: Bool, space: Bool) -> String {
        let digits = upper ? upperDigits : lowerDigits
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 3)
        for byte in bytes {
            if space, !out.isEmpty { out.append(0x20) }
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes two hex digits each give, upper or lower case, nothing between; nil for an odd
    /// count or anything that is no hex digit.
    public static func bytes(_ text: some StringProtocol) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count % 2 == 0 else { return nil }
        func nibble(_ c: UInt8) -> UInt8? {
            switch c {
            case 0x30...0x39: return c - 0x30
            case 0x41...0x46: return c - 0x37
            case 0x61...0x66: return c - 0x57
            default: return nil
            }
        }
        var out = [UInt8]()
        out.reserveCapacity(utf8.count / 2)
        var i = 0
        while i < utf8.count {
            guard let high = nibble(utf8[i]), let low = nibble(utf8[i + 1]) else { return nil }
            out.append(high << 4 | low)
            i += 2
        }
        return out
    }
}
