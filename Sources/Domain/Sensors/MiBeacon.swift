// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation

/// Xiaomi MiBeacon v2–v5, service data 0xFE95: thermometers, plant sensors, formaldehyde
/// meters, and the states of motion, door, flood and smoke sensors and night lights. Source: Xiaomi's "MiBeacon" and "Object definition" pages of the Mi IoT developer
/// documentation (iot.mi.com, BLE embedded development), as read by the community's
/// ble_monitor and Home Assistant's xiaomi-ble (frame control bits, nonces, object IDs).
enum MiBeacon: SensorFamily {
    static let rank = 85
    static let reads: [SensorSource] = [.service("FE95")]

    /// Product IDs of the sensors read, to their model.
    static let products: [UInt16: String] = [
        0x0098: "HHCCJCY01", 0x015D: "HHCCPOT002", 0x01AA: "LYWSDCGQ", 0x02DF: "JQJCY01YM", 0x0347: "CGG1",
        0x0387: "MHO-C401", 0x03BC: "GCLS002", 0x045B: "LYWSD02", 0x055B: "LYWSD03MMC", 0x0576: "CGD1",
        0x066F: "CGDK2", 0x06D3: "MHO-C303", 0x0B48: "CGG1-ENCRYPTED", 0x0C3C: "CGC1", 0x16E4: "LYWSD02MMC",
        0x2542: "LYWSD02MMC", 0x2832: "MJWSD05MMC", 0x4C47: "MJWSD05MMC", 0x55B5: "MJWSD06MMC", 0x5BEA: "MJWSD06MMC",
        0x5DB1: "MBS17", 0x1203: "XMWSDJ04MMC", 0x00DB: "MMC-T201-1",
        // Motion, light, door, flood and smoke sensors, and night lights.
        0x03DD: "MUE4094RT", 0x07F6: "MJYD02YL", 0x0A8D: "RTCGQ02LM", 0x0A83: "CGPR1", 0x3531: "XMPIRO2SXS",
        0x4C60: "XMPIRO2GSXS", 0x098B: "MCCGQ02HL", 0x03D6: "CGH1", 0x0863: "SJWS01LM", 0x6375: "SJWS02LM",
        0x7712: "zhiee.flood.sj01", 0x0997: "JTYJGD03MI",
    ]
    static let motion = Quantity.known("motion")
    static let motionSeen = Quantity.known("motion_seen")
    static let opening = Quantity.known("opening")
    static let light = Quantity.known("light")
    static let wet = Quantity.known("wet")
    static let smoke = Quantity.known("smoke")
    static let batteryLow = Quantity.known("battery_low")
    /// Seconds without motion that still count as motion, as the Mi Home app counts them.
    static let stillMoving: UInt64 = 30

    static let formaldehyde = Quantity.known("formaldehyde")
    /// Most send one object a frame (the temperature, then the humidity, then the battery): the
    /// readings of the frames before stay as last heard.
    static let sendsPartialFrames = true

    static func mayClaim(_ services: [ServiceID], _ blocks: [ManufacturerData], _ serviceData: [ServiceID: [UInt8]]) -> Bool {
        serviceData.keys.contains { $0.uuid == "FE95" }
    }

    /// The product and each object's type and length, walked as `decode` walks them; nil for an
    /// encrypted frame, whose objects cannot be told without its key.
    static func contents(_ frame: SensorFrame) -> FrameContents? {
        guard let data = frame.service("FE95"), data.count >= 5 else { return nil }
        let control = UInt16(data[0]) | UInt16(data[1]) << 8
        guard control & 0x80 == 0, control >> 12 >= 2, control & 0x08 == 0 else { return nil }
        var out = FrameContents(self, kind: UInt32(data[2]) | UInt32(data[3]) << 8)
        var i = 5 + (control & 0x10 != 0 ? 6 : 0)
        if control & 0x20 != 0 {
            guard i < data.count else { return nil }
            i += data[i] & 0x20 != 0 ? 2 : 1
        }
        guard control & 0x40 != 0 else { return out }
        while i + 3 <= data.count {
            let length = Int(data[i + 2])
            guard i + 3 + length <= data.count, out.add(UInt32(data[i]) | UInt32(data[i + 1]) << 8 | UInt32(length) << 16) else {
                return nil
            }
            i += 3 + length
        }
        return out
    }

