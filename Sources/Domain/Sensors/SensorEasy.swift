// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// Sensor Easy's SE TEMP, SE TEMP PROBE, SE RHT and SE MAG, which send Environmental Sensing
/// values as service data: 0x2A6E the temperature (hundredths of a degree, signed little-endian;
/// 0x7FFF none), 0x2A6F the humidity (whole percent), 0x2A06 the magnet's contact (bit 0 of the
/// first byte set while closed), and in a manufacturer block whose first byte after the company
/// ID is 0xF2, the battery in mV. They take turns, one value a frame, and are told by their
/// names ("P T EN 888444", "P TPROBE …", "P RHT …", "P MAG …"). Source: Theengs Decoder's SE_TEMP,
/// SE_TPROBE, SE_RHT and SE_MAG entries (github.com/theengs/decoder, src/devices/).
enum SensorEasy: SensorFamily {
    static let rank = 60
    static let reads: [SensorSource] = [.service("2A6E"), .service("2A6F"), .service("2A06"), .anyCompany]
    static let opening = Quantity.known("opening")

    static func decode(_ frame: SensorFrame, keys: SensorKeys?) -> SensorData? {
        // The name's second character on: "P T EN 888444", "P RHT …".
        let name = Array((frame.name ?? "").utf8.dropFirst())
        let models = [(" RHT ", "SE RHT"), (" T ", "SE TEMP"), (" TPROBE", "SE TEMP PROBE"), (" MAG", "SE MAG")]
        guard let model = models.first(where: { name.starts(with: $0.0.utf8) })?.1 else { return nil }
        var readings: [SensorReading] = []
        if model == "SE MAG", let contact = frame.service("2A06"), contact.count == 2 {
            readings.append(SensorReading(opening, contact[0] & 0x01 == 0 ? 1 : 0))
        }
        if model != "SE MAG", let t = frame.service("2A6E"), t.count == 2, let value = SensorBytes(t).sle(0, 2), value != 0x7FFF {
            readings.append(SensorReading(.temperature, Double(value) / 100, decimals: 2))
        }
        if model == "SE RHT", let h = frame.service("2A6F"), h.count == 1, h[0] <= 100 {
            readings.append(SensorReading(.humidity, Double(h[0])))
        }
        if let block = frame.wholeBlock, block.count == 5, block[2] == 0xF2, let mv = SensorBytes(block).le(3, 2) {
            readings.append(SensorReading(.voltage, Double(mv) / 1000, decimals: 3))
        }
        return readings.isEmpty ? nil : SensorData(model: SensorModel(maker: "Sensor Easy", model: model), readings: readings)
    }
}
