// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// Moat's S2 thermo-hygrometer, named "Moat_S2…": service data 0x1000, whose bytes 10 to 15 are
/// the temperature and humidity as Sensirion SHT2x ticks and the battery in mV, little-endian;
/// its charge follows the cell's discharge curve. Source: Home Assistant's moat-ble.
enum Moat: SensorFamily {
    static let rank = 68
    static let reads: [SensorSource] = [.service("1000")]

    static func decode(_ frame: SensorFrame, keys: SensorKeys?) -> SensorData? {
        guard frame.name?.lowercased().contains("moat_s2") == true, let data = frame.service("1000"), data.count >= 16 else { return nil }
        let b = SensorBytes(data)
        guard let t = b.le(10, 2), let h = b.le(12, 2), let mv = b.le(14, 2) else { return nil }
        return SensorData(model: SensorModel(maker: "Moat", model: "S2"), readings: [
            SensorReading(.temperature, -46.85 + 175.72 * Double(t) / 65536, decimals: 3),
            SensorReading(.humidity, -6 + 125 * Double(h) / 65536, decimals: 3),
            SensorReading(.voltage, Double(mv) / 1000, decimals: 3),
            SensorReading(.battery, charge(Double(mv)), decimals: 1),
        ])
    }

    /// The charge of its cell at `mv`, piece by piece along the curve.
    static func charge(_ mv: Double) -> Double {
        let percent: Double
        switch mv {
        case 3000...: percent = 100
        case 2900..<3000: percent = 42 + (mv - 2900) * 0.58
        case 2740..<2900: percent = 18 + (mv - 2740) * 0.15
        case 2440..<2740: percent = 6 + (mv - 2440) * 0.04
        case 2100..<2440: percent = (mv - 2100) * 6 / 340
        default: percent = 0
        }
        return (percent * 10).rounded(.toNearestOrEven) / 10
    }
}
