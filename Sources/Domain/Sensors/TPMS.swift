// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// The common tyre-pressure sensors that advertise on their own: eighteen bytes from the start
/// of the manufacturer block, whose "company" is 0x0_00, then the sensor's own address (its
/// first byte's low nibble the wheel, 0 the first), and little-endian the pressure in pascals
/// and the temperature in hundredths of a degree (32 bits each), the battery and an alarm bit.
/// The pressure is kept to the millibar: finer is noise on a tyre. Told by its address
/// in the frame (the one heard) or by a name starting "TPMS". Source: Theengs Decoder's TPMS
/// entry (github.com/theengs/decoder, src/devices/TPMS_json.h).
enum TPMS: SensorFamily {
    static let rank = 66
    static let reads: [SensorSource] = [.anyCompany]
    static let tyrePressure = Quantity.known("tyre_pressure")
    static let wheel = Quantity.known("channel")
    static let alarm = Quantity.known("problem")

    static func decode(_ frame: SensorFrame, keys: SensorKeys?) -> SensorData? {
        guard frame.manufacturerData.count == 1, let block = frame.manufacturerData.first, block.companyID & 0xF0FF == 0,
              block.data.count == 16 else { return nil }
        let data = block.data
        guard frame.carriesItsAddress(data[0..<6]) || frame.name?.hasPrefix("TPMS") == true else { return nil }
        let b = SensorBytes(data)
        guard let pascals = b.sle(6, 4), pascals >= 0, let hundredths = b.sle(10, 4), data[14] <= 100 else { return nil }
        return SensorData(model: SensorModel(maker: "TPMS", model: "Tyre sensor"), readings: [
            SensorReading(tyrePressure, Double(pascals) / 100_000, decimals: 3),
            SensorReading(.temperature, Double(hundredths) / 100, decimals: 2),
            SensorReading(.battery, Double(data[14])),
            SensorReading(alarm, data[15] & 0x01 != 0 ? 1 : 0),
            SensorReading(wheel, Double(data[0] & 0x0F) + 1),
        ])
    }
}
