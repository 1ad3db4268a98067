// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// ThermoBeacon (Brifit, SensorBlue WS02 and WS08) hygrometers: company 0x0010, 0x0011, 0x0014,
/// 0x0015, 0x0018 or 0x001B (the IDs Home Assistant's thermobeacon-ble accepts), 18
/// bytes: two, the address, the battery in mV, temperature and humidity in sixteenths
/// (little-endian), then the seconds since power-on. Source: the community's decoding of
/// ThermoBeacon broadcasts (Theengs Decoder's ThermoBeacon entry; ble_monitor's thermobeacon parser).
enum ThermoBeacon: SensorFamily {
    static let rank = 64
    static let companies: [UInt16] = [0x0010, 0x0011, 0x0014, 0x0015, 0x0018, 0x001B]
    static let reads: [SensorSource] = companies.map { .company($0) }

    static func decode(_ frame: SensorFrame, keys: SensorKeys?) -> SensorData? {
        guard let data = companies.lazy.compactMap({ frame.company($0) }).first, data.count == 18 else { return nil }
        let b = SensorBytes(data)
        guard let mv = b.le(8, 2), let t = b.sle(10, 2), let h = b.le(12, 2), h <= 1600 else { return nil }
        return SensorData(model: SensorModel(maker: "ThermoBeacon", model: "WS02/WS08"), readings: [
            SensorReading(.temperature, Double(t) / 16, decimals: 4), SensorReading(.humidity, Double(h) / 16, decimals: 4),
            SensorReading(.voltage, Double(mv) / 1000, decimals: 3),
        ])
    }
}
