// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// April Brother's ABTemp: an iBeacon with the UUID B5B182C7-EAB1-4988-AA99-B5C1517008D9 whose
/// minor is the battery and the temperature (whole °C, signed), one byte each. Its N03: 15 bytes
/// of service data starting AB 03, then its address (told by it, whatever the UUID), the
/// battery, and little-endian the temperature in eighths of a degree (signed), the humidity in
/// halves of a percent and the light in lux. Source: Theengs Decoder's ABTemp and ABN03 entries
/// (github.com/theengs/decoder, src/devices/ABTemp_json.h, ABN03_json.h).
enum AprilBrother: SensorFamily {
    static let rank = 62  // over a plain iBeacon
    static let reads: [SensorSource] = [.company(0x004C), .anyService]

    static func n03(_ frame: SensorFrame) -> SensorData? {
        for data in frame.serviceData.values where data.count == 15 && data[0] == 0xAB && data[1] == 0x03 {
            let b = SensorBytes(data)
            guard frame.carriesItsAddress(data[2..<8]), data[8] <= 100, let t = b.sle(9, 2), let h = b.le(11, 2), h <= 200,
                  let lux = b.le(13, 2) else { continue }
            return SensorData(model: SensorModel(maker: "April Brother", model: "N03"), readings: [
                SensorReading(.temperature, Double(t) / 8, decimals: 3), SensorReading(.humidity, Double(h) / 2, decimals: 1),
                SensorReading(.illuminance, Double(lux)), SensorReading(.battery, Double(data[8])),
            ])
        }
        return nil
    }
    static let uuid: [UInt8] = [0x02, 0x15, 0xB5, 0xB1, 0x82, 0xC7, 0xEA, 0xB1, 0x49, 0x88, 0xAA, 0x99, 0xB5, 0xC1, 0x51, 0x70, 0x08, 0xD9]

    static func decode(_ frame: SensorFrame, keys: SensorKeys?) -> SensorData? {
        if !frame.serviceData.isEmpty, let data = n03(frame) { return data }
        guard let data = frame.company(0x004C), data.count == 23, Array(data[0..<18]) == uuid, data[20] <= 100 else { return nil }
        return SensorData(model: SensorModel(maker: "April Brother", model: "ABTemp"), readings: [
            SensorReading(.temperature, Double(Int8(bitPattern: data[21]))), SensorReading(.battery, Double(data[20])),
        ])
    }
}
