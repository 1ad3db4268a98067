// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Bluetooth
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

    // MARK: Sensors

    /// The keys a reading's discovery document uses, every one documented for an MQTT sensor
    /// (Home Assistant's "MQTT Sensor" documentation).
    public static let sensorKeys: Set<String> = ["name", "unique_id", "object_id", "state_topic", "device_class",
                                                 "unit_of_measurement", "state_class", "availability_topic",
                                                 "payload_available", "payload_not_available", "device"]

    /// The keys a state's and an event's documents use, every one documented for an MQTT binary
    /// sensor and an MQTT event (Home Assistant's "MQTT Binary sensor" and "MQTT Event").
    public static let binarySensorKeys: Set<String> = ["name", "unique_id", "object_id", "state_topic", "device_class", "payload_on",
                                                       "payload_off", "availability_topic", "payload_available",
                                                       "payload_not_available", "device"]
    public static let eventKeys: Set<String> = ["name", "unique_id", "object_id", "state_topic", "device_class", "event_types",
                                                "availability_topic", "payload_available", "payload_not_available", "device"]

    /// The platform a reading is published as: a measurement a sensor, a state (a door open) a
    /// binary sensor, something that happened (a button pressed) an event.
    public static func component(_ quantity: Quantity) -> String {
        switch quantity.kind {
        case .measurement: return "sensor"
        case .binary: return "binary_sensor"
        case .event: return "event"
        }
    }

    /// The event types an event quantity's codes stand for (bthome.io/format, "Events"): a
    /// button's presses, a dimmer's turns (its low byte; the high one counts the steps). A
    /// quantity with none is not published.
    public static func eventTypes(_ quantity: Quantity) -> [Int: String] {
        (quantity.info?.events ?? [:]).mapValues(\.type)
    }

    /// The event type a reading says, or nil for none (0: no event in this frame).
    public static func eventType(_ reading: SensorReading) -> String? { reading.quantity.info?.event(reading.value)?.0.type }

    /// Where a reading's discovery document goes, by its platform.
    public static func readingConfigTopic(_ id: DeviceID, _ key: String, _ quantity: Quantity) -> String {
        "homeassistant/\(component(quantity))/\(sensorID(id, key))/config"
    }

    /// "temperature_2" → "favblue_…_temperature_2".
    public static func sensorID(_ id: DeviceID, _ key: String) -> String { objectID(id) + "_" + key }
    public static func sensorConfigTopic(_ id: DeviceID, _ key: String) -> String { "homeassistant/sensor/\(sensorID(id, key))/config" }
    public static func sensorStateTopic(_ id: DeviceID, _ key: String, gateway: String) -> String {
        "favblue/\(gateway)/\(objectID(id))/\(key)"
    }
    public static func sensorAvailabilityTopic(_ id: DeviceID, _ key: String, gateway: String) -> String {
        sensorStateTopic(id, key, gateway: gateway) + "/availability"
    }

    /// What every reading's discovery document says: its name, ids, topics and availability, under
    /// the favorite's device.
    private static func readingObject(_ favorite: Favorite, key: String, gateway: String) -> [String: Any] {
        let words = key.replacingOccurrences(of: "_", with: " ")
        return [
            "name": words.prefix(1).uppercased() + words.dropFirst(),
            "unique_id": sensorID(favorite.id, key),
            "object_id": sensorID(favorite.id, key),
            "state_topic": sensorStateTopic(favorite.id, key, gateway: gateway),
            "availability_topic": sensorAvailabilityTopic(favorite.id, key, gateway: gateway),
            "payload_available": "online",
            "payload_not_available": "offline",
            "device": ["identifiers": [objectID(favorite.id)], "name": favorite.displayName, "via_device": "favblue_\(gateway)"],
        ]
    }

    /// The discovery document of one reading of `favorite`: a measurement, in its unit, under
    /// the favorite's device, available while it keeps coming.
    public static func sensorConfig(_ favorite: Favorite, key: String, quantity: Quantity, gateway: String) -> [UInt8] {
        var object = readingObject(favorite, key: key, gateway: gateway)
        object["state_class"] = "measurement"
        // The catalogue's class: a sensor's own ("temperature"), or one it shares ("dew_point" is a temperature).
        if quantity.kind == .measurement, let deviceClass = quantity.info?.deviceClass { object["device_class"] = deviceClass }
        if !quantity.unit.isEmpty { object["unit_of_measurement"] = quantity.unit }
        return Array((try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data())
    }

    /// The discovery document of a state or an event of `favorite`: a binary sensor saying ON or
    /// OFF, or an event with the types it can say, under the favorite's device.
    public static func stateConfig(_ favorite: Favorite, key: String, quantity: Quantity, gateway: String) -> [UInt8] {
        var object = readingObject(favorite, key: key, gateway: gateway)
        if quantity.kind == .event {
            object["event_types"] = eventTypes(quantity).sorted { $0.key < $1.key }.map(\.value)
        } else {
            object["payload_on"] = "ON"
            object["payload_off"] = "OFF"
        }
        if let deviceClass = quantity.info?.deviceClass { object["device_class"] = deviceClass }
        return Array((try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data())
    }

    /// A state's payload ("ON", "OFF"), or an event's ({"event_type":"press"}); nil for an event
    /// code with no type.
    public static func statePayload(_ reading: SensorReading) -> [UInt8]? {
        if reading.quantity.kind == .binary { return Array((reading.value != 0 ? "ON" : "OFF").utf8) }
        guard let type = eventType(reading) else { return nil }
        return Array((try? JSONSerialization.data(withJSONObject: ["event_type": type], options: [.sortedKeys])) ?? Data())
    }

    /// A reading's state: the number at its format's resolution, in the C locale.
    public static func sensorState(_ reading: SensorReading) -> [UInt8] { Array(SensorText.number(reading).utf8) }
}
