// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// SwitchBot sensors: service data 0x0D00 (or 0xFD3D, its newer UUID) starting with the device
/// type, then a byte of state and the battery (low 7 bits).
/// - Meter and Meter Plus ("T", and "i" from a Meter Plus): the temperature's tenths (low 4 bits), its whole degrees (low 7
///   bits; bit 7 set when not below zero) and the humidity (low 7 bits).
/// - Outdoor Meter ("w"): the same three bytes, in its manufacturer block (0x0969) after the address.
/// - Motion Sensor ("s"): motion in the state byte's bit 6, light in bit 1 of byte 5.
/// - Contact Sensor ("d"): motion likewise; in byte 3, open (bit 1), left open (bit 2) and light (bit 0).
/// - Bot ("H"): switch mode in the state byte's bit 7, and in that mode the switch is off while bit 6
///   is set; in press mode it has no on or off to tell.
/// - Curtain ("c", Curtain 3 "{"): calibrated in bit 6 of the state byte; byte 3 moving (bit 7) and
///   how far it is closed (low 7 bits, 0 % open, 100 % closed); byte 4's high nibble its light level.
/// - Blind Tilt ("x"): the battery here, the rest in its manufacturer block (0x0969) after the address
///   and a sequence number: light level (high nibble) and calibrated (bit 0), then moving (bit 7) and
///   the slats' angle (low 7 bits: 50 level, 0 and 100 shut down or up), told as how far they are open.
/// - Meters heard passively, without the scan response that carries the service data: by name
///   ("WoSensorTH…", "WoIOSensorTH…") and the climate in their manufacturer block.
/// Source: SwitchBot's "BLE open API", github.com/OpenWonderLabs/SwitchBotAPI-BLE, the devices'
/// broadcast messages; Theengs Decoder (SBS1, SBCU, SBBT) for the Bot, Curtain and Blind Tilt.
enum SwitchBot: SensorFamily {
    static let rank = 70
    static let reads: [SensorSource] = [.service("0D00"), .service("FD3D"), .company(0x0969)]

    static let motion = Quantity.known("motion")
    static let opening = Quantity.known("opening")
    static let light = Quantity.known("light")
    static let powerOn = Quantity.known("power_on")
    static let closed = Quantity.known("closed")
    static let slatsOpen = Quantity.known("slats_open")
    static let moving = Quantity.known("moving")
    static let calibrated = Quantity.known("calibrated")
    static let lightLevel = Quantity.known("light_level")

    static func decode(_ frame: SensorFrame, keys: SensorKeys?) -> SensorData? {
        guard let data = frame.service("0D00") ?? frame.service("FD3D") else { return heardPassively(frame) }
        guard data.count >= 3 else { return nil }
        let battery = data[2] & 0x7F
        guard battery <= 100 else { return nil }
        switch data[0] & 0x7F {
        case 0x54 where data.count >= 6, 0x69 where data.count >= 6:
            guard let climate = climate(Array(data[3...5])) else { return nil }
            return SensorData(model: SensorModel(maker: "SwitchBot", model: data[0] & 0x7F == 0x69 ? "Meter Plus" : "Meter"),
                              readings: climate + [SensorReading(.battery, Double(battery))])
        case 0x77:
            // Its readings ride in the advertisement, the battery in the scan response: either may come alone.
            let outdoor = SensorModel(maker: "SwitchBot", model: "Outdoor Meter")
            guard let block = frame.company(0x0969) else { return SensorData(model: outdoor, readings: [SensorReading(.battery, Double(battery))]) }
            guard block.count == 12, let climate = climate(Array(block[8...10])) else { return nil }
            return SensorData(model: outdoor, readings: climate + [SensorReading(.battery, Double(battery))])
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
        case 0x48:
            // In press mode the Bot pushes and lets go: there is no state to tell.
            let switchMode = data[1] & 0x80 != 0
            return SensorData(model: SensorModel(maker: "SwitchBot", model: "Bot"),
                              readings: (switchMode ? [SensorReading(powerOn, data[1] & 0x40 == 0 ? 1 : 0)] : [])
                                  + [SensorReading(.battery, Double(battery))])
        case 0x63 where (5...6).contains(data.count), 0x7B where data.count == 6:
            let position = data[3] & 0x7F
            guard position <= 100 else { return nil }
            return SensorData(model: SensorModel(maker: "SwitchBot", model: data[0] & 0x7F == 0x7B ? "Curtain 3" : "Curtain"), readings: [
                SensorReading(closed, Double(position)), SensorReading(moving, data[3] & 0x80 != 0 ? 1 : 0),
                SensorReading(lightLevel, Double(data[4] >> 4)), SensorReading(calibrated, data[1] & 0x40 != 0 ? 1 : 0),
                SensorReading(.battery, Double(battery)),
            ])
        case 0x78 where data.count == 3:
            guard let block = frame.company(0x0969), block.count >= 9 else { return nil }
            let angle = Int(block[8] & 0x7F)
            guard angle <= 100 else { return nil }
            return SensorData(model: SensorModel(maker: "SwitchBot", model: "Blind Tilt"), readings: [
                SensorReading(slatsOpen, Double(100 - abs(angle - 50) * 2)), SensorReading(moving, block[8] & 0x80 != 0 ? 1 : 0),
                SensorReading(lightLevel, Double(block[7] >> 4)), SensorReading(calibrated, block[7] & 0x01 != 0 ? 1 : 0),
                SensorReading(.battery, Double(battery)),
            ])
        default:
            return nil
        }
    }

    /// A meter heard without its scan response (a passive scan): no service data, so no type
    /// byte, but its name and its manufacturer block (0x0969: the address, two bytes, then the
    /// temperature and humidity as in the service data) tell it.
    static func heardPassively(_ frame: SensorFrame) -> SensorData? {
        guard let name = frame.name, let block = frame.company(0x0969) else { return nil }
        let model: String
        if name.hasPrefix("WoIOSensorTH"), block.count == 12 {
            model = "Outdoor Meter"
        } else if name.hasPrefix("WoSensorTH"), block.count == 11 {
            model = name.hasPrefix("WoSensorTHP") ? "Meter Plus" : "Meter"
        } else {
            return nil
        }
        return climate(Array(block[8...10])).map { SensorData(model: SensorModel(maker: "SwitchBot", model: model), readings: $0) }
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
