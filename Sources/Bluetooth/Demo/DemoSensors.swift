// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation

/// The demo's sensors: five thermometers of the families a home has and a door's contact
/// sensor, each sending what the real one sends, with readings that drift slowly with the
/// clock. The freezer encrypts its readings; its key is in the guide, so the key flow can be tried.
///
/// Their advertisements go the way real ones go: an HCI event, `ObservationDecoder`, the
/// sensor decoders. Nothing here decodes anything.
public enum DemoSensors {
    /// The freezer's BTHome key, as the guide gives it.
    public static let freezerKeyText = "5a4d0f6e9c3b2a1807f6e5d4c3b2a190"
    static var freezerKey: [UInt8] { stride(from: 0, to: 32, by: 2).map { UInt8(freezerKeyText.dropFirst($0).prefix(2), radix: 16)! } }

    /// One sensor: where it is heard from, how strongly, and what it sends at a moment.
    struct Sensor: Sendable {
        let id: DeviceID
        let rssi: Int
        /// The advertising data, and a scan response where the data leaves no room for the name.
        let frames: @Sendable (_ at: Date, _ sealer: PayloadSealer?) -> (data: [UInt8], scanResponse: [UInt8]?)?
    }

    static func address(_ last: UInt8) -> DeviceID {
        // Static random, as battery sensors use (Core v5.4, Vol 6, Part B, §1.3.2.1).
        DeviceID(octets: [0xC4, 0x7C, 0x8D, 0x6A, 0x3E, last], kind: .leRandom)
    }

    /// A figure that wanders between `low` and `high` over `minutes`, the same at the same moment
    /// in every run: a room's temperature over an afternoon, sped up.
    static func drift(_ at: Date, low: Double, high: Double, minutes: Double, phase: Double = 0) -> Double {
        let turn = at.timeIntervalSince1970 / (minutes * 60) * 2 * .pi + phase
        return low + (high - low) * (0.5 + 0.5 * sin(turn))
    }

    static func name(_ text: String) -> [UInt8] { [UInt8(text.utf8.count + 1), 0x09] + Array(text.utf8) }
    static let flags: [UInt8] = [0x02, 0x01, 0x06]

