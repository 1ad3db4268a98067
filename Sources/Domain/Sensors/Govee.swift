// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// Govee thermo-hygrometers: manufacturer data under the pseudo company IDs Govee's firmware
/// writes (0xEC88, 0x0001, 0x8801), told apart by length and by the advertised name. Source:
/// the community's decoding of Govee's broadcasts (Home Assistant's govee-ble; Theengs
/// Decoder's H5072/H5075/H5074/H5101/H5102/H5177/H5179 entries).
enum Govee: SensorFamily {
    static let rank = 70
    static let reads: [SensorSource] = [.company(0xEC88), .company(0x0001), .company(0x8801)]

    static func decode(_ frame: SensorFrame, keys: SensorKeys?) -> SensorData? {
        let name = frame.name ?? ""
        if let data = frame.company(0xEC88) {
            switch data.count {
            case 6: return packed(data, at: 1, model: has(name, "H5072") ? "H5072" : "H5075")
            case 7: return littleEndian(data, at: 1, model: "H5074")
            default: return nil
            }
        }
        if let data = frame.company(0x0001), data.count == 6 || data.count == 8 {
            // Eight bytes are an H5108's; six are read only from a model named as sending them.
            let named = companyOneModels.first(where: { has(name, $0) })
            guard data.count == 8 || named != nil else { return nil }
            return packed(data, at: 2, model: data.count == 8 ? "H5108" : named ?? "H5101")
        }
        if let data = frame.company(0x8801), data.count == 9 {
            return littleEndian(data, at: 4, model: "H5179")
        }
        return nil
    }

    /// The models whose names mark a six-byte block under 0x0001 as theirs, as govee-ble lists them.
    static let companyOneModels = ["H5108", "H5100", "H5101", "H5102", "H5103", "H5104", "H5105", "H5174", "H5177",
                                   "H5110", "GV5179"]

    /// Whether `name` holds `model`, byte for byte: Foundation's search costs a locale-aware
    /// comparison for every report.
    static func has(_ name: String, _ model: String) -> Bool {
        let n = Array(name.utf8), m = Array(model.utf8)
        guard n.count >= m.count else { return false }
        return (0...(n.count - m.count)).contains { n[$0..<($0 + m.count)].elementsEqual(m) }
    }

    /// Temperature and humidity packed in three big-endian bytes (temperature × 10000 +
    /// humidity × 10, the top bit the sign), then the battery (low 7 bits; the top bit an error).
    static func packed(_ data: [UInt8], at offset: Int, model: String) -> SensorData? {
        let b = SensorBytes(data)
        guard let word = b.be(offset, 3), let battery = b[offset + 3] else { return nil }
        let magnitude = Int(word & 0x7FFFFF)
        let temperature = Double(magnitude / 1000) / 10 * (word & 0x800000 != 0 ? -1 : 1)
        let humidity = Double(magnitude % 1000) / 10
        let model = SensorModel(maker: "Govee", model: model)
        var readings: [SensorReading] = []
        // An error flag, or a value outside what the sensor measures (−40 to 100 °C), is no reading.
        if battery & 0x80 == 0, temperature >= -40, temperature <= 100 {
            readings = [SensorReading(.temperature, temperature, decimals: 1), SensorReading(.humidity, humidity, decimals: 1)]
        }
        guard battery & 0x7F <= 100 else { return SensorData(model: model, readings: readings, skipped: ["battery out of range"]) }
        return SensorData(model: model, readings: readings + [SensorReading(.battery, Double(battery & 0x7F))])
    }

    /// Temperature ×0.01 °C (sint16), humidity ×0.01 % (uint16), battery %, little-endian.
    static func littleEndian(_ data: [UInt8], at offset: Int, model: String) -> SensorData? {
        let b = SensorBytes(data)
        guard let t = b.sle(offset, 2), let h = b.le(offset + 2, 2), let battery = b[offset + 4],
              h <= 10000, battery <= 100 else { return nil }
        return SensorData(model: SensorModel(maker: "Govee", model: model), readings: [
            SensorReading(.temperature, Double(t) / 100, decimals: 2), SensorReading(.humidity, Double(h) / 100, decimals: 2),
            SensorReading(.battery, Double(battery)),
        ])
    }
}