    static func decode(_ frame: SensorFrame, keys: SensorKeys?) -> SensorData? {
        guard let data = frame.service("FE95") else { return nil }
        // The address heard, where the caller knows it; else the one the frame carries.
        var mac = frame.addressBytes
        let b = SensorBytes(data)
        guard let control = b.le(0, 2), let product = b.le(2, 2), b[4] != nil else { return nil }
        let version = Int(control >> 12)
        // Mesh frames and version 1 carry no readings in this form.
        guard control & 0x80 == 0, version >= 2 else { return nil }
        var i = 5
        if control & 0x10 != 0 {
            // The sender's address, least significant byte first: another device's is not this one's.
            guard data.count >= i + 6 else { return nil }
            let carried = Array(data[i..<(i + 6)].reversed())
            guard mac == nil || carried == mac else { return nil }
            mac = carried
            i += 6
        }
        if control & 0x20 != 0 {
            guard let capability = b[i] else { return nil }
            i += capability & 0x20 != 0 ? 2 : 1
        }
        let model = SensorModel(maker: "Xiaomi", model: products[UInt16(product)] ?? String(format: "MiBeacon 0x%04X", product))
        // No object: the device says who it is and nothing more.
        guard control & 0x40 != 0 else {
            var out = SensorData(model: model)
            out.partial = true
            return out
        }
        guard i <= data.count else { return nil }
        var payload = Array(data[i...])
        var counter: UInt32?
        if control & 0x08 != 0 {
            switch open(data, from: i, version: version, mac: mac, address: frame.address, keys: keys) {
            case .opened(let plain, let extended):
                payload = plain
                counter = extended << 8 | UInt32(data[4])
            case .noKey: return SensorData(model: model, encrypted: true)
            case .wrongKey: return SensorData(model: model, encrypted: true, wrongKey: true)
            case .short: return nil
            }
        }
        var out = objects(payload, model: model)
        out.sealed = counter != nil
        out.counter = counter
        out.packetID = Int(data[4])
        return out
    }

    /// Opened: the plaintext and the frame's 3-byte counter extension.
    enum Opened { case opened([UInt8], UInt32), noKey, wrongKey, short }

    /// The objects of an encrypted frame. v4 and v5: AES-CCM with a 3-byte counter extension and
    /// a 4-byte MIC; the nonce is the address (least significant first), product ID, frame
    /// counter and extension. v2 and v3: AES-CCM's stream with no MIC, so a wrong key cannot be
    /// told; the nonce is the frame's first five bytes, the extension and five address bytes.
    static func open(_ data: [UInt8], from i: Int, version: Int, mac: [UInt8]?, address: String, keys: SensorKeys?) -> Opened {
        let reversed = Array((mac ?? []).reversed())
        if version >= 4 {
            guard data.count >= i + 8 else { return .short }
            guard let keys, mac != nil, let key = keys.key(for: address) else { return .noKey }
            let n = data.count
            let nonce = reversed + Array(data[2..<5]) + Array(data[(n - 7)..<(n - 4)])
            guard let plain = keys.ccmOpen(key: key, nonce: nonce, ciphertext: Array(data[i..<(n - 7)]),
                                           tag: Array(data[(n - 4)...]), associated: [0x11]) else { return .wrongKey }
            return .opened(plain, extension3(data, at: n - 7))
        }
        guard data.count >= i + 7 else { return .short }
        guard let keys, mac != nil, let key = keys.key(for: address) else { return .noKey }
        let n = data.count
        let nonce = Array(data[0..<5]) + Array(data[(n - 4)..<(n - 1)]) + Array(reversed.prefix(5))
        // CCM's first counter block for the payload: flags (a 2-byte counter), the nonce, 1.
        guard let plain = keys.ctr(key: key, counter: [0x01] + nonce + [0x00, 0x01], data: Array(data[i..<(n - 4)])) else {
            return .wrongKey
        }
        return .opened(plain, extension3(data, at: n - 4))
    }

    /// The counter extension's three bytes at `i`, little-endian.
    private static func extension3(_ data: [UInt8], at i: Int) -> UInt32 {
        UInt32(data[i]) | UInt32(data[i + 1]) << 8 | UInt32(data[i + 2]) << 16
    }

    /// Objects: a 2-byte type, a length, the value, little-endian.
    static func objects(_ payload: [UInt8], model: SensorModel) -> SensorData {
        var out = SensorData(model: model)
        out.partial = true
        var i = 0
        while i + 3 <= payload.count {
            let type = UInt16(payload[i]) | UInt16(payload[i + 1]) << 8
            let length = Int(payload[i + 2])
            guard i + 3 + length <= payload.count else {
                out.skipped.append(String(format: "object 0x%04X: overruns the frame", type))
                break
            }
            let v = SensorBytes(Array(payload[(i + 3)..<(i + 3 + length)]))
            defer { i += 3 + length }
            let read = reading(type, v) ?? state(type, v, model: model.model)
            if read.isEmpty { out.skipped.append(String(format: "object 0x%04X (%d bytes) not read", type, length)) }
            out.readings += read
        }
        if i < payload.count, out.skipped.isEmpty { out.skipped.append("\(payload.count - i) bytes left over") }
        return out
    }

