// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// KKM's sensor frame, which KKM's beacons (K6P, K9) and BlueCharm's (BC08, BC04P, BC021)
/// send beside their Eddystone frames: service data 0xFEAA, frame type 0x21, version 1, then a
/// mask saying which values follow, in its bit order, big-endian: bit 0 the battery (mV), bit 1
/// the temperature and bit 2 the humidity (each 8.8 fixed point), bit 3 the acceleration (three
/// signed 16-bit axes in thousandths of g). Source: Theengs Decoder's KKM_K6P, KKM_K9 and BC08 entries
/// (github.com/theengs/decoder, src/devices/), which cut the fraction to hundredths.
enum KSensor: SensorFamily {
    static let rank = 40  // above Eddystone, whose frame types it does not use
    static let reads: [SensorSource] = [.service("FEAA")]
    static let acceleration = Quantity.known("acceleration")

    static func decode(_ frame: SensorFrame, keys: SensorKeys?) -> SensorData? {
        guard let data = frame.service("FEAA"), data.count >= 3, data[0] == 0x21, data[1] == 0x01 else { return nil }
        let mask = data[2]
        // Bits this reader does not know leave the layout unknown: nothing is guessed.
        guard mask & 0xF0 == 0, mask != 0 else { return nil }
        let sizes: [(bit: UInt8, size: Int)] = [(0x01, 2), (0x02, 2), (0x04, 2), (0x08, 6)]
        let length = sizes.reduce(3) { mask & $1.bit != 0 ? $0 + $1.size : $0 }
        guard data.count == length else { return nil }
        var at = 3, readings: [SensorReading] = []
        for (bit, size) in sizes where mask & bit != 0 {
            defer { at += size }
            switch bit {
            case 0x01: readings.append(SensorReading(.voltage, Double(Int(data[at]) << 8 | Int(data[at + 1])) / 1000, decimals: 3))
            case 0x02: readings.append(SensorReading(.temperature, fixed(data[at], data[at + 1], signed: true), decimals: 2))
            case 0x04: readings.append(SensorReading(.humidity, fixed(data[at], data[at + 1], signed: false), decimals: 2))
            default:
                // Three axes in thousandths of g, as m/s², one slot an axis.
                for axis in 0..<3 {
                    let mg = Int16(bitPattern: UInt16(data[at + 2 * axis]) << 8 | UInt16(data[at + 2 * axis + 1]))
                    readings.append(SensorReading(acceleration, Double(mg) / 1000 * 9.80665, decimals: 4, slot: axis + 1))
                }
            }
        }
        let model = mask & 0x08 != 0 ? "Sensor beacon (acceleration)" : "Sensor beacon"
        return SensorData(model: SensorModel(maker: "KKM", model: model), readings: readings)
    }

    /// 8.8 fixed point, the fraction cut to hundredths as the makers' apps show it.
    static func fixed(_ whole: UInt8, _ fraction: UInt8, signed: Bool) -> Double {
        Double(signed ? Int(Int8(bitPattern: whole)) : Int(whole)) + Double(Int(fraction) * 100 / 256) / 100
    }
}
