// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Localization

/// Every quantity FavBlue reads, once: its key, unit, kind, Home Assistant device class, its
/// name in words, the decimals a figure read back from the history gets, and its place among a
/// row's main readings. The row text, the detail page, the history, the limits, the export and
/// Home Assistant's discovery all read it here; a family's readings name their quantity from it.
public struct QuantityInfo: Sendable {
    public let quantity: Quantity
    /// Home Assistant's device class (a sensor's, or a binary sensor's for a state); nil for none.
    public let deviceClass: String?
    /// Decimals for a figure with no reading to say them (a history read back).
    public let decimals: Int
    /// Where it comes among a row's main readings, first first; nil when it is not one of them.
    public let order: Int?
    /// A bare figure would not say what it is, so a row names it ("Battery 81 %").
    public let namedInSummary: Bool
    /// Its name in words, in the user's language ("Carbon dioxide").
    public let name: @Sendable () -> String
    /// An event's kinds by the code the sensor sends (a button's press, double press…); empty
    /// for a measurement or a state.
    public var events: [Int: SensorEvent] = [:]
    /// What a numbered reading's number stands for, where it is not a probe's number: an
    /// accelerometer's axes ("X axis"). Nil: the number itself ("Temperature 2").
    public var slotName: (@Sendable (Int) -> String?)?

    /// The kind of event `value` says, or nil for none (0: no event in this frame). A dimmer
    /// sends its steps in the high byte.
    public func event(_ value: Double) -> (SensorEvent, steps: Int)? {
        let code = Int(value)
        if let event = events[code] { return (event, 0) }
        return events[code & 0xFF].flatMap { $0.counted ? ($0, code >> 8) : nil }
    }
}

/// One kind of event: Home Assistant's name for it, and what happened in words.
public struct SensorEvent: Sendable {
    /// Home Assistant's event type ("double_press").
    public let type: String
    /// Whether the code's high byte counts steps (a dimmer's turn).
    public let counted: Bool
    /// What happened, in the user's language; given the steps where they are counted.
    public let words: @Sendable (Int) -> String

    init(_ type: String, counted: Bool = false, _ words: @escaping @Sendable (Int) -> String) {
        self.type = type
        self.counted = counted
        self.words = words
    }
}

public enum QuantityCatalog {
    private typealias Kind = Quantity.Kind

    private static func entry(_ key: String, _ unit: String = "", _ kind: Kind = .measurement, class deviceClass: String? = nil,
                              decimals: Int = 0, order: Int? = nil, named: Bool = false, events: [Int: SensorEvent] = [:],
                              slotName: (@Sendable (Int) -> String?)? = nil,
                              _ name: @escaping @Sendable () -> String) -> QuantityInfo {
        QuantityInfo(quantity: Quantity(key, unit, kind: kind), deviceClass: deviceClass, decimals: decimals, order: order,
                     namedInSummary: named, name: name, events: events, slotName: slotName)
    }

    /// An accelerometer's three axes, numbered 1 to 3.
    private static let axes: @Sendable (Int) -> String? = { slot in
        switch slot {
        case 1: L10n.tr("X axis")
        case 2: L10n.tr("Y axis")
        case 3: L10n.tr("Z axis")
        default: nil
        }
    }

    /// A keg monitor's ports, numbered from 1.
    private static let ports: @Sendable (Int) -> String? = { slot in
        // Translators: a keg monitor's numbered port, "Port 2".
        L10n.format("Port {}", Formats.number(slot))
    }

    /// A grill thermometer's probes, numbered from 1.
    private static let probes: @Sendable (Int) -> String? = { slot in
        // Translators: a thermometer's numbered probe, "Probe 2".
        L10n.format("Probe {}", Formats.number(slot))
    }

