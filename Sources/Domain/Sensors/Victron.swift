// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// Victron Instant Readout: company 0x02E1, a record prefix (0x10), the model (2 bytes), the
/// record type, a 16-bit IV, the key's first byte as a check, then the record in AES-CTR
/// under the device's own key (the counter block is the IV, little-endian). Records are bit
/// fields, least significant bit first. Read here: solar chargers (type 0x01) and battery
/// monitors (0x02). Source: Victron's "Extra manufacturer data" document for Instant
/// Readout (victronenergy.com, BLE advertising protocol).
enum Victron: SensorFamily {
    static let rank = 85
    static let reads: [SensorSource] = [.company(0x02E1)]

    static let current = Quantity.known("current")
    static let power = Quantity.known("power")
    static let energy = Quantity.known("energy")

    static func decode(_ frame: SensorFrame, keys: SensorKeys?) -> SensorData? {
        guard let data = frame.company(0x02E1), data.count >= 9, data[0] == 0x10 else { return nil }
        let type = data[4]
        let kind: String
        switch type {
        case 0x01: kind = "Solar charger"
        case 0x02: kind = "Battery monitor"
        default: return nil
        }
        let model = SensorModel(maker: "Victron", model: kind)
        guard let keys, let key = keys.key(for: frame.address), key.count == 16 else {
            return SensorData(model: model, encrypted: true)
        }
        // The key's first byte travels in the clear: a wrong key is told without garbage.
        guard data[7] == key[0] else { return SensorData(model: model, encrypted: true, wrongKey: true) }
        let counter = [data[5], data[6]] + [UInt8](repeating: 0, count: 14)
        let sealed = Array(data[8...].prefix(16))
        guard let plain = keys.ctr(key: key, counter: counter, data: sealed) else {
            return SensorData(model: model, encrypted: true, wrongKey: true)
        }
        var bits = BitFields(plain)
        var out = SensorData(model: model, readings: type == 0x01 ? solarCharger(&bits) : batteryMonitor(&bits))
        out.sealed = true
        out.counter = UInt32(data[5]) | UInt32(data[6]) << 8
        return out
    }

    /// Charge state, error, battery voltage (0.01 V), charging current (0.1 A), today's yield
    /// (10 Wh), solar power (W), load current (9 bits, 0.1 A); all ones means "not available".
    static func solarCharger(_ bits: inout BitFields) -> [SensorReading] {
        _ = bits.read(8); _ = bits.read(8)
        var out: [SensorReading] = []
        if let v = bits.signed(16), v != 0x7FFF { out.append(SensorReading(.voltage, Double(v) / 100, decimals: 2)) }
        if let a = bits.signed(16), a != 0x7FFF { out.append(SensorReading(current, Double(a) / 10, decimals: 1)) }
        if let y = bits.read(16), y != 0xFFFF { out.append(SensorReading(energy, Double(y) / 100, decimals: 2)) }
        if let w = bits.read(16), w != 0xFFFF { out.append(SensorReading(power, Double(w))) }
        return out
    }

    /// Time left (min), voltage (0.01 V), alarm, aux, aux mode (2 bits), current (22 bits, mA),
    /// consumed (20 bits, 0.1 Ah), state of charge (10 bits, 0.1 %).
    static func batteryMonitor(_ bits: inout BitFields) -> [SensorReading] {
        _ = bits.read(16)
        let voltage = bits.signed(16)
        _ = bits.read(16); _ = bits.read(16); _ = bits.read(2)
        let amps = bits.signed(22)
        _ = bits.read(20)
        let soc = bits.read(10)
        var out: [SensorReading] = []
        if let voltage, voltage != 0x7FFF { out.append(SensorReading(.voltage, Double(voltage) / 100, decimals: 2)) }
        if let amps { out.append(SensorReading(current, Double(amps) / 1000, decimals: 3)) }
        if let soc, soc != 0x3FF, soc <= 1000 { out.append(SensorReading(.battery, Double(soc) / 10, decimals: 1)) }
        return out
    }
}

/// Bit fields read least significant bit first; nil past the end.
struct BitFields {
    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func read(_ count: Int) -> UInt64? {
        guard index + count <= bytes.count * 8 else { return nil }
        var value: UInt64 = 0
        for bit in 0..<count {
            let i = index + bit
            value |= UInt64((bytes[i >> 3] >> (i & 7)) & 1) << bit
        }
        index += count
        return value
    }

    mutating func signed(_ count: Int) -> Int64? {
        read(count).map { $0 & (1 << (count - 1)) != 0 ? Int64($0) - (1 << count) : Int64($0) }
    }
}
