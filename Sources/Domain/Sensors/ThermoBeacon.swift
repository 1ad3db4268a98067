// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// ThermoBeacon (Brifit, SensorBlue WS02 and WS08) hygrometers: company 0x0010 or 0x0011, 18
/// bytes: two, the address, the battery in mV, temperature and humidity in sixteenths
/// (little-endian), then the seconds since power-on. Source: the community's decoding of
/// ThermoBeacon broadcasts (Theengs Decoder's ThermoBeacon entry; ble_monitor's thermobeacon parser).
enum ThermoBeacon: SensorFamily {
    static let rank = 64
    static let reads: [SensorSource] = [.company(0x0010), .company(0x0011)]

    static func decode(_ frame: SensorFrame, keys: SensorKeys?) -> SensorData? {
        guard let data = frame.company(0x0010) ?? frame.company(0x0011), data.count == 18 else { return nil }
        let b = SensorBytes(data)
        guard let mv = b.le(8, 2), let t = b.sle(10, 2), let h = b.le(12, 2), h <= 1600 else { return nil }
        return SensorData(model: SensorModel(maker: "ThermoBeacon", model: "WS02/WS08"), readings: [
            SensorReading(.temperature, Double(t) / 16, decimals: 4), SensorReading(.humidity, Double(h) / 16, decimals: 4),
            SensorReading(.voltage, Double(mv) / 1000, decimals: 3),
        ])
    }
}
