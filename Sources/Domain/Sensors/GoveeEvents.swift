// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// Govee's event sensors, H5121 (motion), H5122, H5125 and H5126 (one, six and two buttons),
/// H5123 (window), H5124 (vibration) and H5130 (pressure pad with a button): 24 bytes under any
/// company ID, a four-byte time field at 2, sixteen scrambled bytes at 6 and their CRC-16
/// (CCITT, from 0x1D0F, big-endian) at 22. The sixteen bytes are AES-128 in ECB under a key
/// of the time field and twelve zeros, each of the three byte-reversed; opened, byte 2 is the
/// model, 4 the battery and 5 what happened. The key is in the frame, so this is a format, not
/// a secret: no Key… is asked for. A new time field is a new event; a frame repeated is not.
/// Source: Home Assistant's govee-ble (parser.py, `decrypt_data`, and its test frames).
enum GoveeEvents: SensorFamily {
    static let rank = 69
    static let reads: [SensorSource] = [.anyCompany]
    static let motionSeen = Quantity.known("motion_seen")
    static let vibrationFelt = Quantity.known("vibration_felt")
    static let button = Quantity.known("button")
    static let window = Quantity.known("window")
    static let presence = Quantity.known("presence")

    /// The model byte's models, and how many buttons each has.
    static let models: [UInt8: (name: String, buttons: Int)] = [
        3: ("H5121", 0), 8: ("H5122", 1), 2: ("H5123", 0), 9: ("H5124", 0), 10: ("H5125", 6), 11: ("H5126", 2), 13: ("H5130", 1),
    ]

    static func decode(_ frame: SensorFrame, keys: SensorKeys?) -> SensorData? {
        for block in frame.manufacturerData.reversed() where block.data.count == 24 {
            if let out = decode(block.data) { return out }
        }
        return nil
    }

    static func decode(_ data: [UInt8]) -> SensorData? {
        let sealed = Array(data[6..<22])
        guard crc16(sealed) == UInt16(data[22]) << 8 | UInt16(data[23]), let cipher = SensorCiphers.block,
              let reversed = cipher.aesDecrypt(key: (Array(data[2..<6]) + [UInt8](repeating: 0, count: 12)).reversed(),
                                               block: sealed.reversed())
        else { return nil }
        let opened = Array(reversed.reversed())
        guard let model = models[opened[2]], opened[4] <= 100 else { return nil }
        let what = opened[5]
        // The time field tells one event from the same frame sent again.
        let time = Double(UInt16(data[4]) << 8 | UInt16(data[5]))
        var readings = [SensorReading(.battery, Double(opened[4])), SensorReading(.packetID, time)]
        switch model.name {
        case "H5121": readings.append(SensorReading(motionSeen, what == 1 ? 1 : 0))
        case "H5124": readings.append(SensorReading(vibrationFelt, what == 1 ? 1 : 0))
        case "H5123": readings.append(SensorReading(window, what == 2 ? 1 : 0))
        case "H5130":
            // A bit field: 0x01 pressure on the pad, 0x10 the button; 0x10 alone says nothing of the pad.
            if what & 0x10 != 0 { readings.append(SensorReading(button, 1)) }
            if what != 0x10 { readings.append(SensorReading(presence, what & 0x01 != 0 ? 1 : 0)) }
        default:
            guard Int(what) < model.buttons else { return nil }
            readings.append(SensorReading(button, 1, slot: model.buttons > 1 ? Int(what) + 1 : nil))
        }
        return SensorData(model: SensorModel(maker: "Govee", model: model.name), readings: readings)
    }

    /// CRC-16/CCITT from 0x1D0F, most significant bit first.
    static func crc16(_ bytes: [UInt8]) -> UInt16 {
        var crc: UInt16 = 0x1D0F
        for byte in bytes {
            for bit in (0..<8).reversed() {
                let feedback = (crc >> 15) ^ UInt16((byte >> UInt8(bit)) & 1)
                crc = (crc << 1) ^ (feedback != 0 ? 0x1021 : 0)
            }
        }
        return crc
    }
}
