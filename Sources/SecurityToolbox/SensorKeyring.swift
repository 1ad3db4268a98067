// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import CNettle
import Crypto
import _CryptoExtras
import Domain
import Foundation

/// Keys of encrypted sensors, by address, with the ciphers that open their frames: AES-CCM
/// from Nettle, AES-CTR from swift-crypto. The keys are never logged or printed.
public struct SensorKeyring: SensorKeys, PayloadSealer {
    private let keys: [String: [UInt8]]

    /// `keys` by address ("AA:BB:CC:DD:EE:FF", any case).
    public init(_ keys: [String: [UInt8]] = [:]) {
        self.keys = Dictionary(keys.map { ($0.key.uppercased(), $0.value) }, uniquingKeysWith: { _, newer in newer })
    }

    /// The keys of a `--sensor-keys` file (`SensorKeyFile`).
    public init(file text: String) throws(SensorKeyFile.LineError) {
        self.init(try SensorKeyFile.parse(text))
    }

    public func key(for address: String) -> [UInt8]? { keys[address.uppercased()] }

    public func ccmOpen(key: [UInt8], nonce: [UInt8], ciphertext: [UInt8], tag: [UInt8], associated: [UInt8]) -> [UInt8]? {
        guard key.count == 16, (7...13).contains(nonce.count), [4, 6, 8, 10, 12, 14, 16].contains(tag.count) else { return nil }
        var context = ccm_aes128_ctx()
        nettle_ccm_aes128_set_key(&context, key)
        var plain = [UInt8](repeating: 0, count: ciphertext.count)
        let sealed = ciphertext + tag
        let valid = plain.withUnsafeMutableBufferPointer { out in
            nettle_ccm_aes128_decrypt_message(&context, nonce.count, nonce, associated.count, associated, tag.count,
                                              ciphertext.count, out.baseAddress, sealed)
        }
        return valid == 1 ? plain : nil
    }

    public func ccmSeal(key: [UInt8], nonce: [UInt8], plaintext: [UInt8], associated: [UInt8],
                        tagLength: Int) -> (ciphertext: [UInt8], tag: [UInt8])? {
        guard key.count == 16, (7...13).contains(nonce.count), [4, 6, 8, 10, 12, 14, 16].contains(tagLength) else { return nil }
        var context = ccm_aes128_ctx()
        nettle_ccm_aes128_set_key(&context, key)
        let length = plaintext.count + tagLength
        var sealed = [UInt8](repeating: 0, count: length)
        sealed.withUnsafeMutableBufferPointer { out in
            nettle_ccm_aes128_encrypt_message(&context, nonce.count, nonce, associated.count, associated, tagLength,
                                              length, out.baseAddress, plaintext)
        }
        return (Array(sealed.prefix(plaintext.count)), Array(sealed.suffix(tagLength)))
    }

    public func ctr(key: [UInt8], counter: [UInt8], data: [UInt8]) -> [UInt8]? {
        guard key.count == 16, counter.count == 16,
              let nonce = try? AES._CTR.Nonce(nonceBytes: counter),
              let out = try? AES._CTR.encrypt(data, using: SymmetricKey(data: key), nonce: nonce) else { return nil }
        return Array(out)
    }
}

/// The app's sensor keys, which change while it runs (Key…, and the keyring's answers).
public final class LiveSensorKeyring: MutableSensorKeys, @unchecked Sendable {
    private let lock = NSLock()
    private var keys: [String: [UInt8]] = [:]
    private let ciphers = SensorKeyring()

    public init() {}

    public func set(_ key: [UInt8]?, for address: String) {
        lock.withLock { keys[address.uppercased()] = key }
    }

    public func key(for address: String) -> [UInt8]? { lock.withLock { keys[address.uppercased()] } }

    public func ccmOpen(key: [UInt8], nonce: [UInt8], ciphertext: [UInt8], tag: [UInt8], associated: [UInt8]) -> [UInt8]? {
        ciphers.ccmOpen(key: key, nonce: nonce, ciphertext: ciphertext, tag: tag, associated: associated)
    }

    public func ctr(key: [UInt8], counter: [UInt8], data: [UInt8]) -> [UInt8]? { ciphers.ctr(key: key, counter: counter, data: data) }
}

/// AES-128 one block at a time, from swift-crypto, for frames that carry their own key.
public struct SensorAESBlock: SensorBlockCipher {
    public init() {}

    public func aesDecrypt(key: [UInt8], block: [UInt8]) -> [UInt8]? {
        guard key.count == 16, block.count == 16 else { return nil }
        var out = block
        guard (try? AES.inversePermute(&out, key: SymmetricKey(data: key))) != nil else { return nil }
        return out
    }
}
