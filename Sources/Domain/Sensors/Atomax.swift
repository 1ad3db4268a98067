// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// Atomax's Skale coffee scales (I and II): company 0x81EF, four bytes, the weight first in
/// signed tenths of a gram, little-endian. Source: Theengs Decoder's Skale entry
/// (github.com/theengs/decoder, src/devices/Skale_json.h).
enum Atomax: SensorFamily {
    static let rank = 68
    static let reads: [SensorSource] = [.company(0x81EF)]
    static let grams = Quantity.known("weight").sent(in: "g")

    static func decode(_ frame: SensorFrame, keys: SensorKeys?) -> SensorData? {
        guard let data = frame.company(0x81EF), data.count == 4, let tenths = SensorBytes(data).sle(0, 2) else { return nil }
        return SensorData(model: SensorModel(maker: "Atomax", model: "Skale"), readings: [SensorReading(grams, Double(tenths) / 10, decimals: 1)])
    }
}