    /// The table. A row's main readings come in `order`; Home Assistant's classes as its
    /// sensor and binary sensor documentation names them.
    public static let all: [QuantityInfo] = [
        // The main readings, in a row's order.
        entry("tank_level", "mm", class: "distance", order: 0, named: true) { L10n.tr("Tank level") },
        entry("tank_fill", "%", decimals: 1, order: 1, named: true) { L10n.tr("Tank filled") },
        entry("water_level", "mm", class: "distance", decimals: 1, order: 2, named: true) { L10n.tr("Water level") },
        entry("temperature", "°C", class: "temperature", decimals: 1, order: 3) { L10n.tr("Temperature") },
        entry("humidity", "%", class: "humidity", decimals: 1, order: 4) { L10n.tr("Humidity") },
        entry("carbon_dioxide", "ppm", class: "carbon_dioxide", order: 5) { L10n.tr("Carbon dioxide") },
        entry("pm25", "µg/m³", class: "pm25", order: 6) { L10n.tr("Fine dust (PM2.5)") },
        entry("moisture", "%", class: "moisture", decimals: 1, order: 7) { L10n.tr("Moisture") },
        entry("pressure", "hPa", class: "pressure", decimals: 1, order: 8) { L10n.tr("Pressure") },
        entry("illuminance", "lx", class: "illuminance", order: 9) { L10n.tr("Illuminance") },
        entry("conductivity", "µS/cm", class: "conductivity", order: 10) { L10n.tr("Conductivity") },
        entry("weight", "kg", class: "weight", decimals: 2, order: 11) { L10n.tr("Weight") },
        entry("volume_remaining", "L", class: "volume_storage", decimals: 1, order: 12, named: true, slotName: ports) {
            L10n.ctx("what is left in a keg", "Remaining")
        },
        entry("tyre_pressure", "bar", class: "pressure", decimals: 2, order: 13, named: true) { L10n.tr("Tyre pressure") },
        // A curtain's and a blind's place, as the motor tells it.
        entry("closed", "%", order: 14, named: true) { L10n.ctx("how far a curtain is drawn", "Closed") },
        entry("slats_open", "%", order: 15, named: true) { L10n.ctx("how far a blind's slats are turned open", "Open") },
        entry("opening", "", .binary, class: "opening", order: 16) { L10n.tr("Opening") },
        entry("door", "", .binary, class: "door", order: 17) { L10n.tr("Door") },
        entry("window", "", .binary, class: "window", order: 18) { L10n.tr("Window") },
        entry("motion", "", .binary, class: "motion", order: 19) { L10n.tr("Motion") },
        entry("brushing", "", .binary, order: 20) { L10n.tr("Brushing") },
        entry("heart_rate", "bpm", order: 21, named: true) { L10n.tr("Heart rate") },
        entry("steps", order: 22, named: true) { L10n.ctx("steps walked", "Steps") },
        entry("duration", "s", class: "duration", order: 23, named: true) { L10n.tr("Duration") },
        entry("battery", "%", class: "battery", order: 24, named: true) { L10n.tr("Battery") },
        // Measurements.
        entry("pm10", "µg/m³", class: "pm10") { L10n.tr("Dust (PM10)") },
        entry("voltage", "V", class: "voltage", decimals: 3) { L10n.tr("Voltage") },
        entry("formaldehyde", "mg/m³", decimals: 2) { L10n.tr("Formaldehyde") },
        entry("impedance", "Ω") { L10n.tr("Impedance") },
        entry("specific_gravity", decimals: 3) { L10n.tr("Specific gravity") },
        entry("dew_point", "°C", class: "temperature", decimals: 1) { L10n.tr("Dew point") },
        entry("current", "A", class: "current", decimals: 3) { L10n.ctx("electric current", "Current") },
        entry("power", "W", class: "power", decimals: 2) { L10n.ctx("electric power", "Power") },
        entry("energy", "kWh", class: "energy", decimals: 3) { L10n.tr("Energy") },
        entry("volatile_organic_compounds", "µg/m³", class: "volatile_organic_compounds") { L10n.tr("Volatile organic compounds") },
        entry("distance", "mm", class: "distance") { L10n.tr("Distance") },
        entry("speed", "m/s", class: "speed", decimals: 2) { L10n.tr("Speed") },
        entry("volume", "L", class: "volume", decimals: 1) { L10n.tr("Volume") },
        entry("volume_flow_rate", "m³/h", class: "volume_flow_rate", decimals: 3) { L10n.tr("Flow rate") },
        entry("volume_dispensed", "L", class: "volume", decimals: 1, slotName: ports) { L10n.ctx("poured from a keg", "Dispensed") },
        entry("volume_start", "L", class: "volume_storage", decimals: 1, slotName: ports) { L10n.ctx("what a keg held when it was set up", "Volume at start") },
        // A grill thermometer's alarms as set on it: settings it reports, shown beside its probes.
        entry("temperature_alarm_high", "°C", class: "temperature", slotName: probes) { L10n.tr("Alarm above") },
        entry("temperature_alarm_low", "°C", class: "temperature", slotName: probes) { L10n.tr("Alarm below") },
        entry("keg_size", "L", class: "volume_storage", decimals: 1, slotName: ports) { L10n.tr("Keg size") },
        entry("metered_volume", "m³", class: "volume", decimals: 3) { L10n.tr("Metered volume") },
        entry("volume_storage", "L", class: "volume_storage", decimals: 1) { L10n.tr("Stored volume") },
        entry("gas", "m³", class: "gas", decimals: 3) { L10n.ctx("gas meter", "Gas") },
        entry("water", "L", class: "water", decimals: 1) { L10n.ctx("water meter", "Water") },
        entry("precipitation", "mm", class: "precipitation", decimals: 1) { L10n.tr("Precipitation") },
        entry("rotation", "°", decimals: 1) { L10n.tr("Rotation") },
        entry("direction", "°", decimals: 1) { L10n.tr("Direction") },
        entry("rotational_speed", "rpm") { L10n.tr("Rotational speed") },
        entry("acceleration", "m/s²", decimals: 3, slotName: axes) { L10n.tr("Acceleration") },
        entry("gyroscope", "°/s", decimals: 3) { L10n.tr("Rotation rate") },
        entry("uv_index", decimals: 1) { L10n.tr("UV index") },
        entry("timestamp", "s") { L10n.tr("Device time") },
        entry("uptime", "s", class: "duration", decimals: 1) { L10n.tr("Running for") },
        entry("reading_quality", "%") { L10n.tr("Reading quality") },
        entry("count") { L10n.ctx("a counter's value", "Count") },
        entry("movement_counter") { L10n.tr("Movements") },
        entry("advertisements") { L10n.tr("Advertisements sent") },
        entry("packet_id") { L10n.tr("Packet number") },
        entry("channel") { L10n.ctx("a device's numbered channel", "Channel") },
        entry("light_level") { L10n.tr("Light level") },
        entry("settings_revision") { L10n.tr("Settings revision") },
        // States.
        entry("light", "", .binary, class: "light") { L10n.ctx("light level", "Light") },
        entry("generic", "", .binary) { L10n.ctx("a sensor's on or off state", "State") },
        entry("power_on", "", .binary, class: "power") { L10n.tr("Power on") },
        entry("battery_low", "", .binary, class: "battery") { L10n.tr("Battery low") },
        entry("battery_charging", "", .binary, class: "battery_charging") { L10n.tr("Battery charging") },
        entry("carbon_monoxide", "", .binary, class: "carbon_monoxide") { L10n.tr("Carbon monoxide") },
        entry("cold", "", .binary, class: "cold") { L10n.tr("Cold") },
        entry("connectivity", "", .binary, class: "connectivity") { L10n.tr("Connected") },
        entry("garage_door", "", .binary, class: "garage_door") { L10n.tr("Garage door") },
        entry("gas_detected", "", .binary, class: "gas") { L10n.tr("Gas detected") },
        entry("heat", "", .binary, class: "heat") { L10n.tr("Heat") },
        entry("lock", "", .binary, class: "lock") { L10n.ctx("a lock's state", "Unlocked") },
        entry("wet", "", .binary, class: "moisture") { L10n.tr("Wet") },
        entry("moving", "", .binary, class: "moving") { L10n.tr("Moving") },
        entry("calibrated", "", .binary) { L10n.ctx("a motor that knows its end positions", "Calibrated") },
        entry("occupancy", "", .binary, class: "occupancy") { L10n.tr("Occupied") },
        entry("plug", "", .binary, class: "plug") { L10n.tr("Plugged in") },
        entry("presence", "", .binary, class: "presence") { L10n.tr("Someone present") },
        entry("problem", "", .binary, class: "problem") { L10n.tr("Problem") },
        entry("running", "", .binary, class: "running") { L10n.tr("Running") },
        entry("safety", "", .binary, class: "safety") { L10n.tr("Unsafe") },
        entry("smoke", "", .binary, class: "smoke") { L10n.tr("Smoke") },
        entry("sound", "", .binary, class: "sound") { L10n.tr("Sound") },
        entry("tamper", "", .binary, class: "tamper") { L10n.tr("Tampered with") },
        entry("vibration", "", .binary, class: "vibration") { L10n.tr("Vibration") },
        // Events.
        entry("button", "", .event, class: "button", events: [
            1: SensorEvent("press") { _ in L10n.tr("Button pressed") },
            2: SensorEvent("double_press") { _ in L10n.tr("Button pressed twice") },
            3: SensorEvent("triple_press") { _ in L10n.tr("Button pressed three times") },
            4: SensorEvent("long_press") { _ in L10n.tr("Button held") },
            5: SensorEvent("long_double_press") { _ in L10n.tr("Button pressed twice, then held") },
            6: SensorEvent("long_triple_press") { _ in L10n.tr("Button pressed three times, then held") },
            0x80: SensorEvent("hold_press") { _ in L10n.tr("Button still held") },
            // Not BTHome's codes (it has none for these): FavBlue's own, for buttons that say them.
            0x81: SensorEvent("quadruple_press") { _ in L10n.tr("Button pressed four times") },
            0x82: SensorEvent("quintuple_press") { _ in L10n.tr("Button pressed five times") },
            0x83: SensorEvent("release") { _ in L10n.tr("Button released") },
        ]) { L10n.tr("Button") },
        entry("dimmer", "", .event, events: [
            1: SensorEvent("rotate_left", counted: true) {
                L10n.plural("Dimmer turned left by {} step", "Dimmer turned left by {} steps", $0, Formats.number($0))
            },
            2: SensorEvent("rotate_right", counted: true) {
                L10n.plural("Dimmer turned right by {} step", "Dimmer turned right by {} steps", $0, Formats.number($0))
            },
        ]) { L10n.tr("Dimmer") },
        entry("command", "", .event) { L10n.ctx("a remote's command", "Command") },
        entry("motion_seen", "", .event, class: "motion", events: [1: SensorEvent("motion") { _ in L10n.tr("Motion seen") }]) {
            L10n.tr("Motion")
        },
        entry("vibration_felt", "", .event, events: [1: SensorEvent("vibration") { _ in L10n.tr("Vibration felt") }]) {
            L10n.tr("Vibration")
        },
    ]

