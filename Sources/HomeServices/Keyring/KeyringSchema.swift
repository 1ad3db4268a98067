// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import CGio
import CSecret
import Localization

/// One kind of FavBlue's secrets in the desktop's keyring (the Secret Service: GNOME Keyring,
/// KWallet), through libsecret: a schema of string attributes, and look-up, store and clear.
final class KeyringSchema: @unchecked Sendable {
    // Made once and never changed or freed: libsecret reads it from any thread.
    private let schema: UnsafeMutablePointer<SecretSchema>

    init(_ name: String, attributes names: [String]) {
        let table = Self.table()
        for name in names {
            // Every attribute is a string (SECRET_SCHEMA_ATTRIBUTE_STRING is 0).
            g_hash_table_insert(table, g_strdup(name), nil)
        }
        defer { g_hash_table_unref(table) }
        schema = secret_schema_newv(name, SECRET_SCHEMA_NONE, table)
    }

    private static func table() -> OpaquePointer {
        g_hash_table_new_full({ g_str_hash($0) }, { g_str_equal($0, $1) }, { g_free($0) }, { g_free($0) })
    }

    private static func attributes(_ values: [(String, String)]) -> OpaquePointer {
        let t = table()
        for (key, value) in values { g_hash_table_insert(t, g_strdup(key), g_strdup(value)) }
        return t
    }

    /// "The keyring could not be used: …", from the error libsecret gave.
    private static func said(_ error: UnsafeMutablePointer<GError>?) -> String {
        defer { g_error_free(error) }
        let said = error.map { String(cString: $0.pointee.message) } ?? ""
        return L10n.format("The keyring could not be used: {}", said)
    }

    /// The secret kept under `attributes`; nil when none is. Throws the failure in words.
    func lookup(_ attributes: [(String, String)]) throws(KeyringFailure) -> String? {
        let table = Self.attributes(attributes)
        defer { g_hash_table_unref(table) }
        var error: UnsafeMutablePointer<GError>?
        let found = secret_password_lookupv_sync(schema, table, nil, &error)
        if let error { throw KeyringFailure(description: Self.said(error)) }
        guard let found else { return nil }
        defer { secret_password_free(found) }
        return String(cString: found)
    }

    /// Whether the desktop's Secret Service is running now. Asked before a look-up that nobody
    /// requested, so that FavBlue never starts a keyring (and its unlock prompt) on its own.
    static func isServing() -> Bool {
        var error: UnsafeMutablePointer<GError>?
        guard let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else {
            g_error_free(error)
            return false
        }
        defer { g_object_unref(UnsafeMutableRawPointer(bus)) }
        var name = [g_variant_new_string("org.freedesktop.secrets")]
        let parameters = name.withUnsafeMutableBufferPointer { g_variant_new_tuple($0.baseAddress, 1) }
        guard let reply = g_dbus_connection_call_sync(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                                      "NameHasOwner", parameters, nil, G_DBUS_CALL_FLAGS_NONE, 2000, nil, &error) else {
            g_error_free(error)
            return false
        }
        defer { g_variant_unref(reply) }
        let owned = g_variant_get_child_value(reply, 0)
        defer { g_variant_unref(owned) }
        return g_variant_get_boolean(owned) != 0
    }

    /// Keeps `secret` under `attributes`, labelled `label`, replacing any kept before.
    func store(_ secret: String, label: String, _ attributes: [(String, String)]) throws(KeyringFailure) {
        let table = Self.attributes(attributes)
        defer { g_hash_table_unref(table) }
        var error: UnsafeMutablePointer<GError>?
        if secret_password_storev_sync(schema, table, nil, label, secret, nil, &error) == 0 || error != nil {
            throw KeyringFailure(description: Self.said(error))
        }
    }

    /// Removes what is kept under `attributes`, if anything.
    func clear(_ attributes: [(String, String)]) throws(KeyringFailure) {
        let table = Self.attributes(attributes)
        defer { g_hash_table_unref(table) }
        var error: UnsafeMutablePointer<GError>?
        _ = secret_password_clearv_sync(schema, table, nil, &error)
        if let error { throw KeyringFailure(description: Self.said(error)) }
    }
}

/// Why the keyring could not be used, in words.
public struct KeyringFailure: Error, CustomStringConvertible {
    public let description: String
}
