// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import Localization

/// What the device advertises, in words: the page's properties and its keywords.
extension DeviceDetailViewModel {
    /// The properties; `format` is the sensor format that read the advertisement ("Govee"), which
    /// names data sent under a company number no one was given.
    static func properties(id: DeviceID, advertised o: AdvertisedData?, format: String? = nil) -> Properties {
        var p = Properties()
        p.address = id.address
        p.addressKind = id.addressType.words
        p.addressTerm = id.addressType.label
        p.addressNote = id.addressType.explanation
        // The page shows it once as its title; here only where the title is a nickname.
        if let name = o?.name { p.advertisedName = DeviceText.shown(name) }
        guard let o else { return p }
        if !o.manufacturerData.isEmpty {
            p.manufacturer = o.manufacturerData.map { block in
                // Translators: data a known sensor format sends under a company number of its own, "Govee data".
                !block.isUnknownMaker || format == nil ? block.companyName : L10n.format("{} data", format!)
            }.joined(separator: ", ")
        }
        if !o.services.isEmpty { p.services = o.services.map(ServiceText.name).joined(separator: ", ") }
        p.txPower = o.txPower.map { SignalText.dBm($0) }
        return p
    }

    /// What no other section of the page says: transport, connectable, the data it sends,
    /// tracker, appearance or class, paired and connected (where the source knows), flags.
    /// The address type, the makers, the services and the TX power are properties, said there.
    static func keywords(id: DeviceID, advertised o: AdvertisedData?, format: String? = nil) -> [String] {
        var tags = [id.kind == .bredr ? L10n.tr("BR/EDR") : L10n.tr("Bluetooth LE")]
        guard let o else { return tags }
        if let connectable = o.connectable { tags.append(connectable ? L10n.tr("Connectable") : L10n.tr("Not connectable")) }
        for service in o.serviceData.keys.sorted(by: { $0.uuid < $1.uuid }) {
            // A known format by its name ("BTHome data"), else the service the data is for.
            let named = ServiceText.name(service) != service.uuid
            tags.append(!named && format != nil ? L10n.format("{} data", format!) : L10n.format("Data for {}", ServiceText.name(service)))
        }
        if let tracker = TrackerTable.read(o) { tags.append(tracker.words) }
        if let appearance = o.appearance {
            tags.append(Appearance.name(appearance)
                        ?? L10n.format("Appearance 0x{}", String(appearance, radix: 16, uppercase: true)))
        }
        if let cod = o.classOfDevice { tags.append(L10n.format("Class: {}", DeviceClass.name(cod))) }
        if let bytes = o.invalidNameBytes, let hex = DeviceText.invalidBytes(bytes) {
            tags.append(L10n.format("Name bytes, not valid UTF-8: {}", hex))
        }
        if o.malformed { tags.append(L10n.tr("Malformed advertising data")) }
        if o.paired == true { tags.append(L10n.tr("Paired")) }
        if o.connected == true { tags.append(L10n.tr("Connected to this computer")) }
        if let flags = o.flags {
            if flags & 0x02 != 0 { tags.append(L10n.tr("Visible to everyone")) }
            if flags & 0x01 != 0 { tags.append(L10n.tr("Visible for a short while")) }
            if flags & 0x04 != 0 { tags.append(L10n.tr("No classic Bluetooth")) }
        }
        var seen = Set<String>()
        let unique = tags.filter { seen.insert($0).inserted }
        // "Audio Sink" says nothing that "Audio sink: Standalone speaker" does not.
        let specific = unique.map { $0.lowercased() }
        return unique.filter { tag in
            let prefix = tag.lowercased() + ":"
            return !specific.contains { $0.hasPrefix(prefix) }
        }
    }
}