    /// The table by key.
    public static let byKey: [String: QuantityInfo] = Dictionary(all.map { ($0.quantity.key, $0) }, uniquingKeysWith: { first, _ in first })

    /// The keys of a row's main readings, in their order.
    public static let mainKeys: [String] = all.filter { $0.order != nil }.sorted { $0.order! < $1.order! }.map(\.quantity.key)

    /// What is known of `key` ("temperature"), or nil for a quantity the table does not hold.
    public static func info(_ key: String) -> QuantityInfo? { byKey[key] }
}

extension Quantity {
    /// The catalogue's quantity `key`, in its unit; one without a unit where the table has none
    /// (a stored reading of an older version, say).
    public static func known(_ key: String) -> Quantity { QuantityCatalog.byKey[key]?.quantity ?? Quantity(key) }

    /// The same quantity in another unit a format sends it in ("lb" for a weight).
    public func sent(in unit: String) -> Quantity { Quantity(key, unit, kind: kind) }

    /// What the catalogue says of it; nil for a quantity it does not hold.
    public var info: QuantityInfo? { QuantityCatalog.byKey[key] }
}

/// Which reading of a device: its quantity and, for a format that numbers them (a grill's
/// probes) or a device that sends one quantity twice, which one. Stored and published as text,
/// "temperature_2"; read back here and nowhere else.
public struct ReadingKey: Hashable, Sendable, CustomStringConvertible {
    public let quantity: String
    public let slot: Int?

    public init(_ quantity: String, slot: Int? = nil) {
        self.quantity = quantity
        self.slot = slot
    }

    /// "temperature_2" → temperature, 2; "carbon_dioxide" → carbon_dioxide; a key the catalogue
    /// holds whole ("pm25") is never cut.
    public init(parsing text: String) {
        if QuantityCatalog.byKey[text] == nil, let cut = text.lastIndex(of: "_"), let number = Int(text[text.index(after: cut)...]),
           number >= 0 {
            self.init(String(text[..<cut]), slot: number)
        } else {
            self.init(text)
        }
    }

    /// "temperature_2", "humidity".
    public var description: String { slot.map { "\(quantity)_\($0)" } ?? quantity }
}
