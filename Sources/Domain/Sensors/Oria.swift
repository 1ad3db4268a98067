// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// Oria T201 and T301 thermo-hygrometers, named "T201…" or "T301…": company 0xAA55, then two
/// bytes, the device's address, two more, and big-endian the temperature (signed) and the
/// humidity in hundredths, and the battery. Source: Theengs Decoder's T201 and T301 entries
/// (github.com/theengs/decoder, src/devices/T201_json.h, T301_json.h).
enum Oria: SensorFamily {
    static let rank = 68
    static let reads: [SensorSource] = [.company(0xAA55)]

    static func decode(_ frame: SensorFrame, keys: SensorKeys?) -> SensorData? {
        guard let name = frame.name, let model = ["T201", "T301"].first(where: { name.hasPrefix($0) }),
              let data = frame.company(0xAA55), model == "T301" ? data.count == 17 : data.count >= 17 else { return nil }
        let b = SensorBytes(data)
        guard let t = b.sbe(10, 2), let h = b.be(12, 2), h <= 10000, let battery = b[14], battery <= 100 else { return nil }
        return SensorData(model: SensorModel(maker: "Oria", model: model), readings: [
            SensorReading(.temperature, Double(t) / 100, decimals: 2), SensorReading(.humidity, Double(h) / 100, decimals: 2),
            SensorReading(.battery, Double(battery)),
        ])
    }
}
