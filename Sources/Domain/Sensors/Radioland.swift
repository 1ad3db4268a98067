// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// Radioland's RDL52832 sensor beacon, named "RDL52832": beside its iBeacon, sixteen bytes of
/// service data, big-endian: the temperature and the humidity in 256ths (signed), then its
/// accelerometer. Source: Theengs Decoder's RDL52832 entry (github.com/theengs/decoder,
/// src/devices/RDL52832_json.h).
enum Radioland: SensorFamily {
    static let rank = 68
    static let reads: [SensorSource] = [.service("1803"), .service("0318")]

    static func decode(_ frame: SensorFrame, keys: SensorKeys?) -> SensorData? {
        guard frame.name?.hasPrefix("RDL52832") == true, let data = frame.service("1803") ?? frame.service("0318"), data.count == 16
        else { return nil }
        let b = SensorBytes(data)
        guard let t = b.sbe(0, 2), let h = b.sbe(2, 2), (0...25600).contains(h) else { return nil }
        return SensorData(model: SensorModel(maker: "Radioland", model: "RDL52832"), readings: [
            SensorReading(.temperature, Double(t) / 256, decimals: 2), SensorReading(.humidity, Double(h) / 256, decimals: 2),
        ])
    }
}
