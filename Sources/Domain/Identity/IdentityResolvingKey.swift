// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// Why a text is not an Identity Resolving Key.
public enum IdentityResolvingKeyError: Error, Equatable, Sendable {
    /// Not 32 hex digits (after spaces, colons and dashes are left out); carries how many there were.
    case wrongLength(Int)
    /// A character that is not a hex digit.
    case notHex(Character)
}

/// An Identity Resolving Key (Core spec Vol 3 Part H §2.4.2.1): the 128-bit key a bonded
/// device hands over so that its resolvable private addresses can be recognised.
/// The bytes are kept most significant first, as the spec prints keys.
public struct IdentityResolvingKey: Hashable, Sendable {
    /// The 16 bytes, most significant first.
    public let bytes: [UInt8]

    /// A key from 16 bytes, most significant first; nil for any other length.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 16 else { return nil }
        self.bytes = bytes
    }

    /// Parses 32 hex digits, most significant first; spaces, colons and dashes between them are allowed.
    public init(parsing text: String) throws(IdentityResolvingKeyError) {
        var digits: [UInt8] = []
        for ch in text where !(ch == " " || ch == ":" || ch == "-" || ch == "\t") {
            guard let value = ch.hexDigitValue, ch.isASCII else { throw .notHex(ch) }
            digits.append(UInt8(value))
        }
        guard digits.count == 32 else { throw .wrongLength(digits.count) }
        bytes = stride(from: 0, to: 32, by: 2).map { digits[$0] << 4 | digits[$0 + 1] }
    }

    /// The same bytes in the other order: tools disagree on which end they print first.
    public var byteSwapped: IdentityResolvingKey { IdentityResolvingKey(unchecked: bytes.reversed()) }

    private init(unchecked bytes: [UInt8]) { self.bytes = bytes }
}

extension IdentityResolvingKey: CustomStringConvertible {
    /// Never the key itself: a key must not reach a log by accident.
    public var description: String { "IdentityResolvingKey(…)" }
}
