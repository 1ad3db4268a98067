// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// SwitchBot sensors: service data 0x0D00 (or 0xFD3D, its newer UUID) starting with the device
/// type, then a byte of state and the battery (low 7 bits).
/// - Meter and Meter Plus ("T", and "i" from a Meter Plus): the temperature's tenths (low 4 bits), its whole degrees (low 7
///   bits; bit 7 set when not below zero) and the humidity (low 7 bits).
/// - Outdoor Meter ("w"): the same three bytes, in its manufacturer block (0x0969) after the address.
/// - Motion Sensor ("s"): motion in the state byte's bit 6, light in bit 1 of byte 5.
/// - Contact Sensor ("d"): motion likewise; in byte 3, open (bit 1), left open (bit 2) and light (bit 0).
/// Source: SwitchBot's "BLE open API", github.com/OpenWonderLabs/SwitchBotAPI-BLE, the devices'
/// broadcast messages.
enum SwitchBot: SensorFamily {
    static let rank = 70
    static let reads: [SensorSource] = [.service("0D00"), .service("FD3D")]

    static let motion = Quantity.known("motion")
    static let opening = Quantity.known("opening")
    static let light = Quantity.known("light")

    static func decode(_ frame: SensorFrame, keys: SensorKeys?) -> SensorData? {
        guard let data = frame.service("0D00") ?? frame.service("FD3D"), data.count >= 3 else { return nil }
        let battery = data[2] & 0x7F
        guard battery <= 100 else { return nil }
        switch data[0] & 0x7F {
        case 0x54 where data.count >= 6, 0x69 where data.count >= 6:
            guard let climate = climate(Array(data[3...5])) else { return nil }
            return SensorData(model: SensorModel(maker: "SwitchBot", model: data[0] & 0x7F == 0x69 ? "Meter Plus" : "Meter"),
                              readings: climate + [SensorReading(.battery, Double(battery))])
        case 0x77:
            guard let block = frame.company(0x0969), block.count == 12, let climate = climate(Array(block[8...10])) else { return nil }
            return SensorData(model: SensorModel(maker: "SwitchBot", model: "Outdoor Meter"),
                              readings: climate + [SensorReading(.battery, Double(battery))])
        case 0x73 where data.count == 6:
            return SensorData(model: SensorModel(maker: "SwitchBot", model: "Motion Sensor"), readings: [
                SensorReading(motion, data[1] & 0x40 != 0 ? 1 : 0), SensorReading(light, data[5] & 0x02 != 0 ? 1 : 0),
                SensorReading(.battery, Double(battery)),
            ])
        case 0x64 where data.count == 9:
            return SensorData(model: SensorModel(maker: "SwitchBot", model: "Contact Sensor"), readings: [
                SensorReading(opening, data[3] & 0x06 != 0 ? 1 : 0), SensorReading(motion, data[1] & 0x40 != 0 ? 1 : 0),
                SensorReading(light, data[3] & 0x01 != 0 ? 1 : 0), SensorReading(.battery, Double(battery)),
            ])
        default:
            return nil
        }
    }

    /// Tenths (low nibble), whole degrees with bit 7 set when not below zero, humidity.
    static func climate(_ b: [UInt8]) -> [SensorReading]? {
        let tenths = b[0] & 0x0F, whole = b[1] & 0x7F, humidity = b[2] & 0x7F
        guard tenths <= 9, humidity <= 100 else { return nil }
        let magnitude = Double(whole) + Double(tenths) / 10
        return [SensorReading(.temperature, b[1] & 0x80 != 0 ? magnitude : -magnitude, decimals: 1),
                SensorReading(.humidity, Double(humidity))]
    }
}
