// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// Qingping (ClearGrass) monitors, service data 0xFDCD: a flags byte, a product byte, the
/// address, then readings as type, length, value (little-endian): the motion sensor's motion
/// (with the light, but in an event frame only the motion counts) and bright or dark, the
/// contact sensor's door. Source: Qingping's BLE
/// advertising as documented by the community (ble_monitor's qingping parser; pvvx's TLB2Z
/// notes on the event flag; Home Assistant's qingping-ble for the motion, light and door).
enum Qingping: SensorFamily {
    static let rank = 75
    static let reads: [SensorSource] = [.service("FDCD")]

    static let door = Quantity.known("door")
    static let leftOpen = Quantity.known("problem")
    static let motion = Quantity.known("motion")
    static let light = Quantity.known("light")

    static let products: [UInt8: String] = [
        0x01: "CGG1", 0x04: "CGH1", 0x07: "CGG1", 0x09: "CGP1W", 0x0C: "CGD1", 0x0E: "CGDN1", 0x0F: "CGM1",
        0x10: "CGDK2", 0x12: "CGPR1", 0x15: "CGF1W", 0x16: "CGG1", 0x18: "CGP23W", 0x1E: "CGC1", 0x24: "CGDN1",
        0x26: "CGP23W", 0x33: "CGP22C", 0x4F: "CGG3", 0x52: "CGR1PC", 0x5D: "CGP22C", 0x62: "CGR1PC",
    ]

    static func decode(_ frame: SensorFrame, keys: SensorKeys?) -> SensorData? {
        guard let data = frame.service("FDCD"), data.count >= 2, let model = products[data[1]] else { return nil }
        var out = SensorData(model: SensorModel(maker: "Qingping", model: model))
        // In an event frame (bit 6 of the flags) the light bytes after motion are not a reading.
        let event = data[0] & 0x40 != 0
        var i = 8
        while i + 2 <= data.count {
            let type = data[i], length = Int(data[i + 1])
            guard i + 2 + length <= data.count else {
                out.skipped.append("reading 0x\(Hex.compact([type])): overruns the frame")
                break
            }
            let v = SensorBytes(Array(data[(i + 2)..<(i + 2 + length)]))
            // One figure per quantity: a later one (the light in 0x09 after 0x08's) replaces it, as qingping-ble reads it.
            for r in reading(type, v, event: event) {
                out.readings.removeAll { $0.quantity == r.quantity }
                out.readings.append(r)
            }
            i += 2 + length
        }
        return out
    }

    static func reading(_ type: UInt8, _ v: SensorBytes, event: Bool) -> [SensorReading] {
        switch (type, v.count) {
        case (0x01, 4):
            guard let t = v.sle(0, 2), let h = v.le(2, 2), h <= 1000 else { return [] }
            return [SensorReading(.temperature, Double(t) / 10, decimals: 1), SensorReading(.humidity, Double(h) / 10, decimals: 1)]
        case (0x02, 1):
            // 0xFF: powered from outside, as full.
            guard let level = v[0], level <= 100 || level == 0xFF else { return [] }
            return [SensorReading(.battery, level == 0xFF ? 100 : Double(level))]
        case (0x04, 1):
            // The contact sensor: 0 open, 1 closed, 2 open too long.
            guard let state = v[0], state <= 2 else { return [] }
            return [SensorReading(door, state != 1 ? 1 : 0), SensorReading(leftOpen, state == 2 ? 1 : 0)]
        case (0x07, 2): return v.le(0, 2).map { [SensorReading(.pressure, Double($0) / 10, decimals: 1)] } ?? []
        case (0x08, 4):
            guard let moved = v[0], let low = v.le(1, 2), let high = v[3] else { return [] }
            let seen = SensorReading(motion, moved != 0 ? 1 : 0)
            return event ? [seen] : [seen, SensorReading(.illuminance, Double(low + UInt64(high) << 16))]
        case (0x11, 1): return v[0].map { [SensorReading(light, $0 != 0 ? 1 : 0)] } ?? []
        case (0x09, 4): return v.le(0, 4).map { [SensorReading(.illuminance, Double($0))] } ?? []
        case (0x12, 4):
            guard let pm25 = v.le(0, 2), let pm10 = v.le(2, 2) else { return [] }
            return [SensorReading(.pm25, Double(pm25)), SensorReading(.pm10, Double(pm10))]
        case (0x13, 2): return v.le(0, 2).map { [SensorReading(.carbonDioxide, Double($0))] } ?? []
        default: return []
        }
    }
}
