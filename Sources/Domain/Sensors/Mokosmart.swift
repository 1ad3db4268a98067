// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// Mokosmart's BeaconX Pro: service data 0xFEAB whose first byte is the frame's kind, values
/// big-endian: 0x70 the temperature (signed tenths), the humidity (tenths) and the battery in
/// mV from byte 3; 0x40 the battery in mV at byte 3; 0x60 the three axes of its accelerometer
/// (signed, ten-thousandths of g) from byte 6 and the battery in mV at byte 12. Source: Theengs
/// Decoder's MBXPRO entry (github.com/theengs/decoder, src/devices/MBXPRO_json.h).
enum Mokosmart: SensorFamily {
    static let rank = 68
    static let reads: [SensorSource] = [.service("FEAB")]
    static let acceleration = Quantity.known("acceleration")

    static func decode(_ frame: SensorFrame, keys: SensorKeys?) -> SensorData? {
        guard let data = frame.service("FEAB"), let kind = data.first else { return nil }
        let b = SensorBytes(data)
        let model = SensorModel(maker: "Mokosmart", model: "BeaconX Pro")
        switch kind {
        case 0x70:
            guard let t = b.sbe(3, 2), let h = b.be(5, 2), h <= 1000, let mv = b.be(7, 2) else { return nil }
            return SensorData(model: model, readings: [
                SensorReading(.temperature, Double(t) / 10, decimals: 1), SensorReading(.humidity, Double(h) / 10, decimals: 1),
                SensorReading(.voltage, Double(mv) / 1000, decimals: 3),
            ])
        case 0x40:
            guard let mv = b.be(3, 2) else { return nil }
            return SensorData(model: model, readings: [SensorReading(.voltage, Double(mv) / 1000, decimals: 3)])
        case 0x60:
            guard let x = b.sbe(6, 2), let y = b.sbe(8, 2), let z = b.sbe(10, 2), let mv = b.be(12, 2) else { return nil }
            // In m/s², one slot an axis: x, y, z.
            return SensorData(model: model, readings: [x, y, z].enumerated().map { axis, g in
                SensorReading(acceleration, Double(g) / 10000 * 9.80665, decimals: 4, slot: axis + 1)
            } + [SensorReading(.voltage, Double(mv) / 1000, decimals: 3)])
        default:
            return nil
        }
    }
}
