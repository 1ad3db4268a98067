// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// ThermoPro hygrometers (TP357, TP358, TP359, TP393, TP397), told by their advertised name.
/// Their manufacturer block's company ID is not a company's: its high byte and the block's
/// first two bytes are the temperature (sint16 × 0.1 °C), then humidity in %, then the battery
/// in two bits (low, half, full). Source: the community's decoding of ThermoPro broadcasts
/// (ble_monitor's thermopro parser, Home Assistant's thermopro-ble).
enum ThermoPro: SensorFamily {
    static let rank = 65
    static let reads: [SensorSource] = [.anyCompany]

    static func decode(_ frame: SensorFrame, keys: SensorKeys?) -> SensorData? {
        guard let name = frame.name, name.hasPrefix("TP35") || name.hasPrefix("TP39"),
              frame.manufacturerData.count == 1, let bytes = frame.wholeBlock, bytes.count >= 6 else { return nil }
        let model = SensorModel(maker: "ThermoPro", model: String(name.split(separator: " ").first ?? ""))
        var readings: [SensorReading] = []
        // Two bits of battery: low, half, full.
        switch bytes[4] & 3 {
        case 0: readings.append(SensorReading(.battery, 1))
        case 1: readings.append(SensorReading(.battery, 50))
        case 2: readings.append(SensorReading(.battery, 100))
        default: break
        }
        // FF FF FF: no reading yet.
        guard bytes[1..<4] != [0xFF, 0xFF, 0xFF] else { return SensorData(model: model, readings: readings) }
        let b = SensorBytes(bytes)
        guard let t = b.sle(1, 2), bytes[3] <= 100 else { return SensorData(model: model, readings: readings) }
        return SensorData(model: model, readings: [SensorReading(.temperature, Double(t) / 10, decimals: 1),
                                                   SensorReading(.humidity, Double(bytes[3]))] + readings)
    }
}
