// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// Xiaomi thermometers (LYWSD03MMC, MHO-C401, CGG1) on custom firmware, service data 0x181A.
/// Source: the firmware's own documentation, github.com/atc1441/ATC_MiThermometer (13 bytes,
/// big-endian) and github.com/pvvx/ATC_MiThermometer, "Custom format" (15 bytes, little-endian).
enum XiaomiCustom: SensorFamily {
    static let rank = 80
    static let reads: [SensorSource] = [.service("181A")]

    static func decode(_ frame: SensorFrame, keys: SensorKeys?) -> SensorData? {
        guard let data = frame.service("181A") else { return nil }
        let b = SensorBytes(data)
        switch data.count {
        case 13:
            // MAC (6), temperature ×0.1 °C (sint16), humidity % (uint8), battery % (uint8),
            // battery mV (uint16), frame counter.
            guard let t = b.sbe(6, 2), let h = b[8], let battery = b[9], let mv = b.be(10, 2),
                  h <= 100, battery <= 100 else { return nil }
            return SensorData(model: SensorModel(maker: "Xiaomi", model: "LYWSD03MMC (ATC1441)"), readings: [
                SensorReading(.temperature, Double(t) * 0.1, decimals: 1), SensorReading(.humidity, Double(h)),
                SensorReading(.battery, Double(battery)), SensorReading(.voltage, Double(mv) / 1000, decimals: 3),
            ])
        case 15:
            // MAC (6, reversed), temperature ×0.01 °C (sint16), humidity ×0.01 % (uint16),
            // battery mV (uint16), battery %, counter, flags.
            guard let t = b.sle(6, 2), let h = b.le(8, 2), let mv = b.le(10, 2), let battery = b[12],
                  h <= 10000, battery <= 100 else { return nil }
            return SensorData(model: SensorModel(maker: "Xiaomi", model: "LYWSD03MMC (pvvx)"), readings: [
                SensorReading(.temperature, Double(t) * 0.01, decimals: 2), SensorReading(.humidity, Double(h) * 0.01, decimals: 2),
                SensorReading(.battery, Double(battery)), SensorReading(.voltage, Double(mv) / 1000, decimals: 3),
            ])
        default:
            return nil
        }
    }
}
