// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// Inkbird IBS-TH1 and IBS-TH2 thermometers, named "sps" (with humidity) or "tps". Their
/// manufacturer block's company ID is the temperature (sint16 × 0.01 °C); then humidity
/// (× 0.01 %; a "tps" without a humidity sensor sends 0x0000 or 0xFFFF), whether the external probe is in use, a checksum, and the battery in %.
/// Source: the community's decoding of Inkbird broadcasts (ble_monitor's inkbird parser;
/// Theengs Decoder's IBS-TH1 entry).
enum Inkbird: SensorFamily {
    static let rank = 66
    static let reads: [SensorSource] = [.anyCompany]

    static func decode(_ frame: SensorFrame, keys: SensorKeys?) -> SensorData? {
        guard let name = frame.name, name == "sps" || name == "tps", frame.manufacturerData.count == 1,
              let bytes = frame.wholeBlock, bytes.count == 9 else { return nil }
        let b = SensorBytes(bytes)
        guard let t = b.sle(0, 2), let h = b.le(2, 2), let battery = b[7], battery <= 100 else { return nil }
        var readings = [SensorReading(.temperature, Double(t) / 100, decimals: 2)]
        if name == "sps" {
            guard h <= 10000 else { return nil }
            readings.append(SensorReading(.humidity, Double(h) / 100, decimals: 2))
        } else if h != 0, h != 0xFFFF, h <= 10000 {
            readings.append(SensorReading(.humidity, Double(h) / 100, decimals: 2))
        }
        readings.append(SensorReading(.battery, Double(battery)))
        return SensorData(model: SensorModel(maker: "Inkbird", model: name == "sps" ? "IBS-TH1" : "IBS-TH2"), readings: readings)
    }
}
