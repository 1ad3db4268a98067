// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Synchronization

/// One AES-128 block opened with a key, for sensors whose frames carry their own key (Govee's
/// H5121–H5130 scramble each frame with a key made from its time field): no secret, so no
/// keyring, and the decoders need it wherever a frame is read. Each program installs one at
/// start (`SensorCiphers.install`); without one those frames are not read.
public protocol SensorBlockCipher: Sendable {
    /// `block` (16 bytes) decrypted with `key` (16 bytes); nil for other lengths.
    func aesDecrypt(key: [UInt8], block: [UInt8]) -> [UInt8]?
}

/// The cipher the program installed.
public enum SensorCiphers {
    private static let installed = Mutex<(any SensorBlockCipher)?>(nil)

    /// Makes `cipher` the one the decoders use.
    public static func install(_ cipher: any SensorBlockCipher) { installed.withLock { $0 = cipher } }

    /// The installed cipher, or nil before one is.
    static var block: (any SensorBlockCipher)? { installed.withLock { $0 } }
}
