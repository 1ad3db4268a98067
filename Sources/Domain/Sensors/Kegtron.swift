// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// Kegtron's keg monitors, KT-100 (one port) and KT-200 (two): company 0xFFFF, 27 bytes,
/// big-endian: the keg's size, the volume it started with and the volume poured, each in mL;
/// a port byte (bit 6: two ports, bit 4: the second port, bit 0: set up, not shown: it says
/// nothing the volumes do not); then the port's name as its user set it ("IPA", shown on the
/// device's page), 20 bytes of UTF-8 padded with zeros. A KT-200 sends its ports in turn, so
/// each frame carries one port's readings, numbered by port. Source: Home Assistant's kegtron-ble (after bleparser).
enum Kegtron: SensorFamily {
    static let rank = 11
    static let reads: [SensorSource] = [.company(0xFFFF)]
    static let sendsPartialFrames = true
    static let kegSize = Quantity.known("keg_size")
    static let volumeStart = Quantity.known("volume_start")
    static let dispensed = Quantity.known("volume_dispensed")
    static let remaining = Quantity.known("volume_remaining")

    /// A KT-200's frames carry one port each: the other port's readings stay as last heard.
    static func mayClaim(_ services: [ServiceID], _ blocks: [ManufacturerData], _ serviceData: [ServiceID: [UInt8]]) -> Bool {
        blocks.contains { $0.companyID == 0xFFFF && $0.data.count == 27 && $0.data[6] & 0x40 != 0 }
    }

    /// The port a KT-200's frame is for.
    static func contents(_ frame: SensorFrame) -> FrameContents? {
        guard let data = frame.company(0xFFFF), data.count == 27 else { return nil }
        var out = FrameContents(self)
        return out.add(UInt32(data[6] & 0x50)) ? out : nil
    }

    static func decode(_ frame: SensorFrame, keys: SensorKeys?) -> SensorData? {
        // 0xFFFF is the company ID for tests, so the frame must hold together: its exact length
        // and a port name that is text.
        guard let data = frame.company(0xFFFF), data.count == 27 else { return nil }
        let b = SensorBytes(data)
        guard let size = b.be(0, 2), let start = b.be(2, 2), let poured = b.be(4, 2) else { return nil }
        let port = data[6]
        let name = data[7...].prefix { $0 != 0 }
        guard data[(7 + name.count)...].allSatisfy({ $0 == 0 }), String(validating: name, as: UTF8.self) != nil else { return nil }
        let twoPorts = port & 0x40 != 0
        let slot = twoPorts ? (port & 0x10 != 0 ? 2 : 1) : nil
        var out = SensorData(model: SensorModel(maker: "Kegtron", model: twoPorts ? "KT-200" : "KT-100"), readings: [
            SensorReading(remaining, Double(start > poured ? start - poured : 0) / 1000, decimals: 3, slot: slot),
            SensorReading(dispensed, Double(poured) / 1000, decimals: 3, slot: slot),
            SensorReading(volumeStart, Double(start) / 1000, decimals: 3, slot: slot),
            SensorReading(kegSize, Double(size) / 1000, decimals: 3, slot: slot),
        ])
        out.partial = twoPorts
        out.slotsCarried = slot.map { [$0] }
        // What the user called the port in Kegtron's app ("IPA"); a KT-100's one port is port 1.
        if !name.isEmpty { out.slotNames[slot ?? 1] = String(decoding: name, as: UTF8.self) }
        return out
    }
}
