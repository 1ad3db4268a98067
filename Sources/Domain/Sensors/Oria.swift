// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// Oria's thermo-hygrometers, sold as SensorPro too (T201, T301): company 0xAA55, then two bytes
/// (01 01 or 01 05), the device's address, and big-endian the battery's voltage in hundredths,
/// the temperature (signed) and the humidity in hundredths, and the battery in percent. Told by
/// the name ("T201…", "T301…") or, without it, by those two bytes and an address starting A4:C1
/// as SensorPro's are. Sources: Theengs Decoder's T201 and T301 entries
/// (github.com/theengs/decoder, src/devices/); Home Assistant's sensorpro-ble.
enum Oria: SensorFamily {
    static let rank = 68
    static let reads: [SensorSource] = [.company(0xAA55)]

    static func decode(_ frame: SensorFrame, keys: SensorKeys?) -> SensorData? {
        guard let data = frame.company(0xAA55), data.count >= 17 else { return nil }
        let named = ["T201", "T301"].first { frame.name?.hasPrefix($0) == true }
        let sensorPro = data[0] == 0x01 && (data[1] == 0x01 || data[1] == 0x05) && data[2] == 0xA4 && data[3] == 0xC1
        guard named != nil || sensorPro, named != "T301" || data.count == 17 else { return nil }
        let b = SensorBytes(data)
        guard let volts = b.be(8, 2), let t = b.sbe(10, 2), let h = b.be(12, 2), h <= 10000, let battery = b[14], battery <= 100 else { return nil }
        return SensorData(model: SensorModel(maker: named != nil ? "Oria" : "SensorPro", model: named ?? (data[1] == 0x05 ? "T301" : "T201")), readings: [
            SensorReading(.temperature, Double(t) / 100, decimals: 2), SensorReading(.humidity, Double(h) / 100, decimals: 2),
            SensorReading(.battery, Double(battery)), SensorReading(.voltage, Double(volts) / 100, decimals: 2),
        ])
    }
}
