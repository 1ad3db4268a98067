// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// Bounds-checked reads of little- and big-endian integers from an advertisement's bytes:
/// every read past the end is nil, never a trap.
struct SensorBytes {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var count: Int { bytes.count }

    subscript(_ i: Int) -> UInt8? { i >= 0 && i < bytes.count ? bytes[i] : nil }

    /// `length` bytes at `offset` as an unsigned number, little-endian.
    func le(_ offset: Int, _ length: Int) -> UInt64? {
        guard offset >= 0, length > 0, length <= 8, offset + length <= bytes.count else { return nil }
        var value: UInt64 = 0
        for i in (0..<length).reversed() { value = value << 8 | UInt64(bytes[offset + i]) }
        return value
    }

    /// `length` bytes at `offset` as an unsigned number, big-endian.
    func be(_ offset: Int, _ length: Int) -> UInt64? {
        guard offset >= 0, length > 0, length <= 8, offset + length <= bytes.count else { return nil }
        var value: UInt64 = 0
        for i in 0..<length { value = value << 8 | UInt64(bytes[offset + i]) }
        return value
    }

    /// Two's complement of `value`'s low `length` bytes.
    static func signed(_ value: UInt64, _ length: Int) -> Int64 {
        let bits = UInt64(length * 8)
        guard bits < 64 else { return Int64(bitPattern: value) }
        let sign = UInt64(1) << (bits - 1)
        return value & sign != 0 ? Int64(value) - Int64(1 << bits) : Int64(value)
    }

    func sle(_ offset: Int, _ length: Int) -> Int64? { le(offset, length).map { Self.signed($0, length) } }
    func sbe(_ offset: Int, _ length: Int) -> Int64? { be(offset, length).map { Self.signed($0, length) } }
}
