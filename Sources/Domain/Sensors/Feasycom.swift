// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// Feasycom's beacons (BP101 to BP201): 11 bytes of service data 0xFFF0, the model's byte, three
/// bytes, the beacon's address (forward, so a frame is told by it), and the battery, or 0x65 for
/// one on external power. Source: Theengs Decoder's FEASY entry (github.com/theengs/decoder,
/// src/devices/FEASY_json.h).
enum Feasycom: SensorFamily {
    static let rank = 68
    static let reads: [SensorSource] = [.service("FFF0")]
    static let plug = Quantity.known("plug")
    static let models: [UInt8: String] = [
        0x15: "BP102", 0x19: "BP109", 0x1A: "BP103", 0x1B: "BP104", 0x1C: "BP201", 0x1D: "BP106", 0x1E: "BP101", 0x24: "BP120",
        0x27: "BP108", 0x28: "BP108N", 0x29: "BP103B",
    ]

    static func decode(_ frame: SensorFrame, keys: SensorKeys?) -> SensorData? {
        guard let data = frame.service("FFF0"), data.count == 11, let model = models[data[0]], frame.carriesItsAddress(data[4..<10])
        else { return nil }
        let powered = data[10] == 0x65
        var readings = [SensorReading(plug, powered ? 1 : 0)]
        if !powered, data[10] & 0x7F <= 100 { readings.append(SensorReading(.battery, Double(data[10] & 0x7F))) }
        return SensorData(model: SensorModel(maker: "Feasycom", model: model), readings: readings)
    }
}
