// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// Oras' devices:
/// - the Hydractiva Digital (amphiro) hand shower: company 0xFAEE, nineteen bytes, big-endian:
///   the shower's number (3 bytes), its seconds, then at byte 8 the litres in 2560ths (3 bytes),
///   the water's temperature in whole degrees and the energy in hundredths of a kWh;
/// - the smart faucet: company 0x0131, eighteen bytes, the battery (low 7 bits) at byte 1; its
///   serial number, text the device chooses, is not read.
/// Source: Theengs Decoder's AMPHIRO and Oras entries (github.com/theengs/decoder, src/devices/).
enum Oras: SensorFamily {
    static let rank = 68
    static let reads: [SensorSource] = [.company(0xFAEE), .company(0x0131)]
    static let duration = Quantity.known("duration")
    static let water = Quantity.known("water")
    static let energy = Quantity.known("energy")

    static func decode(_ frame: SensorFrame, keys: SensorKeys?) -> SensorData? {
        if let data = frame.company(0xFAEE), data.count == 19 {
            let b = SensorBytes(data)
            guard let seconds = b.be(3, 2), let litres = b.be(8, 3), let kwh = b.be(12, 2) else { return nil }
            return SensorData(model: SensorModel(maker: "Oras", model: "Hydractiva Digital"), readings: [
                SensorReading(water, Double(litres) / 2560, decimals: 1), SensorReading(.temperature, Double(data[11])),
                SensorReading(duration, Double(seconds)), SensorReading(energy, Double(kwh) / 100, decimals: 2),
            ])
        }
        if let data = frame.company(0x0131), data.count == 18, data[1] & 0x7F <= 100 {
            return SensorData(model: SensorModel(maker: "Oras", model: "Smart faucet"), readings: [SensorReading(.battery, Double(data[1] & 0x7F))])
        }
        return nil
    }
}
