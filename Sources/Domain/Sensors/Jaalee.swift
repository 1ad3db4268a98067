// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// Jaalee JHT thermo-hygrometers: an iBeacon frame (Apple's company ID, 24 bytes) with service
/// F525 or F51C listed, whose major is the temperature and minor the humidity as Sensirion
/// ticks (−45 + 175·t/65535 °C, 100·h/65535 %), and a battery byte after the power. Source:
/// the community's decoding of Jaalee broadcasts (Theengs Decoder's Jaalee F525/F51C entry).
enum Jaalee: SensorFamily {
    static let rank = 62  // over a plain iBeacon
    static let reads: [SensorSource] = [.company(0x004C)]

    static func decode(_ frame: SensorFrame, keys: SensorKeys?) -> SensorData? {
        guard frame.lists("F525") || frame.lists("F51C"), let data = frame.company(0x004C), data.count == 24 else { return nil }
        let b = SensorBytes(data)
        guard let t = b.be(18, 2), let h = b.be(20, 2), let battery = b[23], battery <= 100 else { return nil }
        return SensorData(model: SensorModel(maker: "Jaalee", model: "JHT"), readings: [
            SensorReading(.temperature, -45 + 175 * Double(t) / 65535, decimals: 2),
            SensorReading(.humidity, 100 * Double(h) / 65535, decimals: 2), SensorReading(.battery, Double(battery)),
        ])
    }
}
