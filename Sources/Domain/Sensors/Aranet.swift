// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// Aranet4 (CO₂) and Aranet2 monitors: company 0x0702, readings sent only while the device's
/// "Smart Home integrations" is on (bit 5 of the flags). The Aranet4's block has no type byte
/// (7 or 22 bytes): after the flags and version come CO₂ (ppm), temperature (1/20 °C),
/// pressure (1/10 hPa), humidity (%), battery (%), status, interval and age. The Aranet2's
/// starts with type 1: temperature at 10 and humidity (1/10 %) at 14, battery at 17. A value
/// with its top flag bit set was not measured. Source: SAF Tehnika's own library,
/// github.com/Anrijs/Aranet4-Python (aranet4.client, "Aranet4Advertisement").
enum Aranet: SensorFamily {
    static let rank = 60
    static let reads: [SensorSource] = [.company(0x0702)]

    static func decode(_ frame: SensorFrame, keys: SensorKeys?) -> SensorData? {
        guard let data = frame.company(0x0702), data.count >= 5 else { return nil }
        let name = frame.name ?? ""
        let named = ["Aranet4", "Aranet2", "Aranet\u{2622}", "AranetRn"].contains { name.hasPrefix($0) }
        let aranet4 = named ? name.hasPrefix("Aranet4") : [7, 22].contains(data.count)
        // The Aranet4 has no type byte: read it as if its type (0) led.
        let bytes = aranet4 ? [0] + data : data
        let b = SensorBytes(bytes)
        guard bytes[1] & 0x20 != 0 else { return nil }  // integrations off: no readings sent
        if aranet4 {
            guard bytes.count >= 22, let co2 = b.le(9, 2), let t = b.le(11, 2), let p = b.le(13, 2), let h = b[15], let battery = b[16] else { return nil }
            var readings: [SensorReading] = []
            if co2 >> 15 == 0 { readings.append(SensorReading(.carbonDioxide, Double(co2))) }
            if t >> 14 & 1 == 0 { readings.append(SensorReading(.temperature, Double(t) * 0.05, decimals: 2)) }
            if p >> 15 == 0 { readings.append(SensorReading(.pressure, Double(p) * 0.1, decimals: 1)) }
            readings.append(SensorReading(.humidity, Double(h)))
            readings.append(SensorReading(.battery, Double(battery)))
            return SensorData(model: SensorModel(maker: "Aranet", model: "Aranet4"), readings: readings)
        }
        guard bytes[0] == 1, let t = b.le(10, 2), let h = b.le(14, 2), let battery = b[17], b.count >= 24 else { return nil }
        var readings: [SensorReading] = []
        if t >> 14 & 1 == 0 { readings.append(SensorReading(.temperature, Double(t) * 0.05, decimals: 2)) }
        if h >> 15 == 0 { readings.append(SensorReading(.humidity, Double(h) * 0.1, decimals: 1)) }
        readings.append(SensorReading(.battery, Double(battery)))
        return SensorData(model: SensorModel(maker: "Aranet", model: "Aranet2"), readings: readings)
    }
}
