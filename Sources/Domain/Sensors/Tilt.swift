// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// Tilt hydrometers: an iBeacon whose UUID is A495BBx0-C5B1-4B44-B512-1370F02D74DE, x the
/// colour (1 red … 8 pink); major is the wort's temperature in whole °F, minor its specific
/// gravity × 1000. Source: Tilt's own iBeacon description (tilthydrometer.com, "Tilt data
/// format"). More specific than a plain iBeacon, so it outranks that family.
enum Tilt: SensorFamily {
    static let rank = 60
    static let reads: [SensorSource] = [.company(0x004C)]

    static let colours = ["Red", "Green", "Black", "Purple", "Orange", "Blue", "Yellow", "Pink"]
    static let gravity = Quantity.known("specific_gravity")

    static func decode(_ frame: SensorFrame, keys: SensorKeys?) -> SensorData? {
        guard let data = frame.company(0x004C), data.count == 23, data[0] == 0x02, data[1] == 0x15,
              data[2] == 0xA4, data[3] == 0x95, data[4] == 0xBB, data[5] & 0x0F == 0,
              Array(data[6..<18]) == [0xC5, 0xB1, 0x4B, 0x44, 0xB5, 0x12, 0x13, 0x70, 0xF0, 0x2D, 0x74, 0xDE] else { return nil }
        let colour = Int(data[5] >> 4)
        guard (1...8).contains(colour) else { return nil }
        let b = SensorBytes(data)
        guard let fahrenheit = b.be(18, 2), let sg = b.be(20, 2), fahrenheit < 250, sg > 0, sg < 2000 else { return nil }
        return SensorData(model: SensorModel(maker: "Tilt", model: "Hydrometer (\(colours[colour - 1]))"), readings: [
            SensorReading(.temperature, (Double(fahrenheit) - 32) * 5 / 9, decimals: 2),
            SensorReading(gravity, Double(sg) / 1000, decimals: 3),
        ])
    }
}
