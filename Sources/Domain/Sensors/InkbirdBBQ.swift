// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// Inkbird iBBQ and xBBQ grill thermometers (IBT-2X, IBT-4XS, IBT-6XS), named "iBBQ" or
/// "xBBQ", or without the name by the address they carry: the block, company ID included, is 12, 14, 18 or 22 bytes, and its probes follow
/// the address at byte 10, each a signed tenth of a degree Celsius, little-endian; 0xFFFF is a
/// probe not plugged in. Source: the community's decoding of iBBQ broadcasts (Home Assistant's
/// inkbird-ble, "iBBQ" models; Theengs Decoder's IBT-2X/4X/6XS entries).
enum InkbirdBBQ: SensorFamily {
    static let rank = 66
    static let reads: [SensorSource] = [.anyCompany]

    static func decode(_ frame: SensorFrame, keys: SensorKeys?) -> SensorData? {
        guard let bytes = frame.wholeBlock, [12, 14, 18, 22].contains(bytes.count) else { return nil }
        let name = frame.name?.lowercased() ?? ""
        guard name.contains("ibbq") || name.contains("xbbq") || carriesItsAddress(bytes, frame) else { return nil }
        let b = SensorBytes(bytes)
        let probes = (bytes.count - 10) / 2
        var readings: [SensorReading] = []
        for probe in 0..<probes {
            guard let raw = b.sle(10 + 2 * probe, 2) else { return nil }
            if raw == -1 { continue }  // not plugged in
            readings.append(SensorReading(.temperature, Double(raw) / 10, decimals: 1, slot: probe + 1))
        }
        return SensorData(model: SensorModel(maker: "Inkbird", model: "iBBQ-\(probes)"), readings: readings)
    }

    /// Heard without its name (the scan response): four bytes 00 00 00 00 and the address it was
    /// heard from tell it, or on a two-probe IBT-2X 01 00 00 00 and the address reversed.
    static func carriesItsAddress(_ bytes: [UInt8], _ frame: SensorFrame) -> Bool {
        guard bytes[1] == 0, bytes[2] == 0, bytes[3] == 0 else { return false }
        switch bytes[0] {
        case 0: return frame.carriesItsAddress(bytes[4..<10])
        case 1: return bytes.count == 14 && frame.carriesItsAddress(bytes[4..<10], reversed: true)
        default: return false
        }
    }
}
