// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Crypto
import _CryptoExtras
import CNettle
import Domain

/// The Security Manager's cryptographic toolbox (Core spec Vol 3 Part H §2.2), built on the AES
/// of swift-crypto. Byte arrays are most significant octet first, as the spec writes them.
public enum Toolbox {
    /// Why a toolbox function could not run: the AES refused its input.
    public struct Failure: Error, Sendable {}

    /// e(key, plaintext): one AES-128 block (§2.2.1).
    public static func e(key: [UInt8], _ plaintext: [UInt8]) throws(Failure) -> [UInt8] {
        guard key.count == 16, plaintext.count == 16 else { throw Failure() }
        var block = plaintext
        do {
            try AES.permute(&block, key: SymmetricKey(data: key))
        } catch {
            throw Failure()
        }
        return block
    }

    /// ah(k, r): the random address hash (§2.2.2); `prand` is the low 24 bits of r.
    public static func ah(irk: [UInt8], prand: UInt32) throws(Failure) -> UInt32 {
        // r' = 13 zero bytes, then prand most significant first.
        let r = [UInt8](repeating: 0, count: 13) + [16, 8, 0].map { UInt8(truncatingIfNeeded: prand >> $0) }
        let hash = try e(key: irk, r)
        return UInt32(hash[13]) << 16 | UInt32(hash[14]) << 8 | UInt32(hash[15])
    }

    /// AES-CMAC (RFC 4493) of `message` under `key`: the MAC behind f4, f5, f6 and g2.
    public static func aesCMAC(key: [UInt8], _ message: [UInt8]) throws(Failure) -> [UInt8] {
        let l = try e(key: key, [UInt8](repeating: 0, count: 16))
        let k1 = doubled(l)
        let k2 = doubled(k1)
        let blocks = max(1, (message.count + 15) / 16)
        let lastIsWhole = !message.isEmpty && message.count % 16 == 0
        var last = Array(message[(blocks - 1) * 16 ..< message.count])
        if lastIsWhole {
            last = xor(last, k1)
        } else {
            last.append(0x80)
            last += [UInt8](repeating: 0, count: 16 - last.count)
            last = xor(last, k2)
        }
        var x = [UInt8](repeating: 0, count: 16)
        for i in 0 ..< blocks - 1 {
            x = try e(key: key, xor(x, Array(message[i * 16 ..< i * 16 + 16])))
        }
        return try e(key: key, xor(x, last))
    }

    /// c1: the confirm value of LE legacy pairing (§2.2.3). `preq` and `pres` are the 7-byte Pairing
    /// Request and Response as sent (MSB first), the address types 0 (public) or 1 (random).
    public static func c1(k: [UInt8], r: [UInt8], preq: [UInt8], pres: [UInt8],
                          iat: UInt8, ia: [UInt8], rat: UInt8, ra: [UInt8]) throws(Failure) -> [UInt8] {
        guard preq.count == 7, pres.count == 7, ia.count == 6, ra.count == 6 else { throw Failure() }
        let p1 = pres + preq + [rat & 1, iat & 1]
        let p2 = [UInt8](repeating: 0, count: 4) + ia + ra
        return try e(key: k, xor(try e(key: k, xor(r, p1)), p2))
    }

    /// s1: the short-term key of LE legacy pairing (§2.2.4), from the low halves of both randoms.
    public static func s1(k: [UInt8], r1: [UInt8], r2: [UInt8]) throws(Failure) -> [UInt8] {
        guard r1.count == 16, r2.count == 16 else { throw Failure() }
        return try e(key: k, Array(r1[8...]) + Array(r2[8...]))
    }

    /// f4: the confirm value of LE Secure Connections (§2.2.6); `u` and `v` are public-key X coordinates.
    public static func f4(u: [UInt8], v: [UInt8], x: [UInt8], z: UInt8) throws(Failure) -> [UInt8] {
        guard u.count == 32, v.count == 32 else { throw Failure() }
        return try aesCMAC(key: x, u + v + [z])
    }

