// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// BlueMaestro Tempo Disc loggers: company 0x0133, the product first. The Tempo Disc T, THD and
/// THPD send the battery, four bytes, then temperature, humidity and dew point or pressure in
/// tenths, big-endian; the Maxi models send the battery, thirteen bytes, then hundredths,
/// little-endian. Source: BlueMaestro's advertising packet description for the Tempo Disc
/// (bluemaestro.com, "Tempo Disc API"), as read by ble_monitor.
enum BlueMaestro: SensorFamily {
    static let rank = 68
    static let reads: [SensorSource] = [.company(0x0133)]

    static let dewPoint = Quantity.known("dew_point")

    static func decode(_ frame: SensorFrame, keys: SensorKeys?) -> SensorData? {
        guard let data = frame.company(0x0133), let product = data.first else { return nil }
        let b = SensorBytes(data)
        var readings: [SensorReading] = []
        let model: String
        switch product {
        case 0x08, 0x0D:
            guard data.count >= 8, let t = b.sbe(6, 2) else { return nil }
            model = product == 0x08 ? "Temperature Sensor v8" : "Tempo Disc T"
            readings = [SensorReading(.temperature, Double(t) / 10, decimals: 1)]
        case 0x16, 0x17, 0x1B:
            guard data.count >= 12, let t = b.sbe(6, 2), let h = b.be(8, 2), let third = b.be(10, 2) else { return nil }
            model = product == 0x1B ? "Tempo Disc THPD" : "Tempo Disc THD"
            readings = [SensorReading(.temperature, Double(t) / 10, decimals: 1), SensorReading(.humidity, Double(h) / 10, decimals: 1)]
            readings.append(product == 0x1B ? SensorReading(.pressure, Double(third) / 10, decimals: 1)
                                            : SensorReading(dewPoint, Double(SensorBytes.signed(third, 2)) / 10, decimals: 1))
        case 0x29, 0x2A, 0x2B:
            let need = [0x29: 17, 0x2A: 19, 0x2B: 23][Int(product)]!
            guard data.count >= need, let t = b.sle(15, 2) else { return nil }
            model = ["Tempo Disc Maxi T", "Tempo Disc Maxi THD", "Tempo Disc Maxi THPD"][Int(product) - 0x29]
            readings = [SensorReading(.temperature, Double(t) / 100, decimals: 2)]
            if product >= 0x2A, let h = b.sle(17, 2) { readings.append(SensorReading(.humidity, Double(h) / 100, decimals: 2)) }
            if product == 0x2B, let p = b.sle(19, 4) { readings.append(SensorReading(.pressure, Double(p) / 100, decimals: 2)) }
        default:
            return nil
        }
        guard data[1] <= 100 else { return nil }
        return SensorData(model: SensorModel(maker: "BlueMaestro", model: model),
                          readings: [SensorReading(.battery, Double(data[1]))] + readings)
    }
}
