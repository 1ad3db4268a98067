// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// BTHome, the open format of DIY and Shelly sensors: service data 0xFCD2 (v2), and 0x181C
/// plain or 0x181E encrypted (v1). Source: the BTHome specification, bthome.io/format and
/// bthome.io/encryption (object IDs, types, factors; AES-CCM with a 4-byte MIC).
enum BTHome: SensorFamily {
    static let rank = 90
    static let reads: [SensorSource] = [.service("FCD2"), .service("181C"), .service("181E")]

    /// One object ID's reading: its quantity, byte length, sign and decimal places (the
    /// specification's factor: 0.01 → 2 places and a factor of 10⁻²).
    struct Object {
        let quantity: Quantity
        let length: Int
        let signed: Bool
        let factor: Double
        let decimals: Int

        init(_ quantity: Quantity, _ length: Int = 1, signed: Bool = false, factor: Double = 1, decimals: Int = 0) {
            self.quantity = quantity
            self.length = length
            self.signed = signed
            self.factor = factor
            self.decimals = decimals
        }
    }

    /// Objects whose length comes from a length byte after the ID (text, raw, a command).
    static let variable: Set<UInt8> = [0x3B, 0x53, 0x54]
    /// Device information, not readings (type, firmware): read over, not shown.
    static let information: [UInt8: Int] = [0xF0: 2, 0xF1: 4, 0xF2: 3]

    static func binary(_ key: String) -> Object { Object(.known(key)) }
    /// The catalogue's quantity, in the unit this object sends it in.
    static func m(_ key: String, _ unit: String) -> Quantity {
        let known = Quantity.known(key)
        return known.unit == unit ? known : known.sent(in: unit)
    }

    /// Every object ID of the current specification.
    static let objects: [UInt8: Object] = [
        0x00: Object(.packetID),
        0x01: Object(.battery),
        0x02: Object(.temperature, 2, signed: true, factor: 0.01, decimals: 2),
        0x03: Object(.humidity, 2, factor: 0.01, decimals: 2),
        0x04: Object(.pressure, 3, factor: 0.01, decimals: 2),
        0x05: Object(.illuminance, 3, factor: 0.01, decimals: 2),
        0x06: Object(.weight, 2, factor: 0.01, decimals: 2),
        0x07: Object(m("weight", "lb"), 2, factor: 0.01, decimals: 2),
        0x08: Object(m("dew_point", "°C"), 2, signed: true, factor: 0.01, decimals: 2),
        0x09: Object(.count),
        0x0A: Object(m("energy", "kWh"), 3, factor: 0.001, decimals: 3),
        0x0B: Object(m("power", "W"), 3, factor: 0.01, decimals: 2),
        0x0C: Object(.voltage, 2, factor: 0.001, decimals: 3),
        0x0D: Object(.pm25, 2),
        0x0E: Object(.pm10, 2),
        0x0F: binary("generic"), 0x10: binary("power_on"), 0x11: binary("opening"),
        0x12: Object(.carbonDioxide, 2),
        0x13: Object(m("volatile_organic_compounds", "µg/m³"), 2),
        0x14: Object(.moisture, 2, factor: 0.01, decimals: 2),
        0x15: binary("battery_low"), 0x16: binary("battery_charging"), 0x17: binary("carbon_monoxide"),
        0x18: binary("cold"), 0x19: binary("connectivity"), 0x1A: binary("door"), 0x1B: binary("garage_door"),
        0x1C: binary("gas_detected"), 0x1D: binary("heat"), 0x1E: binary("light"), 0x1F: binary("lock"),
        0x20: binary("wet"), 0x21: binary("motion"), 0x22: binary("moving"), 0x23: binary("occupancy"),
        0x24: binary("plug"), 0x25: binary("presence"), 0x26: binary("problem"), 0x27: binary("running"),
        0x28: binary("safety"), 0x29: binary("smoke"), 0x2A: binary("sound"), 0x2B: binary("tamper"),
        0x2C: binary("vibration"), 0x2D: binary("window"),
        0x2E: Object(.humidity),
        0x2F: Object(.moisture),
        0x3A: Object(.button),
        0x3C: Object(Quantity.known("dimmer"), 2),
        0x3D: Object(.count, 2),
        0x3E: Object(.count, 4),
        0x3F: Object(m("rotation", "°"), 2, signed: true, factor: 0.1, decimals: 1),
        0x40: Object(m("distance", "mm"), 2),
        0x41: Object(m("distance", "m"), 2, factor: 0.1, decimals: 1),
        0x42: Object(m("duration", "s"), 3, factor: 0.001, decimals: 3),
        0x43: Object(m("current", "A"), 2, factor: 0.001, decimals: 3),
        0x44: Object(m("speed", "m/s"), 2, factor: 0.01, decimals: 2),
        0x45: Object(.temperature, 2, signed: true, factor: 0.1, decimals: 1),
        0x46: Object(m("uv_index", ""), 1, factor: 0.1, decimals: 1),
        0x47: Object(m("volume", "L"), 2, factor: 0.1, decimals: 1),
        0x48: Object(m("volume", "mL"), 2),
        0x49: Object(m("volume_flow_rate", "m³/h"), 2, factor: 0.001, decimals: 3),
        0x4A: Object(.voltage, 2, factor: 0.1, decimals: 1),
        0x4B: Object(m("gas", "m³"), 3, factor: 0.001, decimals: 3),
        0x4C: Object(m("gas", "m³"), 4, factor: 0.001, decimals: 3),
        0x4D: Object(m("energy", "kWh"), 4, factor: 0.001, decimals: 3),
        0x4E: Object(m("volume", "L"), 4, factor: 0.001, decimals: 3),
        0x4F: Object(m("water", "L"), 4, factor: 0.001, decimals: 3),
        0x50: Object(m("timestamp", "s"), 4),
        0x51: Object(m("acceleration", "m/s²"), 2, factor: 0.001, decimals: 3),
        0x52: Object(m("gyroscope", "°/s"), 2, factor: 0.001, decimals: 3),
        0x55: Object(m("volume_storage", "L"), 4, factor: 0.001, decimals: 3),
        0x56: Object(.conductivity, 2),
        0x57: Object(.temperature, 1, signed: true),
        0x58: Object(.temperature, 1, signed: true, factor: 0.35, decimals: 2),
        0x59: Object(.count, 1, signed: true),
        0x5A: Object(.count, 2, signed: true),
        0x5B: Object(.count, 4, signed: true),
        0x5C: Object(m("power", "W"), 4, signed: true, factor: 0.01, decimals: 2),
        0x5D: Object(m("current", "A"), 2, signed: true, factor: 0.001, decimals: 3),
        0x5E: Object(m("direction", "°"), 2, factor: 0.01, decimals: 2),
        0x5F: Object(m("precipitation", "mm"), 2, factor: 0.1, decimals: 1),
        0x60: Object(m("channel", "")),
        0x61: Object(m("rotational_speed", "rpm"), 2),
        0x62: Object(m("speed", "m/s"), 4, signed: true, factor: 0.000001, decimals: 6),
        0x63: Object(m("acceleration", "m/s²"), 4, signed: true, factor: 0.000001, decimals: 6),
        0x64: Object(m("light_level", "")),
        0x65: Object(m("settings_revision", "")),
    ]

