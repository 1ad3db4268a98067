// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// NodOn's NIU smart button: sixteen bytes of service data under the UUID 0x0000: its colour at
/// bytes 10–11, the battery (low 7 bits) at 12, two bytes that change with every press (so a
/// frame repeated is one press), and the press at 15: 1 a click, 2 a double, 5 a triple, 6 and 7
/// four and five clicks, 3 held, 4 released. Source: Theengs Decoder's NODONNIU entry (github.com/theengs/decoder,
/// src/devices/NODONNIU_json.h, and docs/devices/NODONNIU.md for the codes).
enum NodOn: SensorFamily {
    static let rank = 68
    static let reads: [SensorSource] = [.service("0000")]
    static let button = Quantity.known("button")
    /// The NIU's codes as the catalogue's button events (press, double, triple, four and five
    /// presses, long press, release).
    static let presses: [UInt8: Double] = [1: 1, 2: 2, 5: 3, 6: 0x81, 7: 0x82, 3: 4, 4: 0x83]

    static func decode(_ frame: SensorFrame, keys: SensorKeys?) -> SensorData? {
        guard let data = frame.service("0000"), data.count == 16, (1...7).contains(data[15]), let press = SensorBytes(data).be(13, 2)
        else { return nil }
        return SensorData(model: SensorModel(maker: "NodOn", model: "NIU"), readings: [
            SensorReading(button, presses[data[15]] ?? 0), SensorReading(.battery, Double(data[12] & 0x7F)),
            SensorReading(.packetID, Double(press)),
        ])
    }
}