    /// A state object, as xiaomi-ble reads it; an unknown one reads as nothing.
    static func state(_ type: UInt16, _ v: SensorBytes, model: String) -> [SensorReading] {
        func yes(_ on: Bool) -> Double { on ? 1 : 0 }
        switch (type, v.count) {
        // The MUE4094RT night light's "motion seen": it never says none, so an event, as xiaomi-ble has it.
        case (0x0003, _): return [SensorReading(motionSeen, 1)]
        case (0x000F, 3):
            // Motion, with the light: a level (MJYD02YL 1 or 100, RTCGQ02LM 0 or 256) or lux (CGPR1).
            guard let level = v.le(0, 3) else { return [] }
            switch model {
            case "MJYD02YL", "RTCGQ02LM": return [SensorReading(motion, 1), SensorReading(light, yes(level >= 100))]
            case "CGPR1": return [SensorReading(motion, 1), SensorReading(.illuminance, Double(level))]
            default: return [SensorReading(motion, 1)]
            }
        case (0x1017, 4), (0x4818, 2):
            // Seconds since the last motion.
            guard let quiet = v.le(0, v.count) else { return [] }
            return [SensorReading(motion, yes(quiet <= stillMoving))]
        case (0x4A08, 4):
            guard let lux = float(v), lux.isFinite, lux >= 0 else { return [] }
            return [SensorReading(motion, 1), SensorReading(.illuminance, lux, decimals: 1)]
        case (0x4805, 4):
            guard let lux = float(v), lux.isFinite, lux >= 0 else { return [] }
            return [SensorReading(.illuminance, lux, decimals: 1)]
        case (0x1018, 1): return [SensorReading(light, yes(v[0] != 0))]
        case (0x1019, 1):
            // 0 open, 1 closed, 2 left open; 3 a reset, which says nothing of the door.
            switch v[0] {
            case 0, 2: return [SensorReading(opening, 1)]
            case 1: return [SensorReading(opening, 0)]
            default: return []
            }
        case (0x4A12, 1):
            switch v[0] {
            case 1: return [SensorReading(opening, 1)]
            case 2: return [SensorReading(opening, 0)]
            default: return []
            }
        case (0x4A1A, 1), (0x4A0F, 1): return v[0] == 1 ? [SensorReading(opening, 1)] : []  // left open; forced open
        case (0x1014, 1), (0x4806, 1): return [SensorReading(wet, yes((v[0] ?? 0) > 0))]
        case (0x1015, 1): return [SensorReading(smoke, yes((v[0] ?? 0) > 0))]
        case (0x4A01, 1): return [SensorReading(batteryLow, yes(v[0] != 0))]
        default: return []
        }
    }

    static func reading(_ type: UInt16, _ v: SensorBytes) -> [SensorReading]? {
        switch (type, v.count) {
        case (0x1004, 2): return v.sle(0, 2).map { [SensorReading(.temperature, Double($0) / 10, decimals: 1)] } ?? []
        case (0x1006, 2):
            guard let h = v.le(0, 2), h <= 1000 else { return [] }
            return [SensorReading(.humidity, Double(h) / 10, decimals: 1)]
        case (0x1007, 3): return v.le(0, 3).map { [SensorReading(.illuminance, Double($0))] } ?? []
        case (0x1008, 1):
            guard let m = v[0], m <= 100 else { return [] }
            return [SensorReading(.moisture, Double(m))]
        case (0x1009, 2): return v.le(0, 2).map { [SensorReading(.conductivity, Double($0))] } ?? []
        case (0x100A, 1), (0x4803, 1), (0x4C03, 1):
            guard let level = v[0], level <= 100 else { return [] }
            return [SensorReading(.battery, Double(level))]
        case (0x100D, 4):
            guard let t = v.sle(0, 2), let h = v.le(2, 2), h <= 1000 else { return [] }
            return [SensorReading(.temperature, Double(t) / 10, decimals: 1), SensorReading(.humidity, Double(h) / 10, decimals: 1)]
        case (0x1010, 2): return v.le(0, 2).map { [SensorReading(formaldehyde, Double($0) / 100, decimals: 2)] } ?? []
        case (0x4C01, 4):
            guard let t = float(v), t.isFinite, t > -100, t < 200 else { return [] }
            return [SensorReading(.temperature, t, decimals: 2)]
        case (0x4C02, 1):
            guard let h = v[0], h <= 100 else { return [] }
            return [SensorReading(.humidity, Double(h))]
        case (0x4C08, 4):
            guard let h = float(v), h.isFinite, h >= 0, h <= 100 else { return [] }
            return [SensorReading(.humidity, h, decimals: 2)]
        default: return nil
        }
    }

    /// An IEEE 754 single, little-endian.
    static func float(_ v: SensorBytes) -> Double? {
        v.le(0, 4).map { Double(Float(bitPattern: UInt32($0))) }
    }
}