    /// f5: the MacKey and the LTK of LE Secure Connections (§2.2.7). `a1` and `a2` are 7 bytes:
    /// the address type, then the address.
    public static func f5(w: [UInt8], n1: [UInt8], n2: [UInt8], a1: [UInt8], a2: [UInt8]) throws(Failure) -> (macKey: [UInt8], ltk: [UInt8]) {
        guard w.count == 32, n1.count == 16, n2.count == 16, a1.count == 7, a2.count == 7 else { throw Failure() }
        let salt: [UInt8] = [0x6C, 0x88, 0x83, 0x91, 0xAA, 0xF5, 0xA5, 0x38, 0x60, 0x37, 0x0B, 0xDB, 0x5A, 0x60, 0x83, 0xBE]
        let t = try aesCMAC(key: salt, w)
        let body: [UInt8] = Array("btle".utf8) + n1 + n2 + a1 + a2 + [0x01, 0x00]
        return (try aesCMAC(key: t, [0] + body), try aesCMAC(key: t, [1] + body))
    }

    /// f6: the DHKey check value of LE Secure Connections (§2.2.8); `ioCap` is 3 bytes.
    public static func f6(w: [UInt8], n1: [UInt8], n2: [UInt8], r: [UInt8], ioCap: [UInt8],
                          a1: [UInt8], a2: [UInt8]) throws(Failure) -> [UInt8] {
        guard n1.count == 16, n2.count == 16, r.count == 16, ioCap.count == 3, a1.count == 7, a2.count == 7 else { throw Failure() }
        return try aesCMAC(key: w, n1 + n2 + r + ioCap + a1 + a2)
    }

    /// g2: the number both sides show in Numeric Comparison (§2.2.9); the six digits are `g2 % 1_000_000`.
    public static func g2(u: [UInt8], v: [UInt8], x: [UInt8], y: [UInt8]) throws(Failure) -> UInt32 {
        guard u.count == 32, v.count == 32, y.count == 16 else { throw Failure() }
        let mac = try aesCMAC(key: x, u + v + y)
        return mac[12...].reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// h6: a key derived from `w` with a 4-byte key id (§2.2.10), for keys shared across transports.
    public static func h6(w: [UInt8], keyID: [UInt8]) throws(Failure) -> [UInt8] {
        guard keyID.count == 4 else { throw Failure() }
        return try aesCMAC(key: w, keyID)
    }

    /// The Diffie-Hellman key of LE Secure Connections (§2.3.5.6.1): the X coordinate of the
    /// P-256 product of our private key and the peer's public key (X and Y, 32 bytes each, MSB first).
    public static func dhKey(privateKey: P256.KeyAgreement.PrivateKey, peerX: [UInt8], peerY: [UInt8]) throws(Failure) -> [UInt8] {
        guard peerX.count == 32, peerY.count == 32 else { throw Failure() }
        do {
            // A point off the curve is refused here, which is the check the spec asks for.
            let peer = try P256.KeyAgreement.PublicKey(rawRepresentation: peerX + peerY)
            let secret = try privateKey.sharedSecretFromKeyAgreement(with: peer)
            return secret.withUnsafeBytes { Array($0) }
        } catch {
            throw Failure()
        }
    }

    /// A block shifted left by one bit, with the field's constant folded in when a bit falls off (RFC 4493 §2.3).
    private static func doubled(_ block: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 16)
        var carry: UInt8 = 0
        for i in stride(from: 15, through: 0, by: -1) {
            out[i] = block[i] << 1 | carry
            carry = block[i] >> 7
        }
        if carry == 1 { out[15] ^= 0x87 }
        return out
    }

    private static func xor(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] { zip(a, b).map { $0 ^ $1 } }
}

/// `ah` for the private-address resolver. A busy room asks it for every new address under
/// every bond, so each key's AES schedule is made once, with Nettle's AES (which keeps it);
/// swift-crypto's one-block AES would make it again for every address.
public struct AESAddressHashing: AddressHashing {
    public init() {}

    /// The hash, or a value above 24 bits (which no address carries) if the AES refused the key.
    public func ah(irk: IdentityResolvingKey, prand: UInt32) -> UInt32 {
        (try? Toolbox.ah(irk: irk.bytes, prand: prand)) ?? UInt32.max
    }

