// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// b-parasite soil sensors, protocol 1 and 2, on service data 0x181A (16 or 18 bytes,
/// big-endian): the protocol in the first byte's high nibble and whether light is sent in bit 0,
/// a counter, the battery in mV, the temperature (mK in protocol 1, centidegrees in 2),
/// humidity and soil moisture (each a fraction of 65535), the address, then light in lux.
/// Newer firmware speaks BTHome, read there. Source: the project's own firmware,
/// github.com/rbaron/b-parasite, "BLE encoding".
enum BParasite: SensorFamily {
    static let rank = 82  // a 16- or 18-byte 0x181A frame is not a custom Xiaomi firmware's
    static let reads: [SensorSource] = [.service("181A")]

    static func decode(_ frame: SensorFrame, keys: SensorKeys?) -> SensorData? {
        guard let data = frame.service("181A"), data.count >= 16 else { return nil }
        let version = data[0] >> 4
        guard version == 1 || version == 2 else { return nil }
        let b = SensorBytes(data)
        guard let mv = b.be(2, 2), let t = b.sbe(4, 2), let h = b.be(6, 2), let m = b.be(8, 2) else { return nil }
        var readings = [
            SensorReading(.temperature, version == 1 ? Double(t) / 1000 : Double(t) / 100, decimals: version == 1 ? 3 : 2),
            SensorReading(.humidity, Double(h) / 655.35, decimals: 2),
            SensorReading(.moisture, Double(m) / 655.35, decimals: 2),
            SensorReading(.voltage, Double(mv) / 1000, decimals: 3),
        ]
        if data[0] & 0x01 != 0, let lux = b.be(16, 2) { readings.append(SensorReading(.illuminance, Double(lux))) }
        return SensorData(model: SensorModel(maker: "b-parasite", model: "v\(version)"), readings: readings)
    }
}
