// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// Leaone's bathroom scales (TZC4, QJ-J), which send nothing but one 13-byte manufacturer block
/// (its company ID's high byte a frame counter) ending with the scale's own address: big-endian
/// the weight, the impedance in tenths of an ohm, two bytes, and a byte that says the unit and
/// whether the weight has settled (0x21 kg in tenths, 0x25 kg in hundredths, 0x31 lb in tenths;
/// 0x20, 0x24 and 0x30 while it still moves). Source: Home Assistant's leaone-ble.
enum Leaone: SensorFamily {
    static let rank = 60
    static let reads: [SensorSource] = [.anyCompany]
    static let models: [UInt8: String] = [0x20: "TZC4", 0x21: "TZC4", 0x24: "QJ-J", 0x25: "QJ-J", 0x30: "TZC4", 0x31: "TZC4"]
    static let impedance = Quantity.known("impedance")

    static func decode(_ frame: SensorFrame, keys: SensorKeys?) -> SensorData? {
        guard frame.serviceData.isEmpty, frame.services.isEmpty, let data = frame.manufacturerData.last?.data, data.count == 13,
              frame.carriesItsAddress(data[7...]), let model = models[data[6]] else { return nil }
        let b = SensorBytes(data)
        guard let weight = b.be(0, 2), let ohms = b.be(2, 2) else { return nil }
        var out = SensorData(model: SensorModel(maker: "Leaone", model: model))
        // Only a weight that has settled is a reading.
        switch data[6] {
        case 0x21: out.readings = [SensorReading(.known("weight"), Double(weight) / 10, decimals: 1)]
        case 0x25: out.readings = [SensorReading(.known("weight"), Double(weight) / 100, decimals: 2)]
        case 0x31: out.readings = [SensorReading(Quantity.known("weight").sent(in: "lb"), Double(weight) / 10, decimals: 1)]
        default: return out
        }
        out.readings.append(SensorReading(impedance, Double(ohms) / 10, decimals: 1))
        return out
    }
}
