// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// SwitchBot Meter and Meter Plus: service data 0x0D00 (or 0xFD3D, its newer UUID) starting
/// with the device type "T", then a byte, the battery (low 7 bits), the temperature's tenths
/// (low 4 bits), its whole degrees (low 7 bits; bit 7 set when not below zero) and the
/// humidity (low 7 bits). Source: SwitchBot's "BLE open API", github.com/OpenWonderLabs/SwitchBotAPI-BLE,
/// "Meter" broadcast message.
enum SwitchBot: SensorFamily {
    static let rank = 70
    static let reads: [SensorSource] = [.service("0D00"), .service("FD3D")]

    static func decode(_ frame: SensorFrame, keys: SensorKeys?) -> SensorData? {
        guard let data = frame.service("0D00") ?? frame.service("FD3D"), data.count >= 6, data[0] & 0x7F == 0x54 else { return nil }
        let battery = data[2] & 0x7F, tenths = data[3] & 0x0F, whole = data[4] & 0x7F, humidity = data[5] & 0x7F
        guard battery <= 100, tenths <= 9, humidity <= 100 else { return nil }
        let magnitude = Double(whole) + Double(tenths) / 10
        return SensorData(model: SensorModel(maker: "SwitchBot", model: "Meter"), readings: [
            SensorReading(.temperature, data[4] & 0x80 != 0 ? magnitude : -magnitude, decimals: 1),
            SensorReading(.humidity, Double(humidity)), SensorReading(.battery, Double(battery)),
        ])
    }
}
