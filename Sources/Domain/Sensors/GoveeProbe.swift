// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// Govee H5055 six-probe grill thermometer: a 20-byte manufacturer block with service 5550
/// listed; heard passively, without the scan response that lists it, by its block under 0x04CF
/// whose bytes 4 and 11 (each probe's kind) are 0x06 or 0x20, as Theengs tells it. Each frame carries two probes: byte 3's top two bits say which pair (1–2, 3–4, 5–6)
/// and its low six bits which probes are plugged in; then, from byte 5, each probe's
/// temperature and its low and high alarms (signed, whole °C, little-endian), and the battery
/// (byte 2, low 7 bits). Source: the community's decoding of Govee's broadcasts (Home
/// Assistant's govee-ble, "H5055"; Theengs Decoder's H5055 entry).
enum GoveeProbe: SensorFamily {
    static let rank = 70
    static let reads: [SensorSource] = [.anyCompany]
    static let sendsPartialFrames = true
    static let alarmHigh = Quantity.known("temperature_alarm_high")
    static let alarmLow = Quantity.known("temperature_alarm_low")

    static func mayClaim(_ services: [ServiceID], _ blocks: [ManufacturerData], _ serviceData: [ServiceID: [UInt8]]) -> Bool {
        services.lists("5550") || blocks.contains { $0.companyID == 0x04CF && $0.data.count == 20 }
    }

    /// The pair of probes a frame is for.
    static func contents(_ frame: SensorFrame) -> FrameContents? {
        guard let data = frame.manufacturerData.last?.data, data.count == 20 else { return nil }
        var out = FrameContents(self)
        return out.add(UInt32(data[3] & 0xC0)) ? out : nil
    }

    static func decode(_ frame: SensorFrame, keys: SensorKeys?) -> SensorData? {
        guard let data = frame.manufacturerData.last?.data, data.count == 20 else { return nil }
        guard frame.lists("5550") || (frame.manufacturerData.last?.companyID == 0x04CF && heardPassively(data)) else { return nil }
        let pairs: [UInt8: Int] = [0x00: 1, 0x40: 3, 0x80: 5]
        guard let first = pairs[data[3] & 0xC0] else { return nil }
        let b = SensorBytes(data)
        var readings: [SensorReading] = []
        for (index, offset) in [(0, 5), (1, 12)] {
            let probe = first + index
            guard data[3] & (1 << (probe - 1)) != 0, let t = b.sle(offset, 2), let low = b.sle(offset + 2, 2),
                  let high = b.sle(offset + 4, 2) else { continue }
            readings.append(SensorReading(.temperature, Double(t), slot: probe))
            // An alarm below zero is one not set.
            if high >= 0 { readings.append(SensorReading(alarmHigh, Double(high), slot: probe)) }
            if low >= 0 { readings.append(SensorReading(alarmLow, Double(low), slot: probe)) }
        }
        readings.append(SensorReading(.battery, Double(data[2] & 0x7F)))
        var out = SensorData(model: SensorModel(maker: "Govee", model: "H5055"), readings: readings)
        out.partial = true
        out.slotsCarried = [first, first + 1]
        return out
    }

    /// The shape of its block when nothing else tells it: each probe's kind byte, and byte 18's high nibble clear.
    static func heardPassively(_ data: [UInt8]) -> Bool {
        [0x06, 0x20].contains(data[4]) && [0x06, 0x20].contains(data[11]) && data[18] >> 4 == 0
    }
}