    static func decode(_ frame: SensorFrame, keys: SensorKeys?) -> SensorData? {
        if let data = frame.service("FCD2") { return v2(data, frame: frame, keys: keys) }
        if let data = frame.service("181C") { return v1(data) }
        if let data = frame.service("181E") { return v1Encrypted(data, frame: frame, keys: keys) }
        return nil
    }

    // MARK: Version 2

    /// The device-information byte (bit 0 encrypted, bits 5–7 the version, which must be 2),
    /// then objects: an ID, then as many bytes as the ID's type takes, little-endian.
    static func v2(_ data: [UInt8], frame: SensorFrame, keys: SensorKeys?) -> SensorData? {
        guard let info = data.first, info >> 5 == 2 else { return nil }
        let model = SensorModel(maker: "BTHome", model: "v2")
        var payload = Array(data.dropFirst())
        // Bit 1: the sender's MAC follows, least significant byte first (a relayed frame); an
        // encrypted frame's nonce is built from it.
        var mac = frame.addressBytes
        if info & 0x02 != 0 {
            guard payload.count >= 6 else { return nil }
            mac = Array(payload.prefix(6).reversed())
            payload.removeFirst(6)
        }
        var sealedBy: UInt32?
        if info & 0x01 != 0 {
            // Ciphertext, a 4-byte counter, a 4-byte MIC; the nonce is the address, the UUID
            // (little-endian), the information byte and the counter (bthome.io/encryption).
            guard payload.count >= 8 else { return nil }
            let counter = Array(payload[(payload.count - 8)..<(payload.count - 4)])
            let tag = Array(payload.suffix(4))
            let ciphertext = Array(payload.prefix(payload.count - 8))
            guard let keys, let key = keys.key(for: frame.address), let mac else {
                return SensorData(model: model, encrypted: true)
            }
            guard let plain = keys.ccmOpen(key: key, nonce: mac + [0xD2, 0xFC, info] + counter, ciphertext: ciphertext,
                                           tag: tag, associated: []) else {
                return SensorData(model: model, encrypted: true, wrongKey: true)
            }
            payload = plain
            sealedBy = SensorBytes(counter).le(0, 4).map(UInt32.init)
        }
        var out = SensorData(model: model)
        out.sealed = sealedBy != nil
        out.counter = sealedBy
        var i = 0
        let bytes = SensorBytes(payload)
        while i < payload.count {
            let id = payload[i]
            if let length = information[id] {
                i += 1 + length
                continue
            }
            if variable.contains(id) {
                guard let lengthByte = bytes[i + 1] else { out.skipped.append("object 0x\(Hex.compact([id])): no length"); break }
                let length = id == 0x3B ? 1 + Int(lengthByte & 0x1F) : Int(lengthByte)
                guard i + 2 + length <= payload.count else { out.skipped.append("object 0x\(Hex.compact([id])): overruns the frame"); break }
                if id == 0x3B { out.readings.append(SensorReading(Quantity.known("command"), Double(payload[i + 2]))) }
                i += 2 + length
                continue
            }
            guard let object = objects[id] else {
                // An unknown ID's length is unknown too, so nothing after it can be read.
                out.skipped.append("unknown object 0x\(Hex.compact([id]))")
                break
            }
            guard let raw = bytes.le(i + 1, object.length) else {
                out.skipped.append("object 0x\(Hex.compact([id])): overruns the frame")
                break
            }
            let value = object.signed ? Double(SensorBytes.signed(raw, object.length)) : Double(raw)
            if id == 0x3C {
                // A dimmer: the event (1 left, 2 right), then the steps.
                out.readings.append(SensorReading(object.quantity, Double(raw & 0xFF)))
            } else if object.quantity.kind == .binary && raw > 1 {
                out.skipped.append("object 0x\(Hex.compact([id])): \(raw) is not a state")
            } else {
                out.readings.append(SensorReading(object.quantity, value * object.factor, decimals: object.decimals))
            }
            i += 1 + object.length
        }
        out.packetID = out.readings.first { $0.quantity == .packetID }.map { Int($0.value) }
        return out
    }

