// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// Xiaomi's bathroom scales, which send the weighing as it goes: the Mi Smart Scale
/// (XMTZC01HM, XMTZC04HM) as 10 bytes of service data 0x181D (a control byte, then the weight,
/// little-endian), the Mi Body Composition Scale (XMTZC02HM, XMTZC05HM) as 13 bytes of 0x181B
/// (two control bytes, the date, the impedance and the weight). The weight is in kg × 200, lb ×
/// 100 or catty × 100 as the control bits say, and is read only once the scale calls it stable
/// and nobody has stepped off, as a figure that is still settling is not a weighing. Source:
/// Home Assistant's xiaomi-ble (`_parse_scale_v1`, `_parse_scale_v2`) and Theengs Decoder's
/// XMTZC04HMKG and XMTZC05HMKG entries (github.com/theengs/decoder, src/devices/).
enum XiaomiScale: SensorFamily {
    static let rank = 70
    static let reads: [SensorSource] = [.service("181D"), .service("181B")]

    static let impedance = Quantity.known("impedance")

    static func decode(_ frame: SensorFrame, keys: SensorKeys?) -> SensorData? {
        if let data = frame.service("181D"), data.count == 10 {
            let control = data[0]
            let raw = Double(Int(data[1]) | Int(data[2]) << 8)
            return reading(raw, pounds: control & 0x01 != 0, catty: control & 0x10 != 0, stable: control & 0x20 != 0,
                           removed: control & 0x80 != 0, model: "Mi Smart Scale")
        }
        if let data = frame.service("181B"), data.count == 13 {
            // The two control bytes as one big-endian word, bit 15 first.
            let control = Int(data[0]) << 8 | Int(data[1])
            func bit(_ n: Int) -> Bool { control & (1 << (15 - n)) != 0 }
            let raw = Double(Int(data[11]) | Int(data[12]) << 8)
            guard var scale = reading(raw, pounds: bit(7), catty: bit(9), stable: bit(10), removed: bit(8),
                                      model: "Mi Body Composition Scale") else { return nil }
            if !scale.readings.isEmpty, bit(14) {
                scale.readings.append(SensorReading(impedance, Double(Int(data[9]) | Int(data[10]) << 8)))
            }
            return scale
        }
        return nil
    }

    /// The weight in kg, once stable; a frame while it settles names the scale and reads nothing.
    static func reading(_ raw: Double, pounds: Bool, catty: Bool, stable: Bool, removed: Bool, model: String) -> SensorData? {
        let kilograms = pounds ? raw * 0.0045359237 : catty ? raw * 0.005 : raw / 200
        let scale = SensorModel(maker: "Xiaomi", model: model)
        guard stable, !removed, kilograms > 0 else { return SensorData(model: scale) }
        return SensorData(model: scale, readings: [SensorReading(.weight, kilograms, decimals: 2)])
    }
}
