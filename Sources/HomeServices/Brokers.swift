// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Bluetooth
import Domain

/// What FavBlue shares with the home around it, apart from the radio: MQTT gateways (BTtoMQTT,
/// MQTTScanner, MQTTClient) and Home Assistant's discovery (BusSharing, HomeAssistant), the
/// desktop's keyring for a broker's password (BrokerKeyring, KeyringSchema), NetworkManager's
/// places (NetworkManagerPlaces).
public enum Brokers {
    /// Lets `ScannerFactory` open `mqtt://` sources; each program calls it before its first scan.
    public static func install() {
        ScannerFactory.useBrokers { address, log in MQTTScanner(address: address, log: log) }
    }
}
