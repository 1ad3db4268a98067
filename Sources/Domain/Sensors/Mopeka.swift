// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// Mopeka Pro tank sensors: company 0x0059 with service FEE5 listed (or, heard passively, one of
/// three models by its first byte), 10 bytes: the model, the
/// battery in 1/32 V, the temperature (low 7 bits, +40 °C; bit 7 the button), the level's raw
/// 14 bits with its quality in the top two, the address, and the sensor's tilt. The level in
/// millimetres assumes propane, as the maker's own app does until told otherwise. Source: the
/// community's decoding of Mopeka broadcasts (Home Assistant's mopeka-iot-ble, after
/// github.com/spbrogan/mopeka_pro_check).
enum Mopeka: SensorFamily {
    static let rank = 60
    static let reads: [SensorSource] = [.company(0x0059)]
    static let tankLevel = Quantity.known("tank_level")
    static let quality = Quantity.known("reading_quality")
    static let models: [UInt8: String] = [
        0x3: "Pro Check", 0x4: "Pro-200", 0x5: "Pro Check H2O", 0x6: "Lippert BottleCheck", 0x8: "Pro Plus",
        0x9: "Pro Plus with Cellular", 0xA: "TD40/TD200", 0xB: "TD40/TD200 with Cellular", 0xC: "Pro Check Universal",
        0x12: "Pro-200B",
    ]

    /// Pro Check, Lippert BottleCheck and Pro Check Universal (Theengs Decoder's Mopeka entry).
    static let heardPassively: Set<UInt8> = [0x3, 0x6, 0xC]

    static func decode(_ frame: SensorFrame, keys: SensorKeys?) -> SensorData? {
        guard let data = frame.company(0x0059), data.count == 10, let model = models[data[0]] else { return nil }
        // FEE5 comes in its scan response; heard passively, only the models Theengs tells by
        // their first byte are believed under Nordic's company ID, which many devices write.
        guard frame.lists("FEE5") || heardPassively.contains(data[0]) else { return nil }
        let volts = Double(data[1]) / 32
        let temperature = Int(data[2] & 0x7F) - 40
        let raw = (Int(data[4]) << 8 | Int(data[3])) & 0x3FFF
        let grade = Int(data[4] >> 6)
        var readings = [
            SensorReading(.temperature, Double(temperature)),
            SensorReading(.battery, min(100, max(0, (volts - 2.2) / 0.65 * 100)), decimals: 1),
            SensorReading(.voltage, volts, decimals: 5),
        ]
        if grade >= 1 {
            // Propane: the speed of sound in it by temperature, as a quadratic.
            let t = Double(data[2] & 0x7F)
            let mm = Double(raw) * (0.573045 - 0.002822 * t - 0.00000535 * t * t)
            readings.append(SensorReading(tankLevel, mm.rounded(.towardZero)))
        }
        readings.append(SensorReading(quality, (Double(grade) / 3 * 100).rounded()))
        return SensorData(model: SensorModel(maker: "Mopeka", model: model), readings: readings)
    }
}
