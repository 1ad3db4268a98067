// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation

/// The SmartDry laundry sensor, which rides in the dryer: company 0x01AE, twelve bytes,
/// little-endian: the temperature and the humidity as 32-bit floats, a shake value (16 bits),
/// the battery as millivolts above 2,847, and a wake bit. Source: Theengs Decoder's SmartDry
/// entry (github.com/theengs/decoder, src/devices/SmartDry_json.h).
enum SmartDry: SensorFamily {
    static let rank = 70
    static let reads: [SensorSource] = [.company(0x01AE)]

    static func decode(_ frame: SensorFrame, keys: SensorKeys?) -> SensorData? {
        guard let data = frame.company(0x01AE), data.count == 12 else { return nil }
        let b = SensorBytes(data)
        guard let t = b.le(0, 4), let h = b.le(4, 4) else { return nil }
        let temperature = Double(Float(bitPattern: UInt32(t))), humidity = Double(Float(bitPattern: UInt32(h)))
        // A float that is not a number, or a figure no dryer reaches, is no reading: not this sensor's frame.
        guard temperature.isFinite, humidity.isFinite, (-40...150).contains(temperature), (0...100).contains(humidity) else { return nil }
        return SensorData(model: SensorModel(maker: "SmartDry", model: "Laundry Sensor"), readings: [
            SensorReading(.temperature, temperature, decimals: 2),
            SensorReading(.humidity, humidity, decimals: 2),
            SensorReading(.voltage, Double(Int(data[10]) + 2847) / 1000, decimals: 3),
        ])
    }
}
