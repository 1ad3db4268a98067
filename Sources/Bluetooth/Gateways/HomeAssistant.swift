// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation

/// Favorites' presence for Home Assistant, through its MQTT discovery: one `device_tracker`
/// per favorite, configured at `homeassistant/device_tracker/<id>/config` (retained), its state
/// "home" or "not_home" and the room as an attribute (Home Assistant's "MQTT Device Tracker"
/// documentation: name, unique_id, state_topic, json_attributes_topic, payload_home,
/// payload_not_home, source_type, device).
public enum HomeAssistant {
    /// The keys the discovery document uses, every one documented for an MQTT device tracker.
    public static let keys: Set<String> = ["name", "unique_id", "state_topic", "json_attributes_topic", "payload_home",
                                           "payload_not_home", "source_type", "device", "object_id"]

    /// A stable identifier for `id` that names no address: its storage key, hashed.
    public static func objectID(_ id: DeviceID) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in id.storageKey.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return "favblue_" + String(hash, radix: 16)
    }

    public static func configTopic(_ id: DeviceID) -> String { "homeassistant/device_tracker/\(objectID(id))/config" }
    public static func stateTopic(_ id: DeviceID, gateway: String) -> String { "favblue/\(gateway)/\(objectID(id))/state" }
    public static func attributesTopic(_ id: DeviceID, gateway: String) -> String { "favblue/\(gateway)/\(objectID(id))/attributes" }

    /// The discovery document for `favorite`, as this computer (`gateway`) reports it.
    public static func config(_ favorite: Favorite, gateway: String) -> [UInt8] {
        let object: [String: Any] = [
            "name": favorite.displayName,
            "unique_id": objectID(favorite.id),
            "object_id": objectID(favorite.id),
            "state_topic": stateTopic(favorite.id, gateway: gateway),
            "json_attributes_topic": attributesTopic(favorite.id, gateway: gateway),
            "payload_home": "home",
            "payload_not_home": "not_home",
            "source_type": "bluetooth_le",
            "device": ["identifiers": [objectID(favorite.id)], "name": favorite.displayName, "via_device": "favblue_\(gateway)"],
        ]
        return Array((try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data())
    }

    /// The room and signal, as the tracker's attributes.
    public static func attributes(room: String?, rssi: Int?) -> [UInt8] {
        var object: [String: Any] = [:]
        if let room { object["room"] = room }
        if let rssi { object["rssi"] = rssi }
        return Array((try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data())
    }
}
