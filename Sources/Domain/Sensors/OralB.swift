// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// Oral-B toothbrushes: company 0x00DC, 9 or 11 bytes: a protocol byte, the model, a byte,
/// the state (3 is brushing), the pressure, the brushing time (minutes, seconds), the mode and
/// the sector. Source: the community's decoding of Oral-B broadcasts (Home Assistant's
/// oralb-ble, after ble_monitor's oral_b parser).
enum OralB: SensorFamily {
    static let rank = 60
    static let reads: [SensorSource] = [.company(0x00DC)]
    static let brushing = Quantity.known("brushing")
    static let duration = Quantity.known("duration")
    /// Model numbers by line (one line has a number per mode set).
    static func model(_ id: UInt8) -> String {
        switch id {
        case 0...2: "Triumph D36"
        case 32...34: "Genius Series D701"
        case 39...41: "Smart Series D700"
        case 52: "iO Series 4"
        case 53: "iO Series 5"
        case 48...54: "iO Series"
        case 64...70: "Smart Series D21"
        case 80...87: "Pro Series D601"
        case 112...119: "Genius X D706"
        default: "Toothbrush"
        }
    }

    static func decode(_ frame: SensorFrame, keys: SensorKeys?) -> SensorData? {
        guard let data = frame.company(0x00DC), data.count == 9 || data.count == 11 else { return nil }
        return SensorData(model: SensorModel(maker: "Oral-B", model: model(data[1])), readings: [
            SensorReading(duration, Double(Int(data[5]) * 60 + Int(data[6]))),
            SensorReading(brushing, data[3] == 3 ? 1 : 0),
        ])
    }
}
