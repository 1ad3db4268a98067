// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation

/// SensorPush HT1, HT.w, HTP.xw and TC.x. The readings fill the whole manufacturer block,
/// company ID included: the first byte's low two bits are the page (0 carries readings) and
/// its upper six the device type; the rest is one little-endian number in which each reading
/// is a digit of a mixed radix (its range over its step). The HT1, named "s", packs 12-bit
/// humidity and 14-bit temperature instead. Source: the community's decoding of SensorPush
/// broadcasts (Home Assistant's sensorpush-ble, after ble_monitor's sensorpush parser).
enum SensorPush: SensorFamily {
    static let rank = 66
    static let reads: [SensorSource] = [.anyCompany]

    /// Per device type: each reading's quantity, minimum, maximum and step.
    static let packing: [Int: (model: String, fields: [(Quantity, Double, Double, Double)])] = [
        64: ("HTP.xw", [(.temperature, -40, 140, 0.0025), (.humidity, 0, 100, 0.0025), (.pressure, 30000, 125000, 1)]),
        65: ("HT.w", [(.temperature, -40, 125, 0.0025), (.humidity, 0, 100, 0.0025)]),
        66: ("TC.x", [(.temperature, -200, 1800, 0.0625)]),
    ]
    static let ht1Service = "EF090000-11D6-42BA-93B8-9DD7EC090AA9"
    static let v2Service = "EF090000-11D6-42BA-93B8-9DD7EC090AB0"

    static func decode(_ frame: SensorFrame, keys: SensorKeys?) -> SensorData? {
        guard frame.manufacturerData.count == 1, let bytes = frame.wholeBlock else { return nil }
        let name = frame.name ?? ""
        if name == "s", frame.lists(ht1Service) { return ht1(bytes) }
        let named = ["HTP.xw", "HT.w", "TC"].contains { name.contains($0) }
        guard named || frame.lists(v2Service), bytes[0] & 0x03 == 0,
              let (model, fields) = packing[64 + Int(bytes[0] >> 2)], bytes.count <= 9 else { return nil }
        var packed: UInt64 = 0
        for byte in bytes.dropFirst().reversed() { packed = packed << 8 | UInt64(byte) }
        var readings: [SensorReading] = []
        var divisor: UInt64 = 1
        for (quantity, low, high, step) in fields {
            let radix = UInt64((high - low) / step + step / 2) + 1
            let count = (packed / divisor) % radix
            divisor *= radix
            var value = (Double(count) * step + low)
            value = (value * 100).rounded() / 100
            readings.append(quantity == .pressure ? SensorReading(.pressure, value / 100, decimals: 2)
                                                  : SensorReading(quantity, value, decimals: 2))
        }
        return SensorData(model: SensorModel(maker: "SensorPush", model: model), readings: readings)
    }

    static func ht1(_ bytes: [UInt8]) -> SensorData? {
        guard bytes.count >= 4, (bytes[3] & 0x7C) >> 2 == 1 else { return nil }
        let rawHumidity = Int(bytes[0]) + Int(bytes[1] & 0x0F) << 8
        let rawTemperature = Int(bytes[1]) >> 4 + Int(bytes[2]) << 4 + Int(bytes[3] & 0x03) << 12
        let humidity = min(100, max(0, -6 + 125 * Double(rawHumidity) / 4096))
        let temperature = -46.85 + 175.72 * Double(rawTemperature) / 16384
        return SensorData(model: SensorModel(maker: "SensorPush", model: "HT1"), readings: [
            SensorReading(.temperature, temperature, decimals: 2), SensorReading(.humidity, humidity, decimals: 2),
        ])
    }
}
