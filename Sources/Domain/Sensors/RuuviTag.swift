// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// RuuviTag: manufacturer data of Ruuvi Innovations (0x0499), data formats 3 (RAWv1) and 5
/// (RAWv2). Source: docs.ruuvi.com, "Data format 3 Protocol Specification" and "Data format 5
/// Protocol Specification (RAWv2)", with their invalid-value markers.
enum RuuviTag: SensorFamily {
    static let rank = 85
    static let reads: [SensorSource] = [.company(0x0499)]

    static func decode(_ frame: SensorFrame, keys: SensorKeys?) -> SensorData? {
        guard let data = frame.company(0x0499), let format = data.first else { return nil }
        let b = SensorBytes(data)
        switch format {
        case 3:
            // Humidity ×0.5 %, temperature (sign bit and integer, then hundredths), pressure
            // −50000 Pa, acceleration, battery mV; big-endian. A humidity over 100 % is the
            // sensor's fault, not the frame's: only it goes.
            guard data.count >= 14, let h = b[1], let whole = b[2], let hundredths = b[3], let p = b.be(4, 2),
                  let mv = b.be(12, 2), hundredths <= 99 else { return nil }
            let magnitude = Double(whole & 0x7F) + Double(hundredths) / 100
            var readings = [SensorReading(.temperature, whole & 0x80 != 0 ? -magnitude : magnitude, decimals: 2)]
            var skipped: [String] = []
            if h <= 200 { readings.append(SensorReading(.humidity, Double(h) * 0.5, decimals: 1)) } else { skipped.append("humidity invalid") }
            readings += [SensorReading(.pressure, Double(p + 50000) / 100, decimals: 2),
                         SensorReading(.voltage, Double(mv) / 1000, decimals: 3)]
            return SensorData(model: SensorModel(maker: "Ruuvi", model: "RuuviTag (RAWv1)"), readings: readings, skipped: skipped)
        case 5:
            guard data.count >= 24, let t = b.sbe(1, 2), let h = b.be(3, 2), let p = b.be(5, 2),
                  let power = b.be(13, 2) else { return nil }
            var readings: [SensorReading] = []
            var skipped: [String] = []
            // 0x8000 and 0xFFFF mark a value the tag could not measure; any other humidity is
            // what the tag measured, up to 163.835 %.
            if t != -32768 { readings.append(SensorReading(.temperature, Double(t) * 0.005, decimals: 3)) } else { skipped.append("temperature invalid") }
            if h != 0xFFFF { readings.append(SensorReading(.humidity, Double(h) * 0.0025, decimals: 4)) } else { skipped.append("humidity invalid") }
            if p != 0xFFFF { readings.append(SensorReading(.pressure, Double(p + 50000) / 100, decimals: 2)) } else { skipped.append("pressure invalid") }
            if power >> 5 != 0x7FF { readings.append(SensorReading(.voltage, Double((power >> 5) + 1600) / 1000, decimals: 3)) }
            if let moves = b[15], moves != 0xFF { readings.append(SensorReading(Quantity.known("movement_counter"), Double(moves))) }
            return SensorData(model: SensorModel(maker: "Ruuvi", model: "RuuviTag (RAWv2)"), readings: readings, skipped: skipped)
        default:
            return nil
        }
    }
}
