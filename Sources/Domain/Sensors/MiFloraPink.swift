// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// The pink Flower Care plant sensor (HHCCJCY10, sold by VegTrug), which sends its readings in
/// the clear as 9 bytes of service data 0xFD50, big-endian: soil moisture (%), the temperature
/// (tenths of a degree, signed), light (lux, three bytes), the battery (%) and the soil's
/// conductivity (µS/cm). Unlike the white Flower Care it speaks no MiBeacon. Source: Theengs
/// Decoder's HHCCJCY10 entry (github.com/theengs/decoder, src/devices/HHCCJCY10_json.h).
enum MiFloraPink: SensorFamily {
    static let rank = 70
    static let reads: [SensorSource] = [.service("FD50")]

    static func decode(_ frame: SensorFrame, keys: SensorKeys?) -> SensorData? {
        guard let data = frame.service("FD50"), data.count == 9 else { return nil }
        let b = SensorBytes(data)
        guard let t = b.sbe(1, 2), let lux = b.be(3, 3), let conductivity = b.be(7, 2) else { return nil }
        // A percentage above 100 is no reading of this sensor: the frame is someone else's.
        guard data[0] <= 100, data[6] <= 100 else { return nil }
        return SensorData(model: SensorModel(maker: "Xiaomi", model: "Flower Care (HHCCJCY10)"), readings: [
            SensorReading(.temperature, Double(t) / 10, decimals: 1),
            SensorReading(.moisture, Double(data[0])),
            SensorReading(.illuminance, Double(lux)),
            SensorReading(.conductivity, Double(conductivity)),
            SensorReading(.battery, Double(data[6])),
        ])
    }
}
