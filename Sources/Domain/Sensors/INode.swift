// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// iNode's Energy Meter, which counts the pulses of an electricity, gas or water meter: a block
/// whose "company" is 0x8290, 0x8292, 0x8294 or 0x8296 (bit 2 of its low byte: battery low),
/// eleven bytes little-endian: pulses in the last minute, pulses in all, the meter's constant
/// (pulses per kWh or m³, low 14 bits) with bit 12 of that word set for a gas or water meter,
/// then the battery in tenths above one tenth (its high nibble; 1 and 12–15 mean full).
/// Source: Theengs Decoder's iNodeEM entry (github.com/theengs/decoder, src/devices/iNodeEM_json.h).
enum INode: SensorFamily {
    static let rank = 68
    static let companies: [UInt16] = [0x8290, 0x8292, 0x8294, 0x8296]
    static let reads: [SensorSource] = companies.map { .company($0) }
    static let power = Quantity.known("power")
    static let energy = Quantity.known("energy")
    static let flow = Quantity.known("volume_flow_rate")
    static let metered = Quantity.known("metered_volume")
    static let batteryLow = Quantity.known("battery_low")

    static func decode(_ frame: SensorFrame, keys: SensorKeys?) -> SensorData? {
        guard let block = frame.manufacturerData.last(where: { companies.contains($0.companyID) }),
              block.data.count == 11 else { return nil }
        let b = SensorBytes(block.data)
        guard let minute = b.le(0, 2), let total = b.le(2, 4), let word = b.le(6, 2) else { return nil }
        let constant = Double(word & 0x3FFF)
        guard constant > 0 else { return nil }
        let volume = word & 0x1000 != 0
        let level = Int(block.data[8] >> 4)
        let battery = level == 1 || level >= 12 ? 100 : max(0, (level - 1) * 10)
        let perHour = Double(minute) * 60 / constant
        return SensorData(model: SensorModel(maker: "iNode", model: "Energy Meter"), readings: [
            volume ? SensorReading(flow, perHour, decimals: 3) : SensorReading(power, perHour * 1000, decimals: 2),
            volume ? SensorReading(metered, Double(total) / constant, decimals: 3) : SensorReading(energy, Double(total) / constant, decimals: 3),
            SensorReading(.battery, Double(battery)),
            SensorReading(batteryLow, block.companyID & 0x0004 != 0 ? 1 : 0),
        ])
    }
}
