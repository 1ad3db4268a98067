// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// Govee H5055 six-probe grill thermometer: a 20-byte manufacturer block with service 5550
/// listed. Each frame carries two probes: byte 3's top two bits say which pair (1–2, 3–4, 5–6)
/// and its low six bits which probes are plugged in; then, from byte 5, each probe's
/// temperature and its low and high alarms (signed, whole °C, little-endian), and the battery
/// (byte 2, low 7 bits). Source: the community's decoding of Govee's broadcasts (Home
/// Assistant's govee-ble, "H5055"; Theengs Decoder's H5055 entry).
enum GoveeProbe: SensorFamily {
    static let rank = 70
    static let reads: [SensorSource] = [.anyCompany]
    static let sendsPartialFrames = true
    static func mayClaim(_ services: [ServiceID]) -> Bool { services.lists("5550") }

    static func decode(_ frame: SensorFrame, keys: SensorKeys?) -> SensorData? {
        guard frame.lists("5550"), let data = frame.manufacturerData.last?.data, data.count == 20 else { return nil }
        let pairs: [UInt8: Int] = [0x00: 1, 0x40: 3, 0x80: 5]
        guard let first = pairs[data[3] & 0xC0] else { return nil }
        let b = SensorBytes(data)
        var readings: [SensorReading] = []
        for (index, offset) in [(0, 5), (1, 12)] {
            let probe = first + index
            guard data[3] & (1 << (probe - 1)) != 0, let t = b.sle(offset, 2) else { continue }
            readings.append(SensorReading(.temperature, Double(t), slot: probe))
        }
        readings.append(SensorReading(.battery, Double(data[2] & 0x7F)))
        var out = SensorData(model: SensorModel(maker: "Govee", model: "H5055"), readings: readings)
        out.partial = true
        return out
    }
}
