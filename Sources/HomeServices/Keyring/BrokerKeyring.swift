// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Bluetooth
import Domain
import Localization

/// A broker's password in the desktop's keyring, keyed by host, port and user. It never goes
/// to settings or logs.
public enum BrokerKeyring {
    public typealias Failure = KeyringFailure

    private static let schema = KeyringSchema("io.github.favblue.FavBlue.Broker", attributes: ["host", "port", "user"])

    private static func attributes(_ address: MQTTAddress) -> [(String, String)] {
        [("host", address.host), ("port", String(address.port)), ("user", address.user ?? "")]
    }

    /// The password kept for `address`; nil when none is.
    public static func password(for address: MQTTAddress) throws(Failure) -> String? {
        try schema.lookup(attributes(address))
    }

    /// Keeps `password` for `address`, replacing any kept before.
    public static func store(_ password: String, for address: MQTTAddress) throws(Failure) {
        try schema.store(password, label: L10n.format("FavBlue: MQTT broker {}", address.description), attributes(address))
    }
}

/// Encrypted sensors' keys in the desktop's keyring, in hex, keyed by the sensor's address.
public struct SensorKeyKeyring: SensorKeyVault {
    private static let schema = KeyringSchema("io.github.favblue.FavBlue.SensorKey", attributes: ["address"])

    public init() {}

    public func key(for address: String) throws(SensorKeyVaultFailure) -> [UInt8]? {
        // Asked when a sensor is heard, not by the user: a keyring that is not running holds no key
        // of FavBlue's yet, and starting one here would ask the user to unlock it unprompted.
        guard KeyringSchema.isServing() else { return nil }
        do throws(KeyringFailure) {
            return try Self.schema.lookup([("address", address.uppercased())]).flatMap(Hex.bytes)
        } catch { throw SensorKeyVaultFailure(error.description) }
    }

    public func store(_ key: [UInt8], for address: String) throws(SensorKeyVaultFailure) {
        do throws(KeyringFailure) {
            try Self.schema.store(Hex.compact(key), label: L10n.format("FavBlue: sensor {}", address.uppercased()),
                                  [("address", address.uppercased())])
        } catch { throw SensorKeyVaultFailure(error.description) }
    }

    public func remove(for address: String) throws(SensorKeyVaultFailure) {
        do throws(KeyringFailure) {
            try Self.schema.clear([("address", address.uppercased())])
        } catch { throw SensorKeyVaultFailure(error.description) }
    }
}
