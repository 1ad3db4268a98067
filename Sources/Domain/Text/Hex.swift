// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation

/// Bytes as people read them in a Bluetooth tool: "0A FF 3C".
public enum Hex {
    /// Two uppercase digits a byte, a space between bytes.
    public static func spaced(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 3)
        for byte in bytes {
            if !out.isEmpty { out.append(0x20) }
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Two uppercase digits a byte, nothing between: a key for a map.
    public static func compact(_ bytes: [UInt8]) -> String {
        spaced(bytes).replacingOccurrences(of: " ", with: "")
    }
}
