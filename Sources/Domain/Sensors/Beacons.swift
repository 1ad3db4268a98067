// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// Apple's iBeacon: company 0x004C, type 0x02 length 0x15, a UUID, major and minor
/// (big-endian) and the calibrated power at 1 m. Source: Apple, "Proximity Beacon
/// Specification" R1.
enum IBeacon: SensorFamily {
    static let rank = 10
    static let reads: [SensorSource] = [.company(0x004C)]

    static func decode(_ frame: SensorFrame, keys: SensorKeys?) -> SensorData? {
        guard let data = frame.company(0x004C), data.count == 23, data[0] == 0x02, data[1] == 0x15 else { return nil }
        let b = SensorBytes(data)
        guard let major = b.be(18, 2), let minor = b.be(20, 2), let power = b.sbe(22, 1) else { return nil }
        return SensorData(beacon: Beacon(kind: .iBeacon, fields: [
            ("uuid", .text(Beacons.uuid(Array(data[2..<18])))), ("major", .number(Int(major))), ("minor", .number(Int(minor))),
        ], power: Int(power)))
    }
}

/// AltBeacon: any company's manufacturer data beginning 0xBEAC, a 20-byte beacon ID, the
/// reference power at 1 m and a reserved byte. Source: the AltBeacon specification, altbeacon.org.
enum AltBeacon: SensorFamily {
    static let rank = 11
    static let reads: [SensorSource] = [.anyCompany]

    static func decode(_ frame: SensorFrame, keys: SensorKeys?) -> SensorData? {
        guard let block = frame.manufacturerData.last(where: { $0.data.count == 24 && $0.data[0] == 0xBE && $0.data[1] == 0xAC })
        else { return nil }
        let data = block.data
        return SensorData(beacon: Beacon(kind: .altBeacon, fields: [
            ("id", .text(Beacons.uuid(Array(data[2..<18])) + "-" + Hex.lower(data[18..<22]))),
        ], power: Int(Int8(bitPattern: data[22]))))
    }
}

/// Google's Eddystone: service data 0xFEAA, frame types UID (0x00), URL (0x10), TLM (0x20) and
/// EID (0x30, shown as encrypted). Source: github.com/google/eddystone, protocol specification.
enum Eddystone: SensorFamily {
    static let rank = 12
    static let reads: [SensorSource] = [.service("FEAA")]

    static let schemes = ["http://www.", "https://www.", "http://", "https://"]
    static let expansions = [".com/", ".org/", ".edu/", ".net/", ".info/", ".biz/", ".gov/",
                             ".com", ".org", ".edu", ".net", ".info", ".biz", ".gov"]

    static func decode(_ frame: SensorFrame, keys: SensorKeys?) -> SensorData? {
        guard let data = frame.service("FEAA"), let type = data.first else { return nil }
        let b = SensorBytes(data)
        switch type {
        case 0x00:
            guard data.count >= 18, let power = b.sbe(1, 1) else { return nil }
            return SensorData(beacon: Beacon(kind: .eddystoneUID, fields: [
                ("namespace", .text(Hex.lower(data[2..<12]))), ("instance", .text(Hex.lower(data[12..<18]))),
            ], power: Int(power)))
        case 0x10:
            guard data.count >= 4, let power = b.sbe(1, 1), Int(data[2]) < schemes.count else { return nil } // a scheme with no address is no URL
            var url = schemes[Int(data[2])]
            for byte in data.dropFirst(3) {
                if Int(byte) < expansions.count {
                    url += expansions[Int(byte)]
                } else if byte > 0x20, byte < 0x7F {
                    url.append(Character(Unicode.Scalar(byte)))
                } else {
                    return nil // outside the specification's characters
                }
            }
            return SensorData(beacon: Beacon(kind: .eddystoneURL, fields: [("url", .text(url))], power: Int(power)))
        case 0x20:
            // Version 0: battery mV, temperature 8.8 fixed point (0x8000 not supported), the
            // advertising count and the time since boot in 0.1 s; version 1 is encrypted.
            guard data.count == 14, data[1] == 0x00, let mv = b.be(2, 2), let t = b.sbe(4, 2),
                  let count = b.be(6, 4), let uptime = b.be(10, 4) else {
                return data.count >= 2 && data[1] == 0x01 ? SensorData(encrypted: true, beacon: Beacon(kind: .eddystoneTLM, fields: [], power: nil)) : nil
            }
            var readings: [SensorReading] = []
            if mv != 0 { readings.append(SensorReading(.voltage, Double(mv) / 1000, decimals: 3)) }
            if t != -32768 { readings.append(SensorReading(.temperature, Double(t) / 256, decimals: 2)) }
            readings.append(SensorReading(Quantity.known("advertisements"), Double(count)))
            readings.append(SensorReading(Quantity.known("uptime"), Double(uptime) / 10, decimals: 1))
            return SensorData(readings: readings, beacon: Beacon(kind: .eddystoneTLM, fields: [], power: nil))
        case 0x30:
            guard data.count >= 10, let power = b.sbe(1, 1) else { return nil }
            return SensorData(encrypted: true, beacon: Beacon(kind: .eddystoneEID, fields: [
                ("eid", .text(Hex.lower(data[2..<10]))),
            ], power: Int(power)))
        default:
            return nil
        }
    }
}

enum Beacons {
    /// 16 bytes as a UUID, "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0".
    static func uuid(_ bytes: [UInt8]) -> String {
        let hex = Hex.compact(bytes)
        guard hex.count == 32 else { return hex }
        let c = Array(hex)
        return [c[0..<8], c[8..<12], c[12..<16], c[16..<20], c[20..<32]].map { String($0) }.joined(separator: "-")
    }
}
