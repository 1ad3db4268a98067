// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// The Otio/BeeWi door and window sensor: company 0x000D, five bytes, 0x08 0x0C first, then
/// open in bit 0 of the next, a byte, and the battery. Source: Theengs Decoder's BWBSDOO entry
/// (github.com/theengs/decoder, src/devices/BWBSDOO_json.h).
enum BeeWi: SensorFamily {
    static let rank = 68
    static let reads: [SensorSource] = [.company(0x000D)]
    static let opening = Quantity.known("opening")

    static func decode(_ frame: SensorFrame, keys: SensorKeys?) -> SensorData? {
        guard let data = frame.company(0x000D), data.count == 5, data[0] == 0x08, data[1] == 0x0C, data[4] <= 100 else { return nil }
        return SensorData(model: SensorModel(maker: "Otio/BeeWi", model: "Door & Window Sensor"), readings: [
            SensorReading(opening, data[2] & 0x01 != 0 ? 1 : 0), SensorReading(.battery, Double(data[4])),
        ])
    }
}
