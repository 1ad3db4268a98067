// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// Mokosmart's BeaconX Pro: service data 0xFEAB whose first byte is the frame's kind, values
/// big-endian: 0x70 the temperature (signed tenths), the humidity (tenths) and the battery in
/// mV from byte 3; 0x40 the battery in mV at byte 3; 0x60 the three axes of its accelerometer
/// (signed, ten-thousandths of g) from byte 6 and the battery in mV at byte 12. Source: Theengs
/// Decoder's MBXPRO entry (github.com/theengs/decoder, src/devices/MBXPRO_json.h). Its older
/// beacon: 13 bytes of service data 0xFF01, the battery first, then from byte 7 the three axes
/// (signed, ten-thousandths of g), big-endian (Theengs' Mokobeacon entry).
enum Mokosmart: SensorFamily {
    static let rank = 68
    static let reads: [SensorSource] = [.service("FEAB"), .service("FF01")]
    static let acceleration = Quantity.known("acceleration")

    /// In m/s², one slot an axis: x, y, z.
    static func axes(_ b: SensorBytes, at offset: Int) -> [SensorReading]? {
        guard let x = b.sbe(offset, 2), let y = b.sbe(offset + 2, 2), let z = b.sbe(offset + 4, 2) else { return nil }
        return [x, y, z].enumerated().map { axis, g in SensorReading(acceleration, Double(g) / 10000 * 9.80665, decimals: 4, slot: axis + 1) }
    }

    static func decode(_ frame: SensorFrame, keys: SensorKeys?) -> SensorData? {
        if let data = frame.service("FF01") {
            guard data.count == 13, data[0] <= 100, let axes = axes(SensorBytes(data), at: 7) else { return nil }
            return SensorData(model: SensorModel(maker: "Mokosmart", model: "Beacon"), readings: axes + [SensorReading(.battery, Double(data[0]))])
        }
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
            guard let axes = axes(b, at: 6), let mv = b.be(12, 2) else { return nil }
            return SensorData(model: model, readings: axes + [SensorReading(.voltage, Double(mv) / 1000, decimals: 3)])
        default:
            return nil
        }
    }
}
