// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// Chest straps that advertise the heart rate as well as serving it: Polar's H10 (company
/// 0x006B, four bytes, the rate last) and XOSS's X2 (company 0xFF04, four bytes: one, the
/// battery in the low 7 bits, one, the rate). Source: Theengs Decoder's PH10 and XOSSX2 entries
/// (github.com/theengs/decoder, src/devices/).
enum HeartRateBands: SensorFamily {
    static let rank = 68
    static let reads: [SensorSource] = [.company(0x006B), .company(0xFF04)]
    static let heartRate = Quantity.known("heart_rate")

    static func decode(_ frame: SensorFrame, keys: SensorKeys?) -> SensorData? {
        if let data = frame.company(0x006B), data.count == 4 {
            return SensorData(model: SensorModel(maker: "Polar", model: "H10"), readings: [SensorReading(heartRate, Double(data[3]))])
        }
        if let data = frame.company(0xFF04), data.count == 4, data[1] & 0x7F <= 100 {
            return SensorData(model: SensorModel(maker: "XOSS", model: "X2"), readings: [
                SensorReading(heartRate, Double(data[3])), SensorReading(.battery, Double(data[1] & 0x7F)),
            ])
        }
        return nil
    }
}
