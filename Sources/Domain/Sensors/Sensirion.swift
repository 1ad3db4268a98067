// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// Sensirion gadgets (SHT3x, SHT4x, MyCO2): company 0x06D5, two bytes of format, two of the
/// device's ID, then temperature and humidity as 16-bit ticks (little-endian) and, for the
/// CO₂ gadget, its ppm. Source: Sensirion's "BLE communication protocol" for its sample
/// gadgets (github.com/Sensirion/arduino-ble-gadget, "Data types"), as read by Home
/// Assistant's sensirion-ble.
enum Sensirion: SensorFamily {
    static let rank = 60
    static let reads: [SensorSource] = [.company(0x06D5)]

    static func decode(_ frame: SensorFrame, keys: SensorKeys?) -> SensorData? {
        guard let data = frame.company(0x06D5), data.count >= 8, data[0] == 0 else { return nil }
        let b = SensorBytes(data)
        guard let tTicks = b.le(4, 2), let hTicks = b.le(6, 2) else { return nil }
        let temperature = -45 + 175 * Double(tTicks) / 65535
        switch data[1] {
        case 4:
            return SensorData(model: SensorModel(maker: "Sensirion", model: "SHT3x gadget"), readings: [
                SensorReading(.temperature, temperature, decimals: 1), SensorReading(.humidity, 100 * Double(hTicks) / 65535, decimals: 1),
            ])
        case 6:
            return SensorData(model: SensorModel(maker: "Sensirion", model: "SHT4x gadget"), readings: [
                SensorReading(.temperature, temperature, decimals: 2), SensorReading(.humidity, -6 + 125 * Double(hTicks) / 65535, decimals: 2),
            ])
        case 8, 10:
            // 10: the same three as 8 in Sensirion's sample-type table, from the SCD4x CO₂ gadgets.
            guard let co2 = b.le(8, 2) else { return nil }
            return SensorData(model: SensorModel(maker: "Sensirion", model: data[1] == 8 ? "MyCO2" : "CO2 Gadget"), readings: [
                SensorReading(.temperature, temperature, decimals: 1), SensorReading(.humidity, 100 * Double(hTicks) / 65535, decimals: 1),
                SensorReading(.carbonDioxide, Double(co2)),
            ])
        default:
            return nil
        }
    }
}
