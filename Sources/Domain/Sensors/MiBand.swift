// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// Xiaomi's Mi Band and Amazfit watches, which advertise while worn: company 0x0157, 24 bytes
/// ending with the band's own address (the one heard), the heart rate at byte 3 when byte 0 is
/// 0x02 and a rate is measured (0xFF none), and, in service data 0xFEE0, today's steps
/// (little-endian). Source: Theengs Decoder's Miband entry (github.com/theengs/decoder,
/// src/devices/Miband_json.h).
enum MiBand: SensorFamily {
    static let rank = 68
    static let reads: [SensorSource] = [.company(0x0157)]
    static let heartRate = Quantity.known("heart_rate")
    static let steps = Quantity.known("steps")

    static func decode(_ frame: SensorFrame, keys: SensorKeys?) -> SensorData? {
        guard let data = frame.company(0x0157), data.count == 24, frame.carriesItsAddress(data[18...])
        else { return nil }
        var out = SensorData(model: SensorModel(maker: "Xiaomi/Amazfit", model: "Band"))
        if data[0] == 0x02, data[3] < 0xF0 { out.readings.append(SensorReading(heartRate, Double(data[3]))) }
        if let counted = frame.service("FEE0"), counted.count == 4, let value = SensorBytes(counted).le(0, 4) {
            out.readings.append(SensorReading(steps, Double(value)))
        }
        return out
    }
}
