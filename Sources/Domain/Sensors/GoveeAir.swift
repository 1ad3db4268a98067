// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// Govee's H5106 air quality monitor: six bytes under the pseudo company ID 0x0001, from a
/// device named "GVH5106…". Bytes 2–5 are one big-endian number: the top bit the temperature's
/// sign, then temperature × 10 000 000 + humidity × 10 000 + PM2.5 in µg/m³, so its decimal
/// digits are TTT HHH PPP. Source: Home Assistant's govee-ble (the H5106 branch) and Theengs
/// Decoder's H5106 entry (github.com/theengs/decoder, src/devices/H5106_json.h). Told before
/// the thermometers that share the company ID, by its name.
enum GoveeAir: SensorFamily {
    static let rank = 71
    static let reads: [SensorSource] = [.company(0x0001)]

    static func decode(_ frame: SensorFrame, keys: SensorKeys?) -> SensorData? {
        guard let data = frame.company(0x0001), data.count == 6, Govee.has(frame.name ?? "", "H5106"),
              let word = SensorBytes(data).be(2, 4) else { return nil }
        let magnitude = Int(word & 0x7FFF_FFFF)
        let temperature = Double(magnitude / 1_000_000) / 10 * (word & 0x8000_0000 != 0 ? -1 : 1)
        return SensorData(model: SensorModel(maker: "Govee", model: "H5106"), readings: [
            SensorReading(.temperature, temperature, decimals: 1),
            SensorReading(.humidity, Double(magnitude % 1_000_000 / 1000) / 10, decimals: 1),
            SensorReading(.pm25, Double(magnitude % 1000)),
        ])
    }
}
