// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation

/// One device as `favblue-scan --format json` prints it and as the app exports it: the one
/// place that names the keys, so the command, the CSV header and the JSON file agree.
public struct DeviceRecord: Equatable, Sendable {
    /// The keys in output order. `nickname` and `favorite` are the app's own and come last.
    public enum Key: String, CodingKey, CaseIterable, Sendable {
        case address, addressType, transport, name, rssi, rssiMax, txPower, company, companyId, services, reports,
             firstSeen, lastSeen, manufacturerData, serviceData, readings, sensor, beacon, addresses, sources, nickname,
             favorite
    }

    /// One source that heard the device: its name, newest signal and when.
    public struct Source: Equatable, Sendable, Encodable {
        public let name: String
        public let rssi: Int?
        public let lastSeen: Date

        public init(name: String, rssi: Int?, lastSeen: Date) {
            self.name = name
            self.rssi = rssi
            self.lastSeen = lastSeen
        }

        enum CodingKeys: String, CodingKey { case name, rssi, lastSeen }

        public func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(name, forKey: .name)
            try c.encode(rssi, forKey: .rssi)
            try c.encode(ExportTime.string(lastSeen), forKey: .lastSeen)
        }
    }

    /// "AA:BB:CC:DD:EE:FF".
    public var address: String
    /// "public" or "random".
    public var addressType: String
    /// "le" or "bredr".
    public var transport: String
    /// The advertised (or remote) name.
    public var name: String?
    /// The newest reading, dBm.
    public var rssi: Int?
    /// The strongest reading, dBm.
    public var rssiMax: Int?
    /// Advertised transmit power, dBm.
    public var txPower: Int?
    /// The company most recently heard, by name.
    public var company: String?
    /// Its Bluetooth SIG company identifier.
    public var companyId: Int?
    /// Every service UUID listed, in the order first heard.
    public var services: [String]
    /// How many reports were heard.
    public var reports: Int
    public var firstSeen: Date
    public var lastSeen: Date
    /// Company identifier ("0x004C") → the bytes after it, as lowercase hex.
    public var manufacturerData: [String: String]
    /// Service UUID ("FEAA") → its data, as lowercase hex.
    public var serviceData: [String: String]
    /// What it says as a sensor or beacon (`readings`, `sensor` and `beacon` come from it); nil for none.
    public var sensorData: SensorData?
    /// Every address it was heard at, oldest first, when it changed its private address and was
    /// kept as one device; empty for most.
    public var addresses: [String]
    /// Each source that heard it, where several were in use; nil with one alone, which leaves
    /// the key out.
    public var sources: [Source]?
    /// The user's nickname; only the app knows it.
    public var nickname: String?
    /// Whether it is a favorite; nil where favorites are unknown (`favblue-scan`), which leaves
    /// `nickname` and `favorite` out of the output.
    public var favorite: Bool?

    /// A record of what `id` advertised, with its readings and report counts.
    public init(id: DeviceID, advertised: AdvertisedData, rssi: Int?, rssiMax: Int?, reports: Int,
                firstSeen: Date, lastSeen: Date, addresses: [DeviceID] = [], sources: [Source]? = nil, nickname: String? = nil,
                favorite: Bool? = nil, sensor: SensorData?? = nil) {
        address = id.address
        addressType = id.kind == .leRandom ? "random" : "public"
        transport = id.kind == .bredr ? "bredr" : "le"
        name = advertised.name
        self.rssi = rssi
        self.rssiMax = rssiMax
        txPower = advertised.txPower
        company = advertised.company?.companyName
        companyId = advertised.company.map { Int($0.companyID) }
        services = advertised.services.map(\.uuid)
        self.reports = reports
        self.firstSeen = firstSeen
        self.lastSeen = lastSeen
        manufacturerData = Dictionary(advertised.manufacturerData.map { (Self.companyKey($0.companyID), Self.hex($0.data)) },
                                      uniquingKeysWith: { _, newer in newer })
        serviceData = Dictionary(advertised.serviceData.map { ($0.key.uuid, Self.hex($0.value)) }, uniquingKeysWith: { _, newer in newer })
        sensorData = sensor ?? advertised.sensor
        self.addresses = addresses.map(\.address)
        self.sources = sources
        self.nickname = nickname
        self.favorite = favorite
    }

    /// The keys this record writes: without `nickname` and `favorite` when favorites are unknown.
    public var keys: [Key] { keys(csv: false) }

    /// The keys of a CSV row: the readings as one column; the sensor's model and a beacon's
    /// identity are JSON's alone.
    public var csvKeys: [Key] { keys(csv: true) }

    private func keys(csv: Bool) -> [Key] {
        Key.allCases.filter { key in
            switch key {
            case .nickname, .favorite: return favorite != nil
            case .sources: return sources != nil
            case .sensor, .beacon: return !csv
            default: return true
            }
        }
    }

    /// "0x004C": four hex digits, as the Bluetooth SIG lists company identifiers.
    public static func companyKey(_ id: UInt16) -> String {
        let digits = String(id, radix: 16, uppercase: true)
        return "0x" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// Bytes as lowercase hex, two digits each, nothing between them.
    public static func hex(_ bytes: [UInt8]) -> String { Hex.lower(bytes) }
}
