// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Localization

/// Readings: what a sensor says, as its page shows it.
extension DeviceDetailViewModel {
    /// A sensor's readings as the page shows them.
    public struct Readings: Equatable, Sendable {
        /// "Xiaomi LYWSD03MMC (pvvx)"; nil where the format does not say.
        public var model: String?
        /// Each reading: its name (the key, numbered when repeated), what it is, and its figure.
        public var items: [Item]
        /// Why there are no figures: encrypted without a key, or a key its check refused.
        public var note: String?

        public struct Item: Equatable, Sendable {
            public let key: String
            public let caption: String
            public let value: String
        }
    }

    static func readings(_ data: SensorData?, name: String) -> Readings? {
        guard let data, !(data.readings.isEmpty && !data.encrypted) else { return nil }
        let items = data.named.map { name, reading -> Readings.Item in
            let number = name.split(separator: "_").last.flatMap { Int($0) }
            // Translators: a quantity and the number of its probe, "Temperature 2".
            let caption = number.map { L10n.format("{} {}", ReadingText.name(reading.quantity), Formats.number($0)) }
                ?? ReadingText.name(reading.quantity)
            let value = reading.quantity.kind == .measurement ? ReadingText.value(reading) : ReadingText.text(reading)
            return Readings.Item(key: name, caption: caption, value: value)
        }
        var note: String?
        if data.wrongKey {
            note = L10n.format("This key does not open the readings of {}. Check the key, or remove it.", DeviceText.isolated(name))
        } else if data.encrypted {
            note = L10n.tr("Its readings are encrypted. Give its key with Key… to read them.")
        }
        return Readings(model: data.model.map { "\($0.maker) \($0.model)" }, items: items, note: note)
    }

    // MARK: Encrypted sensors' keys

    /// Whether the page offers Key…: an encrypted sensor, or one whose key is kept.
    public var canGiveSensorKey: Bool {
        guard let sensorKeys else { return false }
        return live[id]?.advertised.sensor?.encrypted == true || sensorKeys.hasKey(id)
    }

    /// Whether a key of this sensor is kept.
    public var hasSensorKey: Bool { sensorKeys?.hasKey(id) ?? false }

    /// Keeps `text` as this sensor's key; nil once kept, else why not, in words.
    public func useSensorKey(_ text: String) async -> String? {
        guard let sensorKeys else { return L10n.tr("This source cannot use keys.") }
        switch await sensorKeys.use(text, for: id, name: title) {
        case .kept: return nil
        case .refused(let why): return why
        }
    }

    /// Forgets this sensor's key; nil once done, else why not.
    public func removeSensorKey() async -> String? {
        await sensorKeys?.remove(for: id)
    }
}
