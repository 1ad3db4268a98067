// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation
import Localization

/// What a characteristic's value says, decoded by its type (the GATT Specification
/// Supplement's field formats). Whatever the outcome, the page also shows the raw bytes.
public enum DecodedValue: Equatable, Sendable {
    /// The value in words: a summary ("72 bpm") and, for values of several fields, each field;
    /// `figure` is its main number (72), for a plot, where it has one.
    case decoded(summary: String, parts: [Part], figure: Double? = nil)
    /// The type is known, but the value is shorter than its fields need.
    case tooShort(needs: Int, got: Int)
    /// A value the type does not allow, or one the device marks "not known", said in words.
    case notAValue(String)
    /// No decoder for this type: hex, and text where it is printable.
    case unknown

    /// One labelled field of a value.
    public struct Part: Equatable, Sendable {
        public let label: String
        public let value: String

        public init(_ label: String, _ value: String) {
            self.label = label
            self.value = value
        }
    }

    /// The value's main number, for a plot; nil for text and values without one.
    public var figure: Double? {
        if case .decoded(_, _, let figure) = self { return figure }
        return nil
    }

    /// One sentence for the page: the summary, or why there is none.
    public var text: String? {
        switch self {
        case .decoded(let summary, _, _): return summary
        case .tooShort(let needs, let got):
            return L10n.plural("Too short to read: this kind of value needs {} byte, the device sent {}.",
                               "Too short to read: this kind of value needs {} bytes, the device sent {}.", needs,
                               Formats.number(needs), Formats.number(got))
        case .notAValue(let why): return why
        case .unknown: return nil
        }
    }
}

/// The decoders, one table keyed by the characteristic's 16-bit UUID. Each reads its fields
/// in order; a value that ends early is reported as too short, never guessed at.
public enum CharacteristicValues {
    /// Decodes `bytes` as the characteristic `uuid16`; `company` names a Bluetooth SIG company
    /// identifier (for PnP ID).
    public static func decode(_ uuid16: UInt16, _ bytes: [UInt8],
                              company: @escaping (UInt16) -> String = { L10n.format("Company 0x{}", String(format: "%04X", $0)) }) -> DecodedValue {
        guard let decoder = table[uuid16] else { return .unknown }
        var reader = ValueReader(bytes)
        do throws(ValueTooShort) {
            return try decoder(&reader, Context(company: company))
        } catch {
            return .tooShort(needs: error.needs, got: bytes.count)
        }
    }

    /// Whether FavBlue knows how to read `uuid16`.
    public static func knows(_ uuid16: UInt16) -> Bool { table[uuid16] != nil }

    struct Context {
        let company: (UInt16) -> String
    }

    typealias Decoder = @Sendable (inout ValueReader, Context) throws(ValueTooShort) -> DecodedValue

    private static let table: [UInt16: Decoder] = [
        0x2A00: { r, _ throws(ValueTooShort) in text(&r) },                  // Device Name
        0x2A01: appearance,
        0x2A07: { r, _ throws(ValueTooShort) in                              // Tx Power Level
            let power = Int(try r.signed(1))
            return plain(L10n.format("{} dBm", Formats.number(power)), figure: Double(power))
        },
        0x2A19: battery,
        0x2A1C: temperatureMeasurement,
        0x2A23: systemID,
        0x2A24: { r, _ throws(ValueTooShort) in text(&r) },                  // Model Number String
        0x2A25: { r, _ throws(ValueTooShort) in text(&r) },                  // Serial Number String
        0x2A26: { r, _ throws(ValueTooShort) in text(&r) },                  // Firmware Revision String
        0x2A27: { r, _ throws(ValueTooShort) in text(&r) },                  // Hardware Revision String
        0x2A28: { r, _ throws(ValueTooShort) in text(&r) },                  // Software Revision String
        0x2A29: { r, _ throws(ValueTooShort) in text(&r) },                  // Manufacturer Name String
        0x2A2B: currentTime,
        0x2A37: heartRate,
        0x2A38: bodySensorLocation,
        0x2A50: pnpID,
        0x2A53: runningSpeed,
        0x2A5B: cyclingSpeed,
        0x2A6D: pressure,
        0x2A6E: temperature,
        0x2A6F: humidity,
    ]

    private static func plain(_ summary: String, figure: Double? = nil) -> DecodedValue {
        .decoded(summary: summary, parts: [], figure: figure)
    }

    /// A device's string, shown safely: control characters visible, invalid UTF-8 replaced.
    private static func text(_ r: inout ValueReader) -> DecodedValue {
        plain(DeviceText.shown(bytes: (try? r.take(r.remaining)) ?? []))
    }

    private static func hex(_ value: UInt64, digits: Int) -> String {
        "0x" + String(format: "%0\(digits)llX", value)
    }

    // MARK: GAP and Device Information

    private static func appearance(_ r: inout ValueReader, _: Context) throws(ValueTooShort) -> DecodedValue {
        let value = UInt16(try r.u16())
        guard let name = Appearance.name(value) else {
            return value == 0 ? plain(L10n.tr("Unknown")) : plain(L10n.format("Appearance {}", hex(UInt64(value), digits: 4)))
        }
        return plain(name)
    }

