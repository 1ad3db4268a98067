// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// Govee thermo-hygrometers: manufacturer data under the pseudo company IDs Govee's firmware
/// writes (0xEC88, 0x0001, 0x8801), told apart by length and by the advertised name; the H5112
/// (a probe besides its own sensor) and the H5140 (carbon dioxide) by name alone; the H5127
/// presence sensor by its block's first bytes. An H5178 sends
/// its own readings and its remote sensor's in turn, an H5112 its two probes: each frame carries
/// one, numbered 1 and 2. Source: the community's decoding of Govee's broadcasts (Home
/// Assistant's govee-ble; Theengs Decoder's H5072/H5075/H5074/H5101/H5102/H5177/H5179 entries).
enum Govee: SensorFamily {
    static let rank = 70
    static let reads: [SensorSource] = [.company(0xEC88), .company(0x0001), .company(0x8801), .company(0x8803), .company(0x8843), .anyCompany]
    static let occupancy = Quantity.known("occupancy")
    static let motion = Quantity.known("motion")
    static let sendsPartialFrames = true

    /// An H5178's nine bytes under 0x0001, or an H5112's eight ending in its probe's number.
    static func mayClaim(_ services: [ServiceID], _ blocks: [ManufacturerData], _ serviceData: [ServiceID: [UInt8]]) -> Bool {
        blocks.contains { ($0.companyID == 0x0001 && $0.data.count == 9) || ($0.data.count == 8 && ($0.data[7] == 0x41 || $0.data[7] == 0x82)) }
    }

    /// The probe an H5112's frame is for, or whose readings an H5178's are.
    static func contents(_ frame: SensorFrame) -> FrameContents? {
        if has(frame.name ?? "", "5112"), let data = frame.manufacturerData.last(where: { $0.data.count == 8 })?.data {
            var out = FrameContents(self, kind: 5112)
            return out.add(UInt32(data[7])) ? out : nil
        }
        guard let data = frame.company(0x0001), data.count == 9 else { return nil }
        var out = FrameContents(self, kind: 5178)
        return out.add(UInt32(data[2])) ? out : nil
    }

    static func decode(_ frame: SensorFrame, keys: SensorKeys?) -> SensorData? {
        let name = frame.name ?? ""
        // Told by name, under whatever company they write (govee-ble reads these first).
        if has(name, "5112"), let data = frame.manufacturerData.last(where: { $0.data.count == 8 })?.data {
            return probe5112(data)
        }
        if has(name, "5140"), let data = frame.manufacturerData.last(where: { $0.data.count == 8 })?.data {
            return carbonDioxide5140(data)
        }
        // An H5127 presence sensor: 0x8803 (0x8843 from firmware 1.00.13) is a flags byte where a
        // company ID belongs, so the block's first bytes must say it too.
        for block in frame.manufacturerData where block.data.count == 6 && [0x8803, 0x8843].contains(block.companyID) || has(name, "H5127") {
            let d = block.data
            guard d.count == 6, d[0] == 0xEC, d[1] == 0, [1, 2].contains(d[2]), d[3] == 1 else { continue }
            return SensorData(model: SensorModel(maker: "Govee", model: "H5127"), readings: [
                SensorReading(occupancy, d[4] == 1 ? 1 : 0), SensorReading(motion, d[5] == 17 ? 1 : 0),
            ])
        }
        if let data = frame.company(0xEC88) {
            switch data.count {
            case 6: return packed(data, at: 1, model: has(name, "H5072") ? "H5072" : "H5075")
            case 7: return littleEndian(data, at: 1, model: "H5074")
            case 9: return littleEndian(data, at: 1, model: has(name, "H5071") ? "H5071" : has(name, "H5052") ? "H5052" : "H5051")
            default: return nil
            }
        }
        if let data = frame.company(0x0001), data.count == 9 {
            // An H5178: byte 2 says whose readings these are, its own (0) or its remote sensor's (1).
            guard data[2] <= 1, var out = packed(data, at: 3, model: "H5178", slot: Int(data[2]) + 1) else { return nil }
            out.partial = true
            out.slotsCarried = [Int(data[2]) + 1]
            return out
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
    static func packed(_ data: [UInt8], at offset: Int, model: String, slot: Int? = nil) -> SensorData? {
        let b = SensorBytes(data)
        guard let word = b.be(offset, 3), let battery = b[offset + 3] else { return nil }
        let (temperature, humidity) = climate(word)
        let model = SensorModel(maker: "Govee", model: model)
        var readings: [SensorReading] = []
        // An error flag, or a value outside what the sensor measures (−40 to 100 °C), is no reading.
        if battery & 0x80 == 0, temperature >= -40, temperature <= 100 {
            readings = [SensorReading(.temperature, temperature, decimals: 1, slot: slot),
                        SensorReading(.humidity, humidity, decimals: 1, slot: slot)]
        }
        guard battery & 0x7F <= 100 else { return SensorData(model: model, readings: readings, skipped: ["battery out of range"]) }
        return SensorData(model: model, readings: readings + [SensorReading(.battery, Double(battery & 0x7F), slot: slot)])
    }

    /// An H5112: its own sensor (probe 1, 0x41 last) gives temperature and humidity, the probe on
    /// its cable (2, 0x82) the temperature alone; both the battery.
    static func probe5112(_ data: [UInt8]) -> SensorData? {
        let probes: [UInt8: Int] = [0x41: 1, 0x82: 2]
        guard let probe = probes[data[7]], var out = packed(data, at: 2, model: "H5112") else { return nil }
        out.readings = out.readings.compactMap { r in
            if r.quantity == .battery { return r }
            if r.quantity == .humidity, probe != 1 { return nil }
            return SensorReading(r.quantity, r.value, decimals: r.decimals, slot: probe)
        }
        out.partial = true
        out.slotsCarried = [probe]
        return out
    }

    /// An H5140: temperature and humidity packed as the others, the carbon dioxide in ppm
    /// (big-endian), then an error byte; no battery.
    static func carbonDioxide5140(_ data: [UInt8]) -> SensorData? {
        let b = SensorBytes(data)
        guard let word = b.be(2, 3), let co2 = b.be(5, 2) else { return nil }
        let model = SensorModel(maker: "Govee", model: "H5140")
        let (temperature, humidity) = climate(word)
        guard data[7] == 0, temperature >= -40, temperature <= 100 else { return SensorData(model: model, skipped: ["the sensor reports an error"]) }
        return SensorData(model: model, readings: [
            SensorReading(.temperature, temperature, decimals: 1), SensorReading(.humidity, humidity, decimals: 1),
            SensorReading(.carbonDioxide, Double(co2)),
        ])
    }

    /// Temperature × 10000 + humidity × 10 in the low 23 bits, the top bit the temperature's sign.
    static func climate(_ word: UInt64) -> (temperature: Double, humidity: Double) {
        let magnitude = Int(word & 0x7FFFFF)
        return (Double(magnitude / 1000) / 10 * (word & 0x800000 != 0 ? -1 : 1), Double(magnitude % 1000) / 10)
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
