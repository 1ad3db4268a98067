// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// Onset's HOBO MX2001 water level logger: company 0x00C5, twenty bytes, the water level in
/// metres as a little-endian 32-bit float at byte 16. Source: Theengs Decoder's HOBOMX2001
/// entry (github.com/theengs/decoder, src/devices/HOBOMX2001_json.h).
enum Onset: SensorFamily {
    static let rank = 68
    static let reads: [SensorSource] = [.company(0x00C5)]
    static let level = Quantity.known("water_level")

    static func decode(_ frame: SensorFrame, keys: SensorKeys?) -> SensorData? {
        guard let data = frame.company(0x00C5), data.count == 20, let bits = SensorBytes(data).le(16, 4) else { return nil }
        let metres = Double(Float(bitPattern: UInt32(bits)))
        // Not a number, or a level no logger reaches, is no reading.
        guard metres.isFinite, (-100...1000).contains(metres) else { return nil }
        return SensorData(model: SensorModel(maker: "Onset", model: "HOBO MX2001"), readings: [
            SensorReading(level, metres * 1000, decimals: 1),
        ])
    }
}
