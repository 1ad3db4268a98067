// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import CSecret
import Domain
import Foundation
import Localization

/// A broker's password in the desktop's keyring (the Secret Service: GNOME Keyring, KWallet),
/// through libsecret, keyed by host, port and user. It never goes to settings or logs.
public enum BrokerKeyring {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    // Made once and never changed or freed: libsecret reads it from any thread.
    nonisolated(unsafe) private static let schema: UnsafeMutablePointer<SecretSchema> = {
        let names = table()
        for name in ["host", "port", "user"] {
            // Every attribute is a string (SECRET_SCHEMA_ATTRIBUTE_STRING is 0).
            g_hash_table_insert(names, g_strdup(name), nil)
        }
        defer { g_hash_table_unref(names) }
        return secret_schema_newv("io.github.favblue.FavBlue.Broker", SECRET_SCHEMA_NONE, names)
    }()

    private static func table() -> OpaquePointer {
        g_hash_table_new_full({ g_str_hash($0) }, { g_str_equal($0, $1) }, { g_free($0) }, { g_free($0) })
    }

    private static func attributes(_ address: MQTTAddress) -> OpaquePointer {
        let t = table()
        for (key, value) in [("host", address.host), ("port", String(address.port)), ("user", address.user ?? "")] {
            g_hash_table_insert(t, g_strdup(key), g_strdup(value))
        }
        return t
    }

    private static func failure(_ error: UnsafeMutablePointer<GError>?) -> Failure {
        defer { g_error_free(error) }
        let said = error.map { String(cString: $0.pointee.message) } ?? ""
        return Failure(description: L10n.format("The keyring could not be used: {}", said))
    }

    /// The password kept for `address`; nil when none is.
    public static func password(for address: MQTTAddress) throws(Failure) -> String? {
        let attributes = attributes(address)
        defer { g_hash_table_unref(attributes) }
        var error: UnsafeMutablePointer<GError>?
        let found = secret_password_lookupv_sync(schema, attributes, nil, &error)
        if let error { throw failure(error) }
        guard let found else { return nil }
        defer { secret_password_free(found) }
        return String(cString: found)
    }

    /// Keeps `password` for `address`, replacing any kept before.
    public static func store(_ password: String, for address: MQTTAddress) throws(Failure) {
        let attributes = attributes(address)
        defer { g_hash_table_unref(attributes) }
        var error: UnsafeMutablePointer<GError>?
        let label = L10n.format("FavBlue: MQTT broker {}", address.description)
        if secret_password_storev_sync(schema, attributes, nil, label, password, nil, &error) == 0 || error != nil {
            throw failure(error)
        }
    }
}
