// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// Tells tracker families apart by their advertisements: one entry per family. A frame that is
/// too short, or of a length its family never sends, is no tracker here: nothing is guessed.
public enum TrackerTable {
    /// The family's frame in `manufacturerData` and `serviceData`, read; nil when there is none.
    public static func read(manufacturerData: [ManufacturerData], serviceData: [ServiceID: [UInt8]]) -> TrackerReading? {
        if let apple = manufacturerData.last(where: { $0.companyID == 0x004C }), let reading = appleFindMy(apple.data) {
            return reading
        }
        guard !serviceData.isEmpty else { return nil }
        // One pass over the service data: most reports carry none, or one block.
        var found: (rank: Int, read: ([UInt8]) -> TrackerReading?, bytes: [UInt8])?
        for (service, bytes) in serviceData {
            guard let entry = entry(for: service.uuid) else { continue }
            if found.map({ entry.rank < $0.rank }) ?? true { found = (entry.rank, entry.read, bytes) }
        }
        return found.flatMap { $0.read($0.bytes) }
    }

    /// What `data` says, or nil when it holds no tracker.
    public static func read(_ data: AdvertisedData) -> TrackerReading? {
        read(manufacturerData: data.manufacturerData, serviceData: data.serviceData, services: data.services)
    }

    /// As above, with the service UUIDs listed: a Tile that lists 0xFEED and sends no service
    /// data is still a Tile (AirGuard's Tile filter matches the UUID alone).
    public static func read(manufacturerData: [ManufacturerData], serviceData: [ServiceID: [UInt8]],
                            services: [ServiceID]) -> TrackerReading? {
        if let reading = read(manufacturerData: manufacturerData, serviceData: serviceData) { return reading }
        return services.contains { $0.uuid == "FEED" } ? TrackerReading(family: .tile, kind: .tile, state: .unknown) : nil
    }

    /// The family a 16-bit service UUID belongs to, and its rank when a report carries several.
    private static func entry(for uuid: String) -> (rank: Int, read: ([UInt8]) -> TrackerReading?)? {
        switch uuid {
        case "FD5A": return (0, smartTag)
        case "FEAA": return (1, googleFindMyDevice)
        case "FCB2": return (2, dult)
        case "FE33": return (3, chipolo)
        case "FEED": return (4, tile)
        case "FA25": return (5, pebblebee)
        default: return nil
        }
    }

    /// Apple's Find My network: company 0x004C, payload type 0x12. A full key (length 0x19)
    /// means separated from the owner; the short form (0x02) means near. The status byte's
    /// bits 4–3 give the kind and bits 7–6 the battery (AirGuard's AirTag, AirPods, FindMy and
    /// AppleDevice filters; Heinrich et al., "Who Can Find My Devices?", PoPETs 2021).
    static func appleFindMy(_ data: [UInt8]) -> TrackerReading? {
        // Apple's blocks are type-length-value runs; Find My is one of them.
        var i = 0
        while i + 1 < data.count {
            let type = data[i], length = Int(data[i + 1])
            let start = i + 2
            guard start + length <= data.count else { return nil }
            if type == 0x12 {
                guard length == 0x19 || length == 0x02 else { return nil }
                let status = data[start]
                let kind: TrackerKind
                switch status & 0x18 {
                case 0x10: kind = .airTag
                case 0x08: kind = .findMyAccessory
                case 0x18: kind = .airPods
                default: kind = .appleDevice
                }
                return TrackerReading(family: .appleFindMy, kind: kind, state: length == 0x19 ? .separated : .nearOwner,
                                      batteryLevel: Int(status >> 6),
                                      stableID: length == 0x19 ? data[(start + 1)..<(start + 23)] : nil)
            }
            i = start + length
        }
        return nil
    }

    /// Samsung's SmartTag: service data 0xFD5A, at least 13 bytes. The first byte's low three
    /// bits are its state (011 overmature offline and 010 offline: separated; 001 premature
    /// offline: recently separated; else connected to its owner), bytes 1–3 the aging counter
    /// (little-endian), byte 12's low bits the battery (AirGuard's SamsungTracker; Yu et al.,
    /// "Privacy Analysis of Samsung's Crowd-Sourced Bluetooth Location Tracking System", 2022).
    static func smartTag(_ data: [UInt8]) -> TrackerReading? {
        guard data.count >= 13 else { return nil }
        let state: TrackerState
        switch data[0] & 0x07 {
        case 0b011, 0b010: state = .separated
        case 0b001: state = .recentlySeparated
        default: state = .nearOwner
        }
        let aging = UInt32(data[1]) | UInt32(data[2]) << 8 | UInt32(data[3]) << 16
        return TrackerReading(family: .samsungSmartTag, kind: .smartTag, state: state,
                              batteryLevel: 3 - Int(data[12] & 0x03), agingCounter: aging)
    }

    /// Google's Find My Device network: service data 0xFEAA (shared with Eddystone), frame type
    /// 0x40, or 0x41 in unwanted-tracking-protection mode (separated from its owner), then a
    /// 20- or 32-byte ephemeral identifier and a flags byte (Google's Find My Device Network
    /// accessory specification, "Advertised frames"; AirGuard's GoogleFindMyNetwork).
    static func googleFindMyDevice(_ data: [UInt8]) -> TrackerReading? {
        guard let frame = data.first, frame == 0x40 || frame == 0x41 else { return nil }
        guard data.count == 22 || data.count == 34 else { return nil }
        return TrackerReading(family: .googleFindMyDevice, kind: .findMyDeviceTag, state: frame == 0x41 ? .separated : .nearOwner,
                              stableID: frame == 0x41 ? data[1..<(data.count - 1)] : nil)
    }

    /// Detecting Unwanted Location Trackers: service data 0xFCB2, a network ID, then a byte whose
    /// top bit is the near-owner bit (IETF draft-ietf-dult-accessory-protocol, "Location-enabled
    /// advertising payload").
    static func dult(_ data: [UInt8]) -> TrackerReading? {
        guard data.count >= 2 else { return nil }
        return TrackerReading(family: .dult, kind: .dultTag, state: data[1] & 0x80 != 0 ? .nearOwner : .separated)
    }

    /// Chipolo: service data 0xFE33; the second byte's low bit is set once the owner's phone has
    /// not been near for 30 minutes (AirGuard's Chipolo).
    static func chipolo(_ data: [UInt8]) -> TrackerReading? {
        guard data.count >= 2 else { return nil }
        return TrackerReading(family: .chipolo, kind: .chipolo, state: data[1] & 0x01 != 0 ? .separated : .nearOwner)
    }

    /// Tile: service data 0xFEED. It does not say whether its owner is near (AirGuard's Tile).
    static func tile(_ data: [UInt8]) -> TrackerReading? {
        data.isEmpty ? nil : TrackerReading(family: .tile, kind: .tile, state: .unknown)
    }

    /// Pebblebee: service data 0xFA25, with no owner state (AirGuard's PebbleBee).
    static func pebblebee(_ data: [UInt8]) -> TrackerReading? {
        data.isEmpty ? nil : TrackerReading(family: .pebblebee, kind: .pebblebee, state: .unknown)
    }
}