    static let all: [Sensor] = [
        // BTHome v2, plain (bthome.io/format): battery, temperature, humidity.
        Sensor(id: address(0x01), rssi: -58) { at, _ in
            let readings = BTHomeReadings(temperature: drift(at, low: 22.5, high: 27.5, minutes: 20),
                                          humidity: drift(at, low: 55, high: 70, minutes: 30, phase: 1), battery: 87)
            guard let service = readings.serviceData(address: nil, sealer: nil) else { return nil }
            return (flags + [UInt8(service.count + 3), 0x16, 0xD2, 0xFC] + service + name("Greenhouse"), nil)
        },
        // BTHome v2, encrypted with the freezer's key; the counter rises every second.
        Sensor(id: address(0x02), rssi: -71) { at, sealer in
            let readings = BTHomeReadings(temperature: drift(at, low: -19.5, high: -17, minutes: 15), humidity: drift(at, low: 30, high: 40, minutes: 20), battery: 64,
                                          key: freezerKey, counter: UInt32(clamping: Int(at.timeIntervalSince1970)))
            guard let service = readings.serviceData(address: address(0x02).octets, sealer: sealer) else { return nil }
            return ([UInt8(service.count + 3), 0x16, 0xD2, 0xFC] + service + name("Freezer"), nil)
        },
        // Govee H5075: 0xEC88, temperature and humidity packed in three bytes, then the battery.
        Sensor(id: address(0x03), rssi: -64) { at, _ in
            let t = drift(at, low: 20.5, high: 22.5, minutes: 25, phase: 2), h = drift(at, low: 42, high: 50, minutes: 35)
            let word = Int((t * 10).rounded()) * 1000 + Int((h * 10).rounded())
            let data: [UInt8] = [0x88, 0xEC, 0x00, UInt8(word >> 16 & 0xFF), UInt8(word >> 8 & 0xFF), UInt8(word & 0xFF), 92, 0x00]
            return (flags + [UInt8(data.count + 1), 0xFF] + data + name("GVH5075_8F2A"), nil)
        },
        // RuuviTag, data format 5: the 24 bytes fill the advertisement; the name comes in the scan response.
        Sensor(id: address(0x04), rssi: -77) { at, _ in
            let t = Int((drift(at, low: 3, high: 9, minutes: 40, phase: 3) / 0.005).rounded())
            let h = Int((drift(at, low: 70, high: 85, minutes: 45) / 0.0025).rounded())
            let p = Int((drift(at, low: 1008, high: 1016, minutes: 60) * 100).rounded()) - 50000
            let power = (2950 - 1600) << 5 | 4
            var data: [UInt8] = [0x99, 0x04, 0x05]
            for (value, size) in [(t, 2), (h, 2), (p, 2), (0, 2), (0, 2), (1000, 2), (power, 2)] {
                data += (0..<size).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
            }
            let sequence = Int(at.timeIntervalSince1970) & 0xFFFF
            data += [12, UInt8(sequence >> 8), UInt8(sequence & 0xFF)] + address(0x04).octets
            return (flags + [UInt8(data.count + 1), 0xFF] + data, name("Ruuvi 3C4D"))
        },
        // A Xiaomi LYWSD03MMC on pvvx's firmware: service data 0x181A, little-endian.
        Sensor(id: address(0x05), rssi: -61) { at, _ in
            let t = Int((drift(at, low: 19, high: 21, minutes: 30, phase: 4) * 100).rounded())
            let h = Int((drift(at, low: 38, high: 46, minutes: 25) * 100).rounded())
            let counter = UInt8(truncatingIfNeeded: Int(at.timeIntervalSince1970))
            var data: [UInt8] = [0x1A, 0x18] + address(0x05).wireBytes
            for value in [t, h, 2980] { data += [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8)] }
            data += [78, counter, 0x04]
            return ([UInt8(data.count + 1), 0x16] + data + name("ATC_8E3F"), nil)
        },
        // BTHome v2, plain: the back door's contact sensor, open for the first 10 s of every
        // half minute; its packet number moves on with each change, as a real one's does.
        Sensor(id: address(0x07), rssi: -69) { at, _ in
            let second = Int(at.timeIntervalSince1970)
            let open: UInt8 = second % 30 < 10 ? 1 : 0
            let packet = UInt8(truncatingIfNeeded: second / 30 * 2 + Int(open))
            let service: [UInt8] = [0x40, 0x00, packet, 0x01, 93, 0x1A, open]
            return (flags + [UInt8(service.count + 3), 0x16, 0xD2, 0xFC] + service + name("Back Door"), nil)
        },
    ]

    /// What the kitchen's gateway hears: the freezer, close by, and the fridge, which this
    /// computer's radio cannot reach ("Heard only in Kitchen").
    static let kitchen: [Sensor] = [
        Sensor(id: address(0x02), rssi: -46, frames: all[1].frames),
        // BTHome v2, plain: the fridge's temperature and battery.
        Sensor(id: address(0x06), rssi: -52) { at, _ in
            let readings = BTHomeReadings(temperature: drift(at, low: 3.5, high: 5.5, minutes: 12), humidity: drift(at, low: 60, high: 75, minutes: 18),
                                          battery: 71)
            guard let service = readings.serviceData(address: nil, sealer: nil) else { return nil }
            return (flags + [UInt8(service.count + 3), 0x16, 0xD2, 0xFC] + service + name("Fridge"), nil)
        },
    ]

    /// The LE Advertising Report events (Core v5.4, Vol 4, Part E, §7.7.65.2) a controller
    /// sends for `sensors` at `at`: non-connectable, and scannable where a scan response follows.
    static func advertisingEvents(at: Date, sealer: PayloadSealer?, of sensors: [Sensor] = all) -> [[UInt8]] {
        sensors.flatMap { sensor -> [[UInt8]] in
            guard let frames = sensor.frames(at, sealer) else { return [] }
            let rssi = sensor.rssi + Int.random(in: -2...2)
            var events = [report(sensor.id, type: frames.scanResponse == nil ? 0x03 : 0x02, data: frames.data, rssi: rssi)]
            if let response = frames.scanResponse { events.append(report(sensor.id, type: 0x04, data: response, rssi: rssi)) }
            return events
        }
    }

    static func report(_ id: DeviceID, type: UInt8, data: [UInt8], rssi: Int) -> [UInt8] {
        let body: [UInt8] = [0x02, 1, type, 0x01] + id.wireBytes + [UInt8(data.count)] + data
            + [UInt8(bitPattern: Int8(clamping: rssi))]
        return [0x3E, UInt8(body.count)] + body
    }
}
