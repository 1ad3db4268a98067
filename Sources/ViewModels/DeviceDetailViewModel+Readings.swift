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
        guard let data, !(data.readings.isEmpty && !data.encrypted && !data.plaintextIgnored) else { return nil }
        // A packet number tells repeated frames apart; it says nothing to the user.
        var items: [Readings.Item] = []
        var named = Set<Int>()
        for (key, reading) in data.keyed where reading.quantity != .packetID {
            // A slot's name comes first among its readings ("Name of Port 2", then its volumes).
            if let slot = reading.slot, named.insert(slot).inserted, let text = data.slotNames[slot] {
                let what = reading.quantity.info?.slotName?(slot) ?? Formats.number(slot)
                // Translators: the name a user gave a numbered part of a device in its own app, "Name of Port 2".
                items.append(Readings.Item(key: "slot_name_\(slot)", caption: L10n.format("Name of {}", what), value: DeviceText.shown(text)))
            }
            let caption = caption(key.description, reading.quantity)
            // Under its caption a state is one word: "Door" over "Open", not "Door open".
            let value = switch reading.quantity.kind {
            case .measurement: ReadingText.value(reading)
            case .binary: ReadingText.stateWord(reading)
            case .event: ReadingText.text(reading)
            }
            items.append(Readings.Item(key: key.description, caption: caption, value: value))
        }
        // A device with one slot names it without numbering its readings (a KT-100's port).
        let unnumbered = data.slotNames.sorted { $0.key < $1.key }.filter { !named.contains($0.key) }.map { slot, text in
            // Translators: the name a user gave a keg monitor's one port in its own app ("IPA").
            Readings.Item(key: "slot_name_\(slot)", caption: L10n.tr("Port name"), value: DeviceText.shown(text))
        }
        items.insert(contentsOf: unnumbered, at: 0)
        var note: String?
        if data.wrongKey {
            note = L10n.format("This key does not open the readings of {}. Check the key, or remove it.", DeviceText.isolated(name))
        } else if data.encrypted {
            note = L10n.tr("Its readings are encrypted. Give its key with Key… to read them.")
        } else if data.plaintextIgnored {
            note = L10n.tr("A frame without encryption was ignored: with its key given, only frames the key opens are believed.")
        }
        return Readings(model: data.model.map(Self.modelText), items: items, note: note)
    }

    // MARK: Encrypted sensors' keys

    /// Whether the page offers Key…: an encrypted sensor, or one whose key is kept.
    public var canGiveSensorKey: Bool {
        guard let sensorKeys else { return false }
        return live[id]?.advertised.hasEncryptedSensor == true || sensorKeys.hasKey(id)
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

    /// "Govee H5075"; a format's version is no model ("BTHome v2" reads "BTHome sensor").
    static func modelText(_ model: SensorModel) -> String {
        let version = model.model.first == "v" && Int(model.model.dropFirst()) != nil
        // Translators: a sensor known by its data format alone, "BTHome sensor".
        return version ? L10n.format("{} sensor", model.maker) : "\(model.maker) \(model.model)"
    }

    // MARK: Limits (favorites only)

    /// A reading whose limits can be set: its name, what it is called, and its unit as typed.
    public struct LimitChoice: Equatable, Sendable {
        public let key: String
        public let name: String
        public let unit: String
    }

    /// The measured readings of a favorite sensor, which Notify When Above or Below… offers.
    public var limitChoices: [LimitChoice] {
        guard isFavorite, let data = sensor else { return [] }
        return data.named.compactMap { key, reading in
            reading.quantity.kind == .measurement && reading.quantity != .packetID
                ? LimitChoice(key: key, name: Self.caption(key, reading.quantity), unit: ReadingText.unit(reading.quantity)) : nil
        }.sorted { Self.order($0.key) < Self.order($1.key) }
    }

    /// A state a favorite sensor sends (a door, motion), which can notify when it turns on.
    public struct StateChoice: Equatable, Sendable {
        public let key: String
        /// "Notify When It Opens".
        public let title: String
        public let isOn: Bool
    }

    /// The states of a favorite sensor, each with whether it notifies when it turns on.
    public var stateChoices: [StateChoice] {
        guard isFavorite, let data = sensor else { return [] }
        let limits = favorites.favorite(id)?.readingLimits ?? []
        return data.named.compactMap { key, reading in
            guard reading.quantity.kind != .measurement else { return nil }
            return StateChoice(key: key, title: Self.notifyWords(key, reading.quantity).title,
                               isOn: limits.contains { $0.key == key && $0.above != nil })
        }.sorted { Self.order($0.key) < Self.order($1.key) }
    }

    /// A state's switch ("Notify When It Opens") and what the page says once it is on
    /// ("Notifies when it opens").
    static func notifyWords(_ key: String, _ quantity: Quantity) -> (title: String, said: String) {
        switch quantity.key {
        case "opening", "door", "window", "garage_door": return (L10n.tr("Notify When It Opens"), L10n.tr("Notifies when it opens"))
        case "motion", "moving": return (L10n.tr("Notify When Motion Is Seen"), L10n.tr("Notifies when motion is seen"))
        case "smoke", "carbon_monoxide", "gas_detected":
            let name = caption(key, quantity)
            return (L10n.format("Notify When {} Is Detected", name), L10n.format("Notifies when {} is detected", name))
        case "wet": return (L10n.tr("Notify When It Gets Wet"), L10n.tr("Notifies when it gets wet"))
        case "motion_seen": return (L10n.tr("Notify When Motion Is Seen"), L10n.tr("Notifies when motion is seen"))
        case "button":
            let name = caption(key, quantity)
            return (L10n.format("Notify When “{}” Is Pressed", name), L10n.format("Notifies when “{}” is pressed", name))
        case _ where quantity.kind == .event:
            let name = caption(key, quantity)
            return (L10n.format("Notify of Each “{}”", name), L10n.format("Notifies of each “{}”", name))
        default:
            let name = caption(key, quantity)
            return (L10n.format("Notify When “{}” Turns On", name), L10n.format("Notifies when “{}” turns on", name))
        }
    }

    /// Notifies, or stops notifying, when the state `key` turns on; nil once kept, else why not.
    public func setNotifies(_ key: String, _ on: Bool) async -> String? {
        await favorites.setReadingLimit(id, on ? ReadingLimit(key: key, above: 0.5) : ReadingLimit(key: key))
            ? nil : L10n.tr("The notification could not be saved.")
    }

    /// The limits set on `key`, as typed figures in the unit shown ("25", "−15,5"); empty for none.
    public func limitTexts(_ key: String) -> (above: String, below: String) {
        let limit = favorites.favorite(id)?.readingLimits.first { $0.key == key }
        let quantity = quantity(of: key)
        return (limit?.above.map { ReadingText.limitFigure($0, of: quantity) } ?? "",
                limit?.below.map { ReadingText.limitFigure($0, of: quantity) } ?? "")
    }

    /// The quantity a reading's name stands for: as the sensor sends it, else by its name.
    private func quantity(of key: String) -> Quantity {
        sensor?.named.first { $0.0 == key }?.1.quantity ?? Quantity.named(key)
    }

    /// What is wrong with a limit typed for `key`, said as the user types; nil when it reads.
    public func limitProblem(_ key: String, _ text: String) -> String? {
        guard !text.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
        return ReadingText.parse(text, for: quantity(of: key)) == nil ? L10n.format("“{}” is not a number.", DeviceText.shown(text)) : nil
    }

    /// Whether both limits read and the lower is not below the upper.
    public func limitsCross(_ key: String, above: String, below: String) -> Bool {
        let quantity = quantity(of: key)
        guard let high = ReadingText.parse(above, for: quantity), let low = ReadingText.parse(below, for: quantity) else { return false }
        return low >= high
    }

    /// Sets the limits of `key` from what was typed (empty: none); nil once kept, else why not.
    public func setLimits(_ key: String, above: String, below: String) async -> String? {
        let quantity = quantity(of: key)
        var limit = ReadingLimit(key: key)
        for (text, isAbove) in [(above, true), (below, false)] where !text.trimmingCharacters(in: .whitespaces).isEmpty {
            guard let value = ReadingText.parse(text, for: quantity) else {
                return L10n.format("“{}” is not a number.", DeviceText.shown(text))
            }
            if isAbove { limit.above = value } else { limit.below = value }
        }
        if let high = limit.above, let low = limit.below, low >= high {
            return L10n.tr("The lower limit must be below the upper one.")
        }
        return await favorites.setReadingLimit(id, limit) ? nil : L10n.tr("The limits could not be saved.")
    }

    /// "Notifies when Temperature is above 25 °C": one line per reading with limits.
    public var limitsText: String? {
        guard let favorite = favorites.favorite(id), !favorite.readingLimits.isEmpty else { return nil }
        let current = sensor
        let lines = favorite.readingLimits.map { limit -> String in
            let reading = current?.named.first { $0.0 == limit.key }?.1
            let quantity = reading?.quantity ?? Quantity.named(limit.key)
            // As typed, not at the sensor's precision: 75 °F stays "75 °F", not "75.002 °F".
            func said(_ value: Double) -> String { ReadingText.limit(value, of: quantity) }
            let name = Self.caption(limit.key, quantity)
            if quantity.kind == .binary { return Self.notifyWords(limit.key, quantity).said }
            switch (limit.above, limit.below) {
            case let (high?, low?): return L10n.format("Notifies when {} is above {} or below {}", name, said(high), said(low))
            case let (high?, nil): return L10n.format("Notifies when {} is above {}", name, said(high))
            case let (nil, low?): return L10n.format("Notifies when {} is below {}", name, said(low))
            default: return ""
            }
        }
        return lines.joined(separator: "\n")
    }
}
