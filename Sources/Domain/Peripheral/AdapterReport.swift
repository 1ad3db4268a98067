// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation
import Localization

/// The adapter's facts as the Adapter page and `favblue-scan adapter` say them.
public enum AdapterReport {
    /// One fact: what it is, its value, and what FavBlue does with it.
    public struct Row: Equatable, Sendable {
        public let title: String
        public let value: String
        /// What FavBlue uses it for; nil when nothing.
        public let use: String?
    }

    /// "Yes", "No", or "Not reported" for a fact the route does not tell.
    static func yes(_ value: Bool?) -> String {
        switch value {
        case true?: return L10n.ctx("adapter feature", "Yes")
        case false?: return L10n.ctx("adapter feature", "No")
        case nil: return L10n.tr("Not reported")
        }
    }

    /// The facts in order, each in words.
    public static func rows(_ f: AdapterFacts) -> [Row] {
        let unknown = L10n.tr("Not reported")
        let f2 = f.features
        var rows = [
            Row(title: L10n.tr("Manufacturer"), value: f.manufacturer ?? unknown, use: nil),
            Row(title: L10n.tr("Bluetooth version"), value: f.bluetoothVersion ?? unknown, use: nil),
            Row(title: L10n.tr("Address"), value: [f.address, f.addressType.map(addressType)].compactMap { $0 }.joined(separator: " · ").nonEmpty ?? unknown,
                use: nil),
            Row(title: L10n.tr("Extended advertising"), value: yes(f2[.extendedAdvertising]),
                use: L10n.tr("Longer advertisements, other PHYs and several at once.")),
            Row(title: L10n.tr("LE 2M PHY"), value: yes(f2[.phy2M]), use: L10n.tr("Advertising data sent twice as fast.")),
            Row(title: L10n.tr("LE Coded PHY"), value: yes(f2[.coded]), use: L10n.tr("Advertising that reaches further.")),
            Row(title: L10n.tr("Privacy"), value: yes(f2[.privacy]), use: L10n.tr("Paired devices found at the addresses they change to.")),
            Row(title: L10n.tr("Data length extension"), value: yes(f2[.dataLength]), use: nil),
            Row(title: L10n.tr("Advertising sets"), value: f.advertisingSets.map(Formats.number) ?? unknown,
                use: L10n.tr("How many advertisements can run at once.")),
            Row(title: L10n.tr("Largest advertisement"), value: f.maximumAdvertisingLength.map {
                L10n.plural("{} byte", "{} bytes", $0, Formats.number($0)) } ?? unknown, use: L10n.tr("What one advertisement may carry.")),
            Row(title: L10n.tr("Resolving list"), value: f.resolvingListSize.map {
                L10n.plural("{} entry", "{} entries", $0, Formats.number($0)) } ?? unknown, use: nil),
        ]
        rows.append(Row(title: L10n.tr("Roles"), value: f.roles.map(role).joined(separator: ", "),
                        use: f.canBePeripheral ? L10n.tr("FavBlue can advertise and serve through it.")
                            : L10n.tr("It cannot be a peripheral: FavBlue cannot advertise through it.")))
        return rows
    }

    static func addressType(_ type: String) -> String {
        switch type {
        case "public": return L10n.ctx("address type", "public")
        case "random": return L10n.ctx("address type", "random")
        default: return type
        }
    }

    static func role(_ role: String) -> String {
        switch role {
        case "central": return L10n.ctx("Bluetooth role", "central")
        case "peripheral": return L10n.ctx("Bluetooth role", "peripheral")
        default: return role
        }
    }

    /// Title, value and use a line each, for a terminal.
    public static func text(_ f: AdapterFacts) -> String {
        rows(f).map { "\($0.title): \(DeviceText.terminal($0.value))" }.joined(separator: "\n") + "\n"
    }

    /// One JSON document with stable keys.
    public static func json(_ f: AdapterFacts) -> String {
        var m: [JSONMember] = []
        func add(_ key: String, _ value: JSONValue?) { if let value { m.append(JSONMember(key, JSONNode(value))) } }
        add("route", .string(f.route))
        add("name", f.name.map { .string($0) })
        add("manufacturer", f.manufacturer.map { .string($0) })
        add("bluetoothVersion", f.bluetoothVersion.map { .string($0) })
        add("address", f.address.map { .string($0) })
        add("addressType", f.addressType.map { .string($0) })
        m.append(JSONMember("features", JSONNode(.object(AdapterFacts.Feature.allCases.compactMap { feature in
            f.features[feature].map { JSONMember(feature.rawValue, JSONNode(.bool($0))) }
        }))))
        add("advertisingSets", f.advertisingSets.map { .number(Double($0)) })
        add("maximumAdvertisingLength", f.maximumAdvertisingLength.map { .number(Double($0)) })
        add("resolvingListSize", f.resolvingListSize.map { .number(Double($0)) })
        add("roles", .array(f.roles.map { JSONNode(.string($0)) }))
        return JSONDocument.write(JSONNode(.object(m)))
    }
}

extension String {
    var nonEmpty: String? { isEmpty ? nil : self }
}

extension Advertisement {
    /// A connectable advertisement that says `setup`'s name and its first services, as much as fits.
    public static func announcing(_ setup: ServerSetup) -> Advertisement {
        var data = AdvertisingFields(flags: 0x06, localName: setup.name, appearance: setup.appearance)
        for service in setup.services where service.primary {
            var more = data
            more.serviceUUIDs.append(service.uuid)
            if more.overflow(limit: AdvertisingLimits.legacyLength) == nil { data = more }
        }
        // A name that does not fit is shortened, as the Core Supplement allows (Part A, §1.2).
        while data.overflow(limit: AdvertisingLimits.legacyLength) != nil, let name = data.localName, !name.isEmpty {
            data.localName = String(name.dropLast())
            data.shortenedName = true
        }
        return Advertisement(id: "announce-" + setup.id, label: setup.name, data: data)
    }
}
