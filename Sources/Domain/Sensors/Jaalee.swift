// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// Jaalee JHT thermo-hygrometers, in two formats:
/// - an iBeacon frame (Apple's company ID, 24 bytes) whose major is the temperature and minor the
///   humidity as Sensirion ticks (−45 + 175·t/65535 °C, 100·h/65535 %), and a battery byte after the
///   power. It is told by the service F525 or F51C in its scan response, or without one by the end
///   of its proximity UUID (…F525), so a passive scan reads it too;
/// - a compact block under any company ID (11 or 12 bytes): the battery, the device's own address
///   (reversed), and the same two ticks last. The address must be the one heard: that is how a
///   block of another maker's is told apart.
/// Sources: Theengs Decoder's Jaalee F525/F51C entry; Home Assistant's jaalee-ble (the UUID's end and
/// the compact format; its SHT31 conversion, the one Theengs uses).
enum Jaalee: SensorFamily {
    static let rank = 62  // over a plain iBeacon
    static let reads: [SensorSource] = [.company(0x004C), .anyCompany]

    static func decode(_ frame: SensorFrame, keys: SensorKeys?) -> SensorData? {
        if let data = frame.company(0x004C), data.count == 24,
           frame.lists("F525") || frame.lists("F51C") || (data[16] == 0xF5 && data[17] == 0x25) {
            let b = SensorBytes(data)
            guard let t = b.be(18, 2), let h = b.be(20, 2), let battery = b[23], battery <= 100 else { return nil }
            return reading(t, h, battery)
        }
        for block in frame.manufacturerData where [11, 12].contains(block.data.count) {
            let data = block.data
            guard frame.carriesItsAddress(data[1...6], reversed: true), data[0] <= 100 else { continue }
            let b = SensorBytes(data)
            guard let t = b.be(data.count - 4, 2), let h = b.be(data.count - 2, 2) else { continue }
            return reading(t, h, data[0])
        }
        return nil
    }

    private static func reading(_ t: UInt64, _ h: UInt64, _ battery: UInt8) -> SensorData {
        SensorData(model: SensorModel(maker: "Jaalee", model: "JHT"), readings: [
            SensorReading(.temperature, -45 + 175 * Double(t) / 65535, decimals: 2),
            SensorReading(.humidity, 100 * Double(h) / 65535, decimals: 2), SensorReading(.battery, Double(battery)),
        ])
    }
}
