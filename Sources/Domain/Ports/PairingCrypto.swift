// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// The Security Manager's cryptography (Core spec Vol 3 Part H §2.2), behind a port so the
/// protocol code builds, and is fuzzed, without a crypto library. Byte arrays are most
/// significant octet first, as the spec writes them; the SMP code turns them round for the wire.
public protocol PairingCrypto: Sendable {
    /// `count` bytes from a cryptographically secure source.
    func random(_ count: Int) -> [UInt8]
    /// A fresh P-256 key pair for one pairing.
    func makeKeyPair() -> any PairingKeyPair
    /// Legacy pairing's confirm value; `preq`/`pres` are the 7-byte PDUs, address types 0 or 1.
    func c1(k: [UInt8], r: [UInt8], preq: [UInt8], pres: [UInt8], iat: UInt8, ia: [UInt8], rat: UInt8, ra: [UInt8]) throws -> [UInt8]
    /// Legacy pairing's short-term key.
    func s1(k: [UInt8], r1: [UInt8], r2: [UInt8]) throws -> [UInt8]
    /// Secure Connections' confirm value.
    func f4(u: [UInt8], v: [UInt8], x: [UInt8], z: UInt8) throws -> [UInt8]
    /// Secure Connections' MacKey and LTK; `a1`, `a2` are the address type, then the address.
    func f5(w: [UInt8], n1: [UInt8], n2: [UInt8], a1: [UInt8], a2: [UInt8]) throws -> (macKey: [UInt8], ltk: [UInt8])
    /// Secure Connections' DHKey check value.
    func f6(w: [UInt8], n1: [UInt8], n2: [UInt8], r: [UInt8], ioCap: [UInt8], a1: [UInt8], a2: [UInt8]) throws -> [UInt8]
    /// The number Numeric Comparison shows, before `% 1_000_000`.
    func g2(u: [UInt8], v: [UInt8], x: [UInt8], y: [UInt8]) throws -> UInt32
    /// AES-CMAC (RFC 4493), most significant octet first: GATT's Database Hash is one (Vol 3, Part G, §7.3).
    func aesCMAC(key: [UInt8], message: [UInt8]) throws -> [UInt8]
}

/// One side's P-256 key pair; the private half never leaves it.
public protocol PairingKeyPair: Sendable {
    /// The public key's coordinates, 32 bytes each.
    var x: [UInt8] { get }
    var y: [UInt8] { get }
    /// The Diffie-Hellman key with the peer's public key; throws for a point off the curve.
    func dhKey(peerX: [UInt8], peerY: [UInt8]) throws -> [UInt8]
}
