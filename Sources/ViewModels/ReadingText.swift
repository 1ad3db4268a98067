// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import Localization

/// A sensor's readings as users read them: the locale's decimal comma or point, °F where
/// glibc says LC_MEASUREMENT is in US units, and the quantity named where a bare figure
/// would not say what it is ("Battery 81 %").
public enum ReadingText {
    /// Whether temperatures read in °F. Never guessed from a language: "C" is metric.
    public static let fahrenheit = Formats.measuresInUSUnits(environment: ProcessInfo.processInfo.environment)

    /// The decimals a temperature converted to °F shows: one at most, as a degree Fahrenheit is
    /// about half a Celsius one and the sensor's last digit in °C is already its resolution, and
    /// never more than the sensor's own (21.40 °C reads 70.5 °F, 21 °C reads 70 °F).
    static func fahrenheitDecimals(_ decimals: Int) -> Int { min(decimals, 1) }

    /// The quantities a row shows first, in the catalogue's order.
    static let main = QuantityCatalog.mainKeys

    /// The two or three main readings on one line: "21.4 °C · 48 % · Battery 81 %"; nil for none.
    public static func summary(_ data: SensorData?, limit: Int = 3) -> String? {
        guard let data else { return nil }
        if data.readings.isEmpty {
            if data.wrongKey { return L10n.tr("The key does not open its readings") }
            return data.encrypted ? L10n.tr("Encrypted readings") : nil
        }
        var picked: [SensorReading] = []
        for key in main {
            guard picked.count < limit else { break }
            if let reading = data.readings.first(where: { $0.quantity.key == key }) { picked.append(reading) }
        }
        guard !picked.isEmpty else { return nil }
        return picked.map { text($0, named: $0.quantity.info?.namedInSummary ?? false) }.joined(separator: " · ")
    }

    /// One reading with its unit: "21,4 °C", "48 %", "Door open"; `named` puts the quantity's name first.
    public static func text(_ r: SensorReading, named: Bool = false) -> String {
        switch r.quantity.kind {
        case .binary: return state(r)
        case .event: return event(r) ?? L10n.format("{}: {}", name(r.quantity), Formats.number(Int(r.value)))
        case .measurement: break
        }
        let figure = value(r)
        if named { return L10n.format("{} {}", name(r.quantity), figure) }
        return figure
    }

    /// The figure and its unit alone: "21,4 °C", "69,8 °F".
    public static func value(_ r: SensorReading) -> String { value(r, fahrenheit: fahrenheit) }

    /// The same, in °F or not whatever the locale says.
    public static func value(_ r: SensorReading, fahrenheit: Bool) -> String {
        if r.quantity.unit == "°C", fahrenheit {
            return Formats.decimal(r.value * 9 / 5 + 32, digits: fahrenheitDecimals(r.decimals)) + " °F"
        }
        let figure = Formats.decimal(r.value, digits: r.decimals)
        return r.quantity.unit.isEmpty ? figure : figure + " " + r.quantity.unit
    }

    /// A limit as the user typed it, in the unit shown ("75", "−15,5"): the fewest decimals, up
    /// to two, that give back what was stored, so 75 °F kept as 23.888… °C reads 75 again.
    public static func limitFigure(_ value: Double, of quantity: Quantity) -> String {
        let shown = quantity.unit == "°C" && fahrenheit ? value * 9 / 5 + 32 : value
        let digits = (0...2).first { digits in
            let scale = pow(10, Double(digits))
            return abs((shown * scale).rounded() / scale - shown) < 1e-6
        } ?? 2
        return Formats.decimal(shown, digits: digits)
    }

    /// The same with its unit: "75 °F", "−15.5 °C".
    public static func limit(_ value: Double, of quantity: Quantity) -> String {
        let unit = unit(quantity)
        return unit.isEmpty ? limitFigure(value, of: quantity) : limitFigure(value, of: quantity) + " " + unit
    }

    /// A figure typed in the unit shown ("21,5" in German, "−4", °F where the locale uses it) as
    /// the quantity's own unit; nil when it is no number.
    public static func parse(_ text: String, for quantity: Quantity) -> Double? {
        let plain = text.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "−", with: "-")
            .replacingOccurrences(of: ",", with: ".")
        guard !plain.isEmpty, let value = Double(plain), value.isFinite else { return nil }
        return quantity.unit == "°C" && fahrenheit ? (value - 32) * 5 / 9 : value
    }

    /// The unit a figure is typed and shown in: °F for temperatures where the locale uses it.
    public static func unit(_ quantity: Quantity) -> String {
        quantity.unit == "°C" && fahrenheit ? "°F" : quantity.unit
    }

    /// What a button or a dimmer did, by bthome.io's event codes ("Button pressed twice"); nil
    /// for a code the format does not define.
    static func event(_ r: SensorReading) -> String? {
        r.quantity.info?.event(r.value).map { event, steps in event.words(steps) }
    }

    /// A state in a word, under a caption that names it: "Open", "Closed", "Motion".
    public static func stateWord(_ r: SensorReading) -> String {
        switch r.quantity.key {
        case "opening", "door", "window", "garage_door":
            return r.value != 0 ? L10n.ctx("state of a door or lid", "Open") : L10n.ctx("state of a door or lid", "Closed")
        default: return state(r)
        }
    }

    /// "Door open", "No motion": a binary state in words.
    static func state(_ r: SensorReading) -> String {
        let on = r.value != 0
        switch r.quantity.key {
        case "opening": return on ? L10n.ctx("state of a door or lid", "Open") : L10n.ctx("state of a door or lid", "Closed")
        case "door", "window", "garage_door":
            return on ? L10n.format("{} open", name(r.quantity)) : L10n.format("{} closed", name(r.quantity))
        case "motion": return on ? L10n.tr("Motion") : L10n.tr("No motion")
        case "light": return on ? L10n.ctx("light level", "Bright") : L10n.ctx("light level", "Dark")
        case "brushing": return on ? L10n.tr("Brushing") : L10n.tr("Not brushing")
        case "power_on": return on ? L10n.ctx("a switch's state", "Switched on") : L10n.ctx("a switch's state", "Switched off")
        case "moving": return on ? L10n.tr("Moving") : L10n.tr("Not moving")
        case "calibrated":
            return on ? L10n.ctx("a motor that knows its end positions", "Calibrated")
                : L10n.ctx("a motor that knows its end positions", "Not calibrated")
        default: return on ? L10n.format("{}: on", name(r.quantity)) : L10n.format("{}: off", name(r.quantity))
        }
    }

    /// A quantity's name in words ("Battery", "Carbon dioxide"), from the catalogue; its key
    /// where the catalogue does not hold it (a reading stored by another version).
    public static func name(_ q: Quantity) -> String {
        q.info?.name() ?? q.key.replacingOccurrences(of: "_", with: " ")
    }
}
