// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// Otodata's propane tank monitors (Rotarex-compatible, RC1010): company 0x03B1. The frame of
/// 19 bytes (after "OTOTELE" and two bytes) holds how full the tank is in hundredths of a percent
/// and a status, little-endian; its 22-byte frame holds only the serial and model numbers.
/// Source: Theengs Decoder's OTOD entry (github.com/theengs/decoder, src/devices/OTOD_json.h).
enum Otodata: SensorFamily {
    static let rank = 68
    static let reads: [SensorSource] = [.company(0x03B1)]
    static let tankFill = Quantity.known("tank_fill")

    static func decode(_ frame: SensorFrame, keys: SensorKeys?) -> SensorData? {
        guard let data = frame.company(0x03B1), data.count == 19, let level = SensorBytes(data).le(9, 2), level <= 10000 else { return nil }
        return SensorData(model: SensorModel(maker: "Otodata", model: "RC1010"), readings: [
            SensorReading(tankFill, Double(level) / 100, decimals: 2),
        ])
    }
}