    private static func battery(_ r: inout ValueReader, _: Context) throws(ValueTooShort) -> DecodedValue {
        let level = try r.u8()
        guard level <= 100 else { return .notAValue(L10n.format("{} is not a battery level (0 to 100 %).", Formats.number(level))) }
        return plain(L10n.format("{} %", Formats.number(level)), figure: Double(level))
    }

    private static func systemID(_ r: inout ValueReader, _: Context) throws(ValueTooShort) -> DecodedValue {
        let manufacturer = try r.unsigned(5)
        let oui = try r.unsigned(3)
        let ouiText = stride(from: 16, through: 0, by: -8).map { String(format: "%02X", (oui >> UInt64($0)) & 0xFF) }.joined(separator: ":")
        return .decoded(summary: "\(ouiText) · \(hex(manufacturer, digits: 10))",
                        parts: [.init(L10n.tr("Organizationally unique identifier"), ouiText),
                                .init(L10n.tr("Manufacturer-defined identifier"), hex(manufacturer, digits: 10))])
    }

    private static func pnpID(_ r: inout ValueReader, _ context: Context) throws(ValueTooShort) -> DecodedValue {
        let source = try r.u8()
        let vendor = UInt16(try r.u16())
        let product = try r.u16()
        let version = try r.u16()
        let vendorName = switch source {
        case 1: context.company(vendor)
        case 2: L10n.format("USB vendor {}", hex(UInt64(vendor), digits: 4))
        default: L10n.format("Vendor {} (unknown registry {})", hex(UInt64(vendor), digits: 4), Formats.number(source))
        }
        // The version is JJ.M.N: a major byte, then a minor and a sub-minor nibble.
        let versionText = "\(version >> 8).\((version >> 4) & 0xF).\(version & 0xF)"
        return .decoded(summary: vendorName,
                        parts: [.init(L10n.tr("Vendor"), vendorName), .init(L10n.tr("Product"), hex(UInt64(product), digits: 4)),
                                .init(L10n.tr("Product version"), versionText)])
    }

    // MARK: Time

    private static func currentTime(_ r: inout ValueReader, _: Context) throws(ValueTooShort) -> DecodedValue {
        let components = try r.dateTime()
        _ = try r.u8()  // day of week
        let fractions = try r.u8()
        _ = try r.u8()  // adjust reason
        guard var components else { return .notAValue(L10n.tr("The device does not know the time.")) }
        components.nanosecond = fractions * 1_000_000_000 / 256
        guard components.isCalendarDate, let date = Calendar.current.date(from: components) else {
            return .notAValue(L10n.tr("The device sent a date that does not exist."))
        }
        return plain(Formats.dateTime(date))
    }

    // MARK: Heart rate

    private static func heartRate(_ r: inout ValueReader, _: Context) throws(ValueTooShort) -> DecodedValue {
        let flags = try r.u8()
        let rate = flags & 0x01 != 0 ? try r.u16() : try r.u8()
        let summary = L10n.format("{} bpm", Formats.number(rate))
        var parts = [DecodedValue.Part(L10n.tr("Heart rate"), summary)]
        // Bit 2: contact is reported; bit 1: the sensor touches the skin.
        if flags & 0x04 != 0 {
            parts.append(.init(L10n.tr("Sensor contact"), flags & 0x02 != 0 ? L10n.tr("Detected") : L10n.tr("Not detected")))
        }
        if flags & 0x08 != 0 {
            parts.append(.init(L10n.tr("Energy expended"), L10n.format("{} kJ", Formats.number(try r.u16()))))
        }
        if flags & 0x10 != 0 {
            var intervals: [String] = []
            while r.remaining >= 2 {
                // RR intervals come in 1/1024 s.
                intervals.append(L10n.format("{} ms", Formats.number(Int((Double(try r.u16()) * 1000 / 1024).rounded()))))
            }
            if !intervals.isEmpty { parts.append(.init(L10n.tr("RR intervals"), intervals.joined(separator: ", "))) }
        }
        return .decoded(summary: summary, parts: parts, figure: Double(rate))
    }

    private static func bodySensorLocation(_ r: inout ValueReader, _: Context) throws(ValueTooShort) -> DecodedValue {
        let names: [Int: () -> String] = [
            0: { L10n.tr("Other") }, 1: { L10n.tr("Chest") }, 2: { L10n.tr("Wrist") }, 3: { L10n.tr("Finger") },
            4: { L10n.tr("Hand") }, 5: { L10n.tr("Ear lobe") }, 6: { L10n.tr("Foot") },
        ]
        let value = try r.u8()
        guard let name = names[value] else { return .notAValue(L10n.format("Location {} is not defined.", Formats.number(value))) }
        return plain(name())
    }

    // MARK: Temperature and environment

