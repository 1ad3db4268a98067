// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// Where the keys of encrypted sensors are kept, by the address they were given for: the
/// desktop's keyring in the app. Never settings or logs.
public protocol SensorKeyVault: Sendable {
    /// The key kept for `address`; nil when none is.
    func key(for address: String) throws(SensorKeyVaultFailure) -> [UInt8]?
    /// Keeps `key` for `address`, replacing any kept before.
    func store(_ key: [UInt8], for address: String) throws(SensorKeyVaultFailure)
    /// Forgets the key of `address`, if any.
    func remove(for address: String) throws(SensorKeyVaultFailure)
}

/// Why the keyring could not be used, in words.
public struct SensorKeyVaultFailure: Error, Sendable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) { self.description = description }
}

/// Sensor keys that change while the app runs: added with Key…, found in the keyring at start.
public protocol MutableSensorKeys: SensorKeys {
    /// Sets (or with nil, forgets) the key of `address`.
    func set(_ key: [UInt8]?, for address: String)
}
