// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// April Brother's ABTemp: an iBeacon with the UUID B5B182C7-EAB1-4988-AA99-B5C1517008D9 whose
/// minor is the battery and the temperature (whole °C, signed), one byte each. Source: Theengs
/// Decoder's ABTemp entry (github.com/theengs/decoder, src/devices/ABTemp_json.h).
enum AprilBrother: SensorFamily {
    static let rank = 62  // over a plain iBeacon
    static let reads: [SensorSource] = [.company(0x004C)]
    static let uuid: [UInt8] = [0x02, 0x15, 0xB5, 0xB1, 0x82, 0xC7, 0xEA, 0xB1, 0x49, 0x88, 0xAA, 0x99, 0xB5, 0xC1, 0x51, 0x70, 0x08, 0xD9]

    static func decode(_ frame: SensorFrame, keys: SensorKeys?) -> SensorData? {
        guard let data = frame.company(0x004C), data.count == 23, Array(data[0..<18]) == uuid, data[20] <= 100 else { return nil }
        return SensorData(model: SensorModel(maker: "April Brother", model: "ABTemp"), readings: [
            SensorReading(.temperature, Double(Int8(bitPattern: data[21]))), SensorReading(.battery, Double(data[20])),
        ])
    }
}
