// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// ThermoBeacon (Brifit, SensorBlue WS02 and WS08) hygrometers: company 0x0010, 0x0011, 0x0014,
/// 0x0015, 0x0018 or 0x001B (the IDs Home Assistant's thermobeacon-ble accepts), 18
/// bytes: two, the address, the battery in mV, temperature and humidity in sixteenths
/// (little-endian), then the seconds since power-on. In turn with it, a 20-byte frame of the
/// day's highest and lowest temperatures: it carries no reading, and the readings stay as last
/// heard. Source: the community's decoding of ThermoBeacon broadcasts (Theengs Decoder's
/// ThermoBeacon entry; ble_monitor's thermobeacon parser).
enum ThermoBeacon: SensorFamily {
    static let rank = 64
    static let companies: [UInt16] = [0x0010, 0x0011, 0x0014, 0x0015, 0x0018, 0x001B]
    static let reads: [SensorSource] = companies.map { .company($0) }
    static let sendsPartialFrames = true
    static let model = SensorModel(maker: "ThermoBeacon", model: "WS02/WS08")

    static func mayClaim(_ services: [ServiceID], _ blocks: [ManufacturerData], _ serviceData: [ServiceID: [UInt8]]) -> Bool {
        blocks.contains { companies.contains($0.companyID) && ($0.data.count == 18 || $0.data.count == 20) }
    }

    /// A readings frame speaks for all; a frame of extremes carries none that are read.
    static func contents(_ frame: SensorFrame) -> FrameContents? {
        guard let data = companies.lazy.compactMap({ frame.company($0) }).first, data.count == 18 || data.count == 20 else { return nil }
        return FrameContents(self, everything: data.count == 18)
    }

    static func decode(_ frame: SensorFrame, keys: SensorKeys?) -> SensorData? {
        guard let data = companies.lazy.compactMap({ frame.company($0) }).first else { return nil }
        if data.count == 20, frame.carriesItsAddress(data[2..<8], reversed: true) {
            var extremes = SensorData(model: model)
            extremes.partial = true
            return extremes
        }
        guard data.count == 18 else { return nil }
        let b = SensorBytes(data)
        guard let mv = b.le(8, 2), let t = b.sle(10, 2), let h = b.le(12, 2), h <= 1600 else { return nil }
        return SensorData(model: model, readings: [
            SensorReading(.temperature, Double(t) / 16, decimals: 4), SensorReading(.humidity, Double(h) / 16, decimals: 4),
            SensorReading(.voltage, Double(mv) / 1000, decimals: 3),
        ])
    }
}
