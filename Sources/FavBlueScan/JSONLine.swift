// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Bluetooth
import Domain
import Foundation

/// One device as one JSON object on one line.
enum JSONLine {
    struct Device: Encodable {
        let address: String
        let addressType: String
        let transport: String
        let name: String?
        let rssi: Int?
        let rssiMax: Int?
        let txPower: Int?
        let company: String?
        let companyId: Int?
        let services: [String]
        let reports: Int
        let firstSeen: String
        let lastSeen: String

        func encode(to encoder: Encoder) throws {
            // Keys in the documented order, with explicit nulls.
            var c = encoder.container(keyedBy: Key.self)
            try c.encode(address, forKey: .address)
            try c.encode(addressType, forKey: .addressType)
            try c.encode(transport, forKey: .transport)
            try c.encode(name, forKey: .name)
            try c.encode(rssi, forKey: .rssi)
            try c.encode(rssiMax, forKey: .rssiMax)
            try c.encode(txPower, forKey: .txPower)
            try c.encode(company, forKey: .company)
            try c.encode(companyId, forKey: .companyId)
            try c.encode(services, forKey: .services)
            try c.encode(reports, forKey: .reports)
            try c.encode(firstSeen, forKey: .firstSeen)
            try c.encode(lastSeen, forKey: .lastSeen)
        }

        enum Key: String, CodingKey {
            case address, addressType, transport, name, rssi, rssiMax, txPower, company, companyId, services, reports, firstSeen, lastSeen
        }
    }

    static func encode(_ d: DeviceAggregate) -> String {
        let iso = ISO8601DateFormatter()
        iso.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let device = Device(address: d.id.address, addressType: d.id.kind == .leRandom ? "random" : "public",
                            transport: d.id.kind == .bredr ? "bredr" : "le", name: d.name, rssi: d.rssi, rssiMax: d.rssiMax,
                            txPower: d.txPower, company: d.manufacturer?.companyName,
                            companyId: d.manufacturer.map { Int($0.companyID) }, services: d.services.map(\.uuid),
                            reports: d.reports, firstSeen: iso.string(from: d.firstSeen), lastSeen: iso.string(from: d.lastSeen))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        return (try? String(decoding: encoder.encode(device), as: UTF8.self)) ?? "{}"
    }
}
