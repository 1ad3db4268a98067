// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// What a sensor measures, named by Home Assistant's sensor and binary-sensor device classes
/// ("temperature", "humidity", "opening"), with its unit.
public struct Quantity: Hashable, Sendable {
    /// How a reading of it is read.
    public enum Kind: Sendable {
        /// A number with a unit.
        case measurement
        /// On or off (a door open, motion seen): 1 or 0.
        case binary
        /// Something that happened (a button pressed); the value is the event's code.
        case event
    }

    /// Home Assistant's name for it ("carbon_dioxide").
    public let key: String
    /// Its unit ("°C", "%"); empty for counts, binary states and events.
    public let unit: String
    public let kind: Kind

    public init(_ key: String, _ unit: String = "", kind: Kind = .measurement) {
        self.key = key
        self.unit = unit
        self.kind = kind
    }

    public static let temperature = known("temperature")
    public static let humidity = known("humidity")
    public static let battery = known("battery")
    public static let pressure = known("pressure")
    public static let illuminance = known("illuminance")
    public static let moisture = known("moisture")
    public static let conductivity = known("conductivity")
    public static let carbonDioxide = known("carbon_dioxide")
    public static let pm25 = known("pm25")
    public static let pm10 = known("pm10")
    public static let voltage = known("voltage")
    public static let weight = known("weight")
    public static let count = known("count")
    public static let packetID = known("packet_id")
    public static let button = known("button")

    /// The quantity a stored reading's key stands for ("temperature_2" → temperature, in °C).
    public static func named(_ key: String) -> Quantity { known(ReadingKey(parsing: key).quantity) }
}

/// One value a sensor advertised: a quantity, its number, and the format's resolution.
public struct SensorReading: Equatable, Sendable {
    public let quantity: Quantity
    /// The value in the quantity's unit, rounded to `decimals` places.
    public let value: Double
    /// The decimal places the format resolves (2 for BTHome's 0.01 °C).
    public let decimals: Int
    /// The probe or channel the format numbers it by (a BBQ thermometer's probe 3), so a probe
    /// left unplugged does not renumber the others; nil where the format numbers nothing.
    public let slot: Int?

    /// A reading of `raw × factor`, kept at `decimals` places, so 2506 × 0.01 reads 25.06.
    public init(_ quantity: Quantity, _ value: Double, decimals: Int = 0, slot: Int? = nil) {
        self.quantity = quantity
        self.decimals = decimals
        self.slot = slot
        var scale = 1.0
        for _ in 0..<max(0, min(decimals, 9)) { scale *= 10 }
        self.value = (value * scale).rounded() / scale
    }
}

/// Who made a sensor and which one it is ("Xiaomi", "LYWSD03MMC").
public struct SensorModel: Equatable, Sendable {
    public let maker: String
    public let model: String

    public init(maker: String, model: String) {
        self.maker = maker
        self.model = model
    }
}

/// A beacon's identity: iBeacon's UUID, major and minor; Eddystone's namespace and instance or
/// URL; AltBeacon's ID. `power` is the calibrated signal at 1 m (dBm; Eddystone's at 0 m).
public struct Beacon: Equatable, Sendable {
    public enum Kind: String, Sendable {
        case iBeacon = "ibeacon"
        case eddystoneUID = "eddystone-uid"
        case eddystoneURL = "eddystone-url"
        case eddystoneTLM = "eddystone-tlm"
        case eddystoneEID = "eddystone-eid"
        case altBeacon = "altbeacon"
    }

    public let kind: Kind
    /// The fields each kind names ("uuid", "major", "minor"; "namespace", "instance"; "url"; "id").
    public let fields: [(String, BeaconField)]
    public let power: Int?

    public init(kind: Kind, fields: [(String, BeaconField)], power: Int?) {
        self.kind = kind
        self.fields = fields
        self.power = power
    }

    public static func == (a: Beacon, b: Beacon) -> Bool {
        a.kind == b.kind && a.power == b.power && a.fields.map(\.0) == b.fields.map(\.0) && a.fields.map(\.1) == b.fields.map(\.1)
    }
}

/// A beacon field: text (a UUID, a URL) or a number (a major).
public enum BeaconField: Equatable, Sendable {
    case text(String)
    case number(Int)
}

