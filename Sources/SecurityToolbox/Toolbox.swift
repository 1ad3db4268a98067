// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Crypto
import _CryptoExtras
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
        let r: [UInt8] = [UInt8](repeating: 0, count: 13) + [16, 8, 0].map { UInt8(truncatingIfNeeded: prand >> $0) }
        let out = try e(key: irk, r)
        return UInt32(out[13]) << 16 | UInt32(out[14]) << 8 | UInt32(out[15])
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

/// `ah` for the private-address resolver, from the toolbox.
public struct AESAddressHashing: AddressHashing {
    public init() {}

    /// The hash, or a value above 24 bits (which no address carries) if the AES refused the key.
    public func ah(irk: IdentityResolvingKey, prand: UInt32) -> UInt32 {
        (try? Toolbox.ah(irk: irk.bytes, prand: prand)) ?? UInt32.max
    }
}
