// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// The BM2 and BM6 car-battery monitors, which advertise an iBeacon of their own UUID with the
/// monitored battery's charge in percent: the BM2's in the power byte (the frame's last), the
/// BM6's in the major's low byte. Their voltage is only sent over an encrypted connection.
/// Source: Theengs Decoder's BM2 and BM6 entries (github.com/theengs/decoder, src/devices/).
enum BatteryMonitors: SensorFamily {
    static let rank = 62  // over a plain iBeacon
    static let reads: [SensorSource] = [.company(0x004C)]
    static let bm2: [UInt8] = [0x65, 0x5F, 0x83, 0xCA, 0xAE, 0x16, 0xA1, 0x0A, 0x70, 0x2E, 0x31, 0xF3, 0x0D, 0x58, 0xDD, 0x82]
    static let bm6: [UInt8] = [0x3B, 0xA2, 0x9C, 0xD9, 0xA4, 0x2C, 0x89, 0x48, 0x56, 0xBA, 0xDA, 0xF2, 0x60, 0x6E, 0xF7, 0x77]

    static func decode(_ frame: SensorFrame, keys: SensorKeys?) -> SensorData? {
        guard let data = frame.company(0x004C), data.count == 23, data[0] == 0x02, data[1] == 0x15 else { return nil }
        let uuid = Array(data[2..<18])
        let (model, charge): (String, UInt8)
        if uuid == bm2 { (model, charge) = ("BM2", data[22]) } else if uuid == bm6 { (model, charge) = ("BM6", data[19]) } else { return nil }
        guard charge <= 100 else { return nil }
        return SensorData(model: SensorModel(maker: "BM", model: model), readings: [SensorReading(.battery, Double(charge))])
    }
}
