// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation

/// A value shorter than its format needs: `needs` bytes in all.
struct ValueTooShort: Error {
    let needs: Int
}

/// Reads a characteristic value field by field, least significant octet first (Core spec
/// Vol 3 Part G §3.3.3.5); running out says how many bytes the field needed.
struct ValueReader {
    let bytes: [UInt8]
    private(set) var at = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var remaining: Int { bytes.count - at }

    mutating func take(_ count: Int) throws(ValueTooShort) -> [UInt8] {
        guard at + count <= bytes.count else { throw ValueTooShort(needs: at + count) }
        defer { at += count }
        return Array(bytes[at ..< at + count])
    }

    /// An unsigned little-endian integer of `count` bytes (up to 8).
    mutating func unsigned(_ count: Int) throws(ValueTooShort) -> UInt64 {
        try take(count).reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// A signed little-endian integer of `count` bytes (up to 8), sign-extended.
    mutating func signed(_ count: Int) throws(ValueTooShort) -> Int64 {
        let raw = try unsigned(count)
        let shift = UInt64(64 - 8 * count)
        return Int64(bitPattern: raw << shift) >> Int64(shift)
    }

    mutating func u8() throws(ValueTooShort) -> Int { Int(try unsigned(1)) }
    mutating func u16() throws(ValueTooShort) -> Int { Int(try unsigned(2)) }
    mutating func u32() throws(ValueTooShort) -> Int { Int(try unsigned(4)) }

    /// IEEE 11073-20601 32-bit FLOAT: a 24-bit signed mantissa and an 8-bit signed base-10
    /// exponent; nil for NaN, NRes, ±INFINITY and the reserved value, which carry no number.
    mutating func medicalFloat() throws(ValueTooShort) -> Double? {
        let raw = UInt32(try unsigned(4))
        let mantissa = raw & 0xFF_FFFF
        guard !(0x7F_FFFE ... 0x80_0002).contains(mantissa) else { return nil }
        let signedMantissa = Int32(bitPattern: mantissa << 8) >> 8
        let exponent = Int8(bitPattern: UInt8(raw >> 24))
        return Double(signedMantissa) * pow(10, Double(exponent))
    }

    /// IEEE 11073-20601 16-bit SFLOAT: a 12-bit signed mantissa and a 4-bit signed exponent.
    mutating func medicalShortFloat() throws(ValueTooShort) -> Double? {
        let raw = UInt16(try unsigned(2))
        let mantissa = raw & 0x0FFF
        guard !(0x07FE ... 0x0802).contains(mantissa) else { return nil }
        let signedMantissa = Int16(bitPattern: mantissa << 4) >> 4
        let exponent = Int8(bitPattern: UInt8(raw >> 12) << 4) >> 4
        return Double(signedMantissa) * pow(10, Double(exponent))
    }

    /// A Date Time (org.bluetooth.characteristic.date_time): year, month, day, hours, minutes,
    /// seconds, as the device's own clock reads; nil where it says "not known" (year or month 0).
    /// Fields out of their ranges are kept as sent: `isCalendarDate` tells.
    mutating func dateTime() throws(ValueTooShort) -> DateComponents? {
        let year = try u16(), month = try u8(), day = try u8()
        let hour = try u8(), minute = try u8(), second = try u8()
        guard year != 0, month != 0, day != 0 else { return nil }
        return DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    }
}

extension DateComponents {
    /// Whether every field is within its calendar range, so a date is not rolled over into another.
    var isCalendarDate: Bool {
        guard let year, let month, let day else { return false }
        let hour = hour ?? 0, minute = minute ?? 0, second = second ?? 0
        guard (1582...9999).contains(year), (1...12).contains(month), (0...23).contains(hour), (0...59).contains(minute),
              (0...59).contains(second), let days = Calendar.current.range(of: .day, in: .month,
                                                                            for: Calendar.current.date(from: DateComponents(year: year, month: month)) ?? Date())
        else { return false }
        return days.contains(day)
    }
}