    // MARK: Version 1

    /// Objects of a control byte (bits 5–7 the format: 0 unsigned, 1 signed, 2 float; bits 0–4
    /// the length of the ID and value), the ID, then the value, little-endian.
    static func v1(_ payload: [UInt8], model: SensorModel = SensorModel(maker: "BTHome", model: "v1")) -> SensorData? {
        var out = SensorData(model: model)
        let bytes = SensorBytes(payload)
        var i = 0
        while i < payload.count {
            let control = payload[i]
            let length = Int(control & 0x1F), format = control >> 5
            guard length >= 1, i + 1 + length <= payload.count else {
                out.skipped.append("object at \(i): overruns the frame")
                break
            }
            let id = payload[i + 1], valueLength = length - 1
            defer { i += 1 + length }
            guard let object = objects[id], format <= 1, valueLength >= 1, valueLength <= 4,
                  let raw = bytes.le(i + 2, valueLength) else {
                out.skipped.append("object 0x\(Hex.compact([id])) not read")
                continue
            }
            let value = format == 1 ? Double(SensorBytes.signed(raw, valueLength)) : Double(raw)
            if object.quantity.kind == .binary && value != 0 && value != 1 {
                out.skipped.append("object 0x\(Hex.compact([id])): \(Int(value)) is not a state")
                continue
            }
            out.readings.append(SensorReading(object.quantity, value * object.factor, decimals: object.decimals))
        }
        return out
    }

    /// Version 1 encrypted (0x181E): ciphertext, a 4-byte counter, a 4-byte MIC; the nonce is
    /// the address, the UUID (little-endian) and the counter.
    static func v1Encrypted(_ data: [UInt8], frame: SensorFrame, keys: SensorKeys?) -> SensorData? {
        let model = SensorModel(maker: "BTHome", model: "v1")
        guard data.count >= 8 else { return nil }
        let counter = Array(data[(data.count - 8)..<(data.count - 4)])
        guard let keys, let key = keys.key(for: frame.address), let mac = frame.addressBytes else {
            return SensorData(model: model, encrypted: true)
        }
        guard let plain = keys.ccmOpen(key: key, nonce: mac + [0x1E, 0x18] + counter, ciphertext: Array(data.prefix(data.count - 8)),
                                       tag: Array(data.suffix(4)), associated: [0x11]) else {
            return SensorData(model: model, encrypted: true, wrongKey: true)
        }
        var out = v1(plain, model: model)
        out?.sealed = true
        out?.counter = SensorBytes(counter).le(0, 4).map(UInt32.init)
        return out
    }
}