    private static func temperatureMeasurement(_ r: inout ValueReader, _: Context) throws(ValueTooShort) -> DecodedValue {
        let flags = try r.u8()
        let value = try r.medicalFloat()
        let unit = flags & 0x01 != 0 ? "°F" : "°C"
        var parts: [DecodedValue.Part] = []
        if flags & 0x02 != 0, let stamp = try r.dateTime(), stamp.isCalendarDate, let date = Calendar.current.date(from: stamp) {
            parts.append(.init(L10n.tr("Measured"), Formats.dateTime(date)))
        }
        if flags & 0x04 != 0 {
            let types: [Int: () -> String] = [
                1: { L10n.tr("Armpit") }, 2: { L10n.tr("Body (general)") }, 3: { L10n.tr("Ear") }, 4: { L10n.tr("Finger") },
                5: { L10n.tr("Gastrointestinal tract") }, 6: { L10n.tr("Mouth") }, 7: { L10n.tr("Rectum") }, 8: { L10n.tr("Toe") },
                9: { L10n.tr("Eardrum") },
            ]
            let type = try r.u8()
            parts.append(.init(L10n.tr("Where"), types[type]?() ?? L10n.format("Type {}", Formats.number(type))))
        }
        guard let value else { return .notAValue(L10n.tr("The thermometer sent no number (not a number or out of range).")) }
        let summary = "\(Formats.decimal(value, digits: 1)) \(unit)"
        return .decoded(summary: summary, parts: parts.isEmpty ? [] : [.init(L10n.tr("Temperature"), summary)] + parts, figure: value)
    }

    private static func temperature(_ r: inout ValueReader, _: Context) throws(ValueTooShort) -> DecodedValue {
        let raw = try r.signed(2)
        guard raw != -0x8000 else { return .notAValue(L10n.tr("The sensor does not know the temperature.")) }
        return plain("\(Formats.decimal(Double(raw) / 100, digits: 2)) °C", figure: Double(raw) / 100)
    }

    private static func humidity(_ r: inout ValueReader, _: Context) throws(ValueTooShort) -> DecodedValue {
        let raw = try r.u16()
        guard raw != 0xFFFF else { return .notAValue(L10n.tr("The sensor does not know the humidity.")) }
        guard raw <= 10_000 else { return .notAValue(L10n.format("{} is not a humidity (0 to 100 %).", Formats.decimal(Double(raw) / 100, digits: 2))) }
        return plain("\(Formats.decimal(Double(raw) / 100, digits: 2)) %", figure: Double(raw) / 100)
    }

    private static func pressure(_ r: inout ValueReader, _: Context) throws(ValueTooShort) -> DecodedValue {
        // In 0.1 Pa; shown in hectopascals, as weather stations do.
        let hectopascals = Double(try r.u32()) / 1000
        return plain("\(Formats.decimal(hectopascals, digits: 1)) hPa", figure: hectopascals)
    }

    // MARK: Sport

    private static func runningSpeed(_ r: inout ValueReader, _: Context) throws(ValueTooShort) -> DecodedValue {
        let flags = try r.u8()
        let speed = Double(try r.u16()) / 256  // m/s
        let cadence = try r.u8()
        let speedText = L10n.format("{} km/h", Formats.decimal(speed * 3.6, digits: 1))
        let cadenceText = L10n.format("{} steps/min", Formats.number(cadence))
        var parts = [DecodedValue.Part(L10n.tr("Speed"), speedText), .init(L10n.tr("Cadence"), cadenceText)]
        if flags & 0x01 != 0 {
            parts.append(.init(L10n.tr("Stride length"), L10n.format("{} cm", Formats.number(try r.u16()))))
        }
        if flags & 0x02 != 0 {
            parts.append(.init(L10n.tr("Total distance"), L10n.format("{} m", Formats.decimal(Double(try r.u32()) / 10, digits: 1))))
        }
        parts.append(.init(L10n.tr("Moving"), flags & 0x04 != 0 ? L10n.tr("Running") : L10n.tr("Walking")))
        return .decoded(summary: "\(speedText) · \(cadenceText)", parts: parts, figure: speed * 3.6)
    }

    private static func cyclingSpeed(_ r: inout ValueReader, _: Context) throws(ValueTooShort) -> DecodedValue {
        let flags = try r.u8()
        var parts: [DecodedValue.Part] = []
        if flags & 0x01 != 0 {
            let revolutions = try r.u32()
            let time = try r.u16()
            parts.append(.init(L10n.tr("Wheel revolutions"), Formats.number(revolutions)))
            parts.append(.init(L10n.tr("Last wheel event"), eventTime(time)))
        }
        if flags & 0x02 != 0 {
            let revolutions = try r.u16()
            let time = try r.u16()
            parts.append(.init(L10n.tr("Crank revolutions"), Formats.number(revolutions)))
            parts.append(.init(L10n.tr("Last crank event"), eventTime(time)))
        }
        guard let first = parts.first else { return .notAValue(L10n.tr("The sensor sent neither wheel nor crank data.")) }
        return .decoded(summary: L10n.format("{}: {}", first.label, first.value), parts: parts)
    }

    /// An event time in 1/1024 s, as a sensor's clock reads (it wraps every 64 s).
    private static func eventTime(_ ticks: Int) -> String {
        L10n.format("{} s", Formats.decimal(Double(ticks) / 1024, digits: 3))
    }
}
