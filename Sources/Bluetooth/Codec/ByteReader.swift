// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// Why bytes could not be decoded.
public enum DecodeError: Error, Equatable, Sendable {
    /// The packet ended before a field it announced; carries what was being read.
    case truncated(String)
    /// A value is out of range or contradicts another field.
    case malformed(String)
    /// Not a packet type or event this decoder knows.
    case unsupported(String)
}

/// Reads little-endian fields from a byte slice and never reads past its end.
struct ByteReader {
    private let bytes: ArraySlice<UInt8>
    private(set) var offset: Int

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        offset = bytes.startIndex
    }

    init(_ bytes: [UInt8]) { self.init(bytes[...]) }

    var remaining: Int { bytes.endIndex - offset }

    mutating func u8(_ what: String) throws(DecodeError) -> UInt8 {
        guard remaining >= 1 else { throw .truncated(what) }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func i8(_ what: String) throws(DecodeError) -> Int8 {
        Int8(bitPattern: try u8(what))
    }

    mutating func u16(_ what: String) throws(DecodeError) -> UInt16 {
        guard remaining >= 2 else { throw .truncated(what) }
        defer { offset += 2 }
        return UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }

    mutating func u24(_ what: String) throws(DecodeError) -> UInt32 {
        guard remaining >= 3 else { throw .truncated(what) }
        defer { offset += 3 }
        return UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16
    }

    mutating func take(_ count: Int, _ what: String) throws(DecodeError) -> ArraySlice<UInt8> {
        guard count >= 0, remaining >= count else { throw .truncated(what) }
        defer { offset += count }
        return bytes[offset..<(offset + count)]
    }

    mutating func rest() -> ArraySlice<UInt8> {
        defer { offset = bytes.endIndex }
        return bytes[offset...]
    }
}
