// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import CMosquitto
import Bluetooth
import Domain
import Foundation
import Localization

/// What reading from a broker and publishing to it share: the library, the password (given,
/// else the keyring's) and a client set up for an address (MQTT 3.1.1, credentials, TLS,
/// reconnecting with backoff from 1 s, doubling to 30 s).
enum MQTTClient {
    private static let library: Void = { mosquitto_lib_init() }()

    /// The password for `address`: `given`, else the keyring's; and why there is none, if not.
    static func password(_ given: String?, for address: MQTTAddress) -> (password: String?, note: String?) {
        guard given == nil, address.user != nil else { return (given, nil) }
        do throws(BrokerKeyring.Failure) {
            guard let kept = try BrokerKeyring.password(for: address) else {
                return (nil, L10n.format("No password is kept for {} in the keyring.", address.description))
            }
            return (kept, nil)
        } catch {
            return (nil, error.description)
        }
    }

    /// A client for `address`; `object` comes back to its callbacks.
    static func make(_ address: MQTTAddress, password: String?, object: UnsafeMutableRawPointer) throws(ScanFailure) -> OpaquePointer {
        BrokenPipes.ignore()
        if let why = favblue_mosquitto_unavailable() {
            throw .badSource(L10n.format("the MQTT library could not be loaded ({}); install libmosquitto1", String(cString: why)))
        }
        _ = library
        guard let m = mosquitto_new(nil, true, object) else { throw .unavailable(L10n.tr("the MQTT client could not be made")) }
        mosquitto_int_option(m, MOSQ_OPT_PROTOCOL_VERSION, Int32(MQTT_PROTOCOL_V311))
        if let user = address.user { mosquitto_username_pw_set(m, user, password) }
        if address.tls {
            let rc = mosquitto_tls_set(m, address.caFile, address.caFile == nil ? "/etc/ssl/certs" : nil, nil, nil, nil)
            guard rc == MOSQ_ERR_SUCCESS.rawValue else {
                mosquitto_destroy(m)
                throw .badSource(L10n.format("the CA file cannot be used: {}", words(rc)))
            }
        }
        mosquitto_reconnect_delay_set(m, 1, 30, true)
        return m
    }

    /// Starts the client's thread, then its connection. libmosquitto's thread retries a first
    /// connection that was refused or reset (a broker not up yet, a network still coming) only
    /// if it is running when that happens; started after, it ends at once and the client never
    /// connects. `failed` hears why the first attempt did not connect at once.
    static func start(_ m: OpaquePointer, _ address: MQTTAddress, failed: (Int32) -> Void) {
        mosquitto_loop_start(m)
        let rc = mosquitto_connect_async(m, address.host, Int32(address.port), 30)
        if rc != MOSQ_ERR_SUCCESS.rawValue { failed(rc) }
    }

    /// Says goodbye to the broker, stops the client's thread and frees it.
    static func close(_ m: OpaquePointer) {
        mosquitto_disconnect(m)
        mosquitto_loop_stop(m, true)
        mosquitto_destroy(m)
    }

    static func words(_ rc: Int32) -> String { String(cString: mosquitto_strerror(rc)) }
}
