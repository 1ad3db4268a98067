// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// The RAPT Pill hydrometer: "company" 0x4152 ("RA"), then "PT", a version and big-endian
/// metrics. Version 1: the address, the temperature in 128ths of a kelvin, the specific gravity
/// ×1000 as a float, three axes and the battery in 256ths of a percent. Version 2: a byte, a
/// flag and a float (how fast the gravity falls) in place of the address. Source: Home
/// Assistant's rapt-ble (the Pill's documented payload).
enum RAPT: SensorFamily {
    static let rank = 68
    static let reads: [SensorSource] = [.company(0x4152)]
    static let gravity = Quantity.known("specific_gravity")

    static func decode(_ frame: SensorFrame, keys: SensorKeys?) -> SensorData? {
        guard let data = frame.company(0x4152), data.count == 23, data[0] == 0x50, data[1] == 0x54, [1, 2].contains(data[2]) else { return nil }
        let b = SensorBytes(data)
        // Both versions put the temperature at byte 9: after the address, or after the gravity's velocity.
        guard let kelvin = b.be(9, 2), let bits = b.be(11, 4), let battery = b.sbe(21, 2) else { return nil }
        let sg = Double(Float(bitPattern: UInt32(bits))) / 1000
        guard sg.isFinite, (0...3).contains(sg) else { return nil }
        return SensorData(model: SensorModel(maker: "RAPT", model: "Pill"), readings: [
            SensorReading(.temperature, Double(kelvin) / 128 - 273.15, decimals: 2),
            SensorReading(gravity, sg, decimals: 4),
            SensorReading(.battery, (Double(battery) / 256).rounded(.toNearestOrEven)),
        ])
    }
}