/// What one advertisement says as a sensor or beacon.
public struct SensorData: Equatable, Sendable {
    /// The maker and model, where the family tells.
    public var model: SensorModel?
    /// The readings in the order the format gives them; a quantity may come more than once
    /// (a six-probe thermometer).
    public var readings: [SensorReading]
    /// Encrypted and not opened: no key, or a key the frame's check refused.
    public var encrypted: Bool
    /// A key was tried and the frame's check (its MIC) refused it.
    public var wrongKey: Bool
    /// A beacon's identity, for beacons.
    public var beacon: Beacon?
    /// What was skipped while reading (an unknown object, a length that overran), for `--verbose`.
    public var skipped: [String]
    /// The frame carries only some of the device's readings (Govee H5055 sends two probes of six
    /// a frame, a ThermoBeacon its readings and its day's extremes in turn): the others stay as
    /// last heard.
    public var partial = false
    /// The numbered readings a partial frame speaks for, sent or not: a probe it says is
    /// unplugged goes. Nil: those it sends.
    public var slotsCarried: Set<Int>?
    /// It came encrypted and its key opened it: only such frames are believed once a key is known.
    public var sealed = false
    /// The encryption counter it was sealed with (BTHome, MiBeacon, Victron), which must not fall.
    public var counter: UInt32?
    /// The packet's number (BTHome's packet ID, MiBeacon's frame counter): a repeat is the same packet.
    public var packetID: Int?
    /// A frame without encryption came from a sensor whose key is known, and was not believed.
    public var plaintextIgnored = false
    /// The names the device's user gave its numbered slots (a Kegtron's ports: "IPA"), as the
    /// device sent them: device text, shown through `DeviceText`.
    public var slotNames: [Int: String] = [:]

    public init(model: SensorModel? = nil, readings: [SensorReading] = [], encrypted: Bool = false,
                wrongKey: Bool = false, beacon: Beacon? = nil, skipped: [String] = []) {
        self.model = model
        self.readings = readings
        self.encrypted = encrypted
        self.wrongKey = wrongKey
        self.beacon = beacon
        self.skipped = skipped
    }

    /// The readings by name, a repeated quantity numbered `_1`, `_2`… in the order given:
    /// `temperature_1` … `temperature_6` for six probes, plain `temperature` for one.
    /// A reading with a slot keeps its number: `temperature_3` for probe 3 alone.
    public var named: [(String, SensorReading)] { keyed.map { ($0.0.description, $0.1) } }

    /// Each reading with its key: its slot where the format numbers it, else a number of its
    /// own where the quantity comes more than once (the second temperature: temperature, 2).
    public var keyed: [(ReadingKey, SensorReading)] {
        var counts: [String: Int] = [:]
        for r in readings where r.slot == nil { counts[r.quantity.key, default: 0] += 1 }
        var seen: [String: Int] = [:]
        return readings.map { r in
            if let slot = r.slot { return (ReadingKey(r.quantity.key, slot: slot), r) }
            guard counts[r.quantity.key, default: 0] > 1 else { return (ReadingKey(r.quantity.key), r) }
            seen[r.quantity.key, default: 0] += 1
            return (ReadingKey(r.quantity.key, slot: seen[r.quantity.key]!), r)
        }
    }
}

extension SensorData {
    /// A partial frame's readings joined with those `older` (of the same model) had and this
    /// one does not speak for: numbered ones in probe order, the others where they stood.
    public func keepingProbes(of older: SensorData?) -> SensorData {
        guard partial, let older, older.model == model else { return self }
        // A handful of readings each: scans, not sets, as this runs for each partial frame folded.
        func sent(_ r: SensorReading) -> Bool { readings.contains { $0.slot == r.slot && $0.quantity.key == r.quantity.key } }
        var numbered = readings.filter { $0.slot != nil }
        for r in older.readings {
            guard let slot = r.slot else { continue }
            if !(slotsCarried?.contains(slot) ?? sent(r)) { numbered.append(r) }
        }
        numbered.sort { $0.slot! < $1.slot! }
        // A quantity keeps its place among the others, so a row's figures do not swap with each frame.
        var plain: [SensorReading] = []
        for r in older.readings where r.slot == nil {
            plain.append(readings.first { $0.slot == nil && $0.quantity.key == r.quantity.key } ?? r)
        }
        for r in readings where r.slot == nil && !older.readings.contains(where: { $0.slot == nil && $0.quantity.key == r.quantity.key }) {
            plain.append(r)
        }
        var out = self
        out.readings = numbered + plain
        for (slot, name) in older.slotNames where !(slotsCarried?.contains(slot) ?? (slotNames[slot] != nil)) {
            out.slotNames[slot] = name
        }
        return out
    }
}