    /// `ah` with the key's schedule made once.
    public func prepared(_ irk: IdentityResolvingKey) -> @Sendable (UInt32) -> UInt32 {
        let key = ScheduledKey(irk.bytes)
        return { prand in key.ah(prand) }
    }
}

/// One AES-128 key with its schedule made once (Nettle's context), only read afterwards, so
/// any thread may use it.
private final class ScheduledKey: @unchecked Sendable {
    private let context: UnsafeMutablePointer<aes128_ctx>

    init(_ key: [UInt8]) {
        precondition(key.count == 16, "an IRK has 16 bytes")
        context = .allocate(capacity: 1)
        key.withUnsafeBufferPointer { nettle_aes128_set_encrypt_key(context, $0.baseAddress) }
    }

    deinit { context.deallocate() }

    /// ah(k, r) (§2.2.2): the low 24 bits of e(k, r'), r' being 13 zero octets then `prand`.
    func ah(_ prand: UInt32) -> UInt32 {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16) { block in
            block.initialize(repeating: 0)
            block[13] = UInt8(truncatingIfNeeded: prand >> 16)
            block[14] = UInt8(truncatingIfNeeded: prand >> 8)
            block[15] = UInt8(truncatingIfNeeded: prand)
            // Nettle encrypts in place when source and destination are the same block.
            nettle_aes128_encrypt(context, 16, block.baseAddress, block.baseAddress)
            return UInt32(block[13]) << 16 | UInt32(block[14]) << 8 | UInt32(block[15])
        }
    }
}

/// The Security Manager's cryptography for the HCI route, from the toolbox.
public struct ToolboxPairingCrypto: PairingCrypto {
    public init() {}

    public func random(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    public func makeKeyPair() -> any PairingKeyPair { P256Pair() }

    public func c1(k: [UInt8], r: [UInt8], preq: [UInt8], pres: [UInt8], iat: UInt8, ia: [UInt8], rat: UInt8, ra: [UInt8]) throws -> [UInt8] {
        try Toolbox.c1(k: k, r: r, preq: preq, pres: pres, iat: iat, ia: ia, rat: rat, ra: ra)
    }

    public func s1(k: [UInt8], r1: [UInt8], r2: [UInt8]) throws -> [UInt8] { try Toolbox.s1(k: k, r1: r1, r2: r2) }

    public func aesCMAC(key: [UInt8], message: [UInt8]) throws -> [UInt8] { try Toolbox.aesCMAC(key: key, message) }

    public func f4(u: [UInt8], v: [UInt8], x: [UInt8], z: UInt8) throws -> [UInt8] { try Toolbox.f4(u: u, v: v, x: x, z: z) }

    public func f5(w: [UInt8], n1: [UInt8], n2: [UInt8], a1: [UInt8], a2: [UInt8]) throws -> (macKey: [UInt8], ltk: [UInt8]) {
        try Toolbox.f5(w: w, n1: n1, n2: n2, a1: a1, a2: a2)
    }

    public func f6(w: [UInt8], n1: [UInt8], n2: [UInt8], r: [UInt8], ioCap: [UInt8], a1: [UInt8], a2: [UInt8]) throws -> [UInt8] {
        try Toolbox.f6(w: w, n1: n1, n2: n2, r: r, ioCap: ioCap, a1: a1, a2: a2)
    }

    public func g2(u: [UInt8], v: [UInt8], x: [UInt8], y: [UInt8]) throws -> UInt32 { try Toolbox.g2(u: u, v: v, x: x, y: y) }
}

/// A P-256 key pair made for one pairing (swift-crypto 3 does not mark its keys Sendable; this one is only read).
private struct P256Pair: PairingKeyPair, @unchecked Sendable {
    let key = P256.KeyAgreement.PrivateKey()

    var x: [UInt8] { Array(key.publicKey.rawRepresentation.prefix(32)) }
    var y: [UInt8] { Array(key.publicKey.rawRepresentation.suffix(32)) }

    func dhKey(peerX: [UInt8], peerY: [UInt8]) throws -> [UInt8] {
        try Toolbox.dhKey(privateKey: key, peerX: peerX, peerY: peerY)
    }
}
