// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation
import Localization

/// AES-CCM sealing, for a BTHome frame FavBlue encrypts itself (SecurityToolbox has it).
public protocol PayloadSealer: Sendable {
    /// `plaintext` sealed with `key` and `nonce`: the ciphertext and a `tagLength`-byte tag.
    func ccmSeal(key: [UInt8], nonce: [UInt8], plaintext: [UInt8], associated: [UInt8], tagLength: Int) -> (ciphertext: [UInt8], tag: [UInt8])?
}

/// The readings a BTHome v2 advertisement carries, as the user sets them.
public struct BTHomeReadings: Equatable, Sendable {
    /// °C, to 0.01.
    public var temperature: Double
    /// %, to 0.01.
    public var humidity: Double
    /// %.
    public var battery: Int
    /// With a key, the frame is encrypted (bthome.io/encryption).
    public var key: [UInt8]?
    /// The encryption counter; it rises with every frame sent.
    public var counter: UInt32

    public init(temperature: Double = 21.5, humidity: Double = 48, battery: Int = 90, key: [UInt8]? = nil, counter: UInt32 = 1) {
        self.temperature = temperature
        self.humidity = humidity
        self.battery = battery
        self.key = key
        self.counter = counter
    }

    /// The objects in the order the specification wants them: battery (0x01), temperature (0x02), humidity (0x03).
    var objects: [UInt8] {
        let t = Int16(clamping: Int((temperature * 100).rounded())), h = UInt16(clamping: Int((humidity * 100).rounded()))
        return [0x01, UInt8(clamping: max(0, min(100, battery))),
                0x02, UInt8(truncatingIfNeeded: t), UInt8(truncatingIfNeeded: t >> 8),
                0x03, UInt8(h & 0xFF), UInt8(h >> 8)]
    }

    /// The service data after the UUID: plain (0x40, objects), or encrypted (0x41, ciphertext,
    /// counter, MIC; the nonce is the address, the UUID, the information byte and the counter).
    /// Nil when a key is set but `address` (six bytes, as shown) or `sealer` is missing.
    public func serviceData(address: [UInt8]?, sealer: PayloadSealer?) -> [UInt8]? {
        guard let key else { return [0x40] + objects }
        guard let address, address.count == 6, let sealer else { return nil }
        let counterBytes = (0..<4).map { UInt8(truncatingIfNeeded: counter >> (8 * UInt32($0))) }
        guard let sealed = sealer.ccmSeal(key: key, nonce: address + [0xD2, 0xFC, 0x41] + counterBytes, plaintext: objects,
                                          associated: [], tagLength: 4) else { return nil }
        return [0x41] + sealed.ciphertext + counterBytes + sealed.tag
    }
}

/// Ready-made advertisements (and, for devices a central connects to, their servers).
public enum AdvertisingPreset: String, Equatable, Sendable, CaseIterable {
    case iBeacon = "ibeacon"
    case eddystoneUID = "eddystone-uid"
    case eddystoneURL = "eddystone-url"
    case eddystoneTLM = "eddystone-tlm"
    case altBeacon = "altbeacon"
    case bthome
    case heartRate = "heart-rate"
    case battery
    case chat

    /// Its name in the Add menu.
    public var title: String {
        switch self {
        case .iBeacon: return "iBeacon"
        case .eddystoneUID: return L10n.tr("Eddystone UID")
        case .eddystoneURL: return L10n.tr("Eddystone URL")
        case .eddystoneTLM: return L10n.tr("Eddystone Telemetry")
        case .altBeacon: return "AltBeacon"
        case .bthome: return L10n.tr("BTHome Sensor")
        case .heartRate: return L10n.tr("Heart Rate Monitor")
        case .battery: return L10n.tr("Battery")
        case .chat: return L10n.tr("FavBlue Chat")
        }
    }

    static let beaconUUID: [UInt8] = Hex.bytes("7E57C0DE2C8F4F3C9F918577E1891234")!
    static let flags: UInt8 = 0x06

    /// The advertisement, with `name` where the kind carries one; BTHome's readings from `readings`.
    public func advertisement(name: String = "FavBlue", readings: BTHomeReadings = BTHomeReadings(),
                              address: [UInt8]? = nil, sealer: PayloadSealer? = nil) -> Advertisement {
        var made = made(name: name, readings: readings, address: address, sealer: sealer)
        made.namedAfter = self
        // A preset that brings a server is found under that server's name.
        made.nameFollowsServer = [.heartRate, .battery, .chat].contains(self)
        return made
    }

    private func made(name: String, readings: BTHomeReadings, address: [UInt8]?, sealer: PayloadSealer?) -> Advertisement {
        switch self {
        case .iBeacon:
            // Apple's layout: type 0x02, length 0x15, UUID, major, minor (big-endian), power at 1 m.
            let data = AdvertisingFields(flags: Self.flags, manufacturerData: [
                ManufacturerField(companyID: 0x004C, data: [0x02, 0x15] + Self.beaconUUID + [0x00, 0x01, 0x00, 0x02, UInt8(bitPattern: -59)])])
            return Advertisement(label: title, kind: .nonConnectable, data: data, intervalMilliseconds: 100)
        case .eddystoneUID:
            // Google's Eddystone: frame 0x00, power at 0 m, 10-byte namespace, 6-byte instance, two reserved bytes.
            return eddystone([0x00, UInt8(bitPattern: -20)] + Array(Self.beaconUUID.prefix(10)) + [0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00])
        case .eddystoneURL:
            return eddystone([0x10, UInt8(bitPattern: -20)] + Self.eddystoneURL("https://favblue.github.io"))
        case .eddystoneTLM:
            // Version 0: battery 3000 mV, 21.5 °C (8.8 fixed point), frames and uptime (0.1 s) counted, all big-endian.
            return eddystone([0x20, 0x00, 0x0B, 0xB8, 21, 0x80, 0, 0, 0x01, 0x00, 0, 0, 0x27, 0x10])
        case .altBeacon:
            // Radius Networks' AltBeacon: 0xBEAC, a 20-byte beacon ID, reference power, a reserved byte.
            let data = AdvertisingFields(flags: Self.flags, manufacturerData: [
                ManufacturerField(companyID: 0x0118, data: [0xBE, 0xAC] + Self.beaconUUID + [0x00, 0x01, 0x00, 0x02, UInt8(bitPattern: -59), 0x00])])
            return Advertisement(label: title, kind: .nonConnectable, data: data)
        case .bthome:
            let ad = Advertisement(label: title, kind: .nonConnectable, data: AdvertisingFields(flags: Self.flags, localName: name),
                                   intervalMilliseconds: 1_000, sensor: readings)
            return ad.withSensorData(address: address, sealer: sealer)
        case .heartRate:
            return Advertisement(label: title, data: AdvertisingFields(flags: Self.flags, localName: name, appearance: 0x0340,
                                                                      serviceUUIDs: [BluetoothUUID(0x180D)]))
        case .battery:
            return Advertisement(label: title, data: AdvertisingFields(flags: Self.flags, localName: name, serviceUUIDs: [BluetoothUUID(0x180F)]))
        case .chat:
            // The 128-bit UUID and a name do not fit in 31 bytes together: the name goes in the scan response.
            return Advertisement(label: title, data: AdvertisingFields(flags: Self.flags, serviceUUIDs: [Self.chatService]),
                                 scanResponse: AdvertisingFields(localName: name))
        }
    }

    /// The server a central finds when it connects; nil for beacons, which take no connections.
    public func server(name: String = "FavBlue") -> ServerSetup? {
        switch self {
        case .heartRate:
            return ServerSetup(name: name, appearance: 0x0340, services: [ServedService(uuid: BluetoothUUID(0x180D), characteristics: [
                ServedCharacteristic(uuid: BluetoothUUID(0x2A37), properties: [.notify], value: [0x00, 72]),
                ServedCharacteristic(uuid: BluetoothUUID(0x2A38), properties: [.read], value: [0x01]),
            ])])
        case .battery:
            return ServerSetup(name: name, services: [ServedService(uuid: BluetoothUUID(0x180F), characteristics: [
                ServedCharacteristic(uuid: BluetoothUUID(0x2A19), properties: [.read, .notify], value: [87],
                                     presentation: PresentationFormat(format: 0x04, exponent: 0, unit: 0x27AD)),
            ])])
        case .chat:
            return ServerSetup(name: name, services: [ServedService(uuid: Self.chatService, characteristics: [
                ServedCharacteristic(uuid: BluetoothUUID("7E57C001-2C8F-4F3C-9F91-8577E1891234")!, properties: [.notify],
                                     userDescription: L10n.tr("Messages to the central")),
                ServedCharacteristic(uuid: BluetoothUUID("7E57C002-2C8F-4F3C-9F91-8577E1891234")!,
                                     properties: [.write, .writeWithoutResponse], userDescription: L10n.tr("Messages from the central")),
            ])])
        default:
            return nil
        }
    }

    static let chatService = BluetoothUUID("7E57C000-2C8F-4F3C-9F91-8577E1891234")!

    private func eddystone(_ frame: [UInt8]) -> Advertisement {
        let eddystone = BluetoothUUID(0xFEAA)
        return Advertisement(label: title, kind: .nonConnectable,
                             data: AdvertisingFields(flags: Self.flags, serviceUUIDs: [eddystone],
                                                     serviceData: [ServiceDataField(uuid: eddystone, data: frame)]))
    }

    /// An Eddystone-URL's scheme byte and its encoded rest (the frame's expansion codes).
    static func eddystoneURL(_ url: String) -> [UInt8] {
        let schemes = ["http://www.", "https://www.", "http://", "https://"]
        let expansions = [".com/", ".org/", ".edu/", ".net/", ".info/", ".biz/", ".gov/", ".com", ".org", ".edu", ".net", ".info", ".biz", ".gov"]
        var rest = Substring(url)
        var out: [UInt8] = [0x03]
        for (i, scheme) in schemes.enumerated() where rest.hasPrefix(scheme) {
            out = [UInt8(i)]
            rest = rest.dropFirst(scheme.count)
            break
        }
        while !rest.isEmpty {
            if let (i, e) = expansions.enumerated().first(where: { rest.hasPrefix($0.element) }) {
                out.append(UInt8(i))
                rest = rest.dropFirst(e.count)
            } else {
                out += Array(String(rest.first!).utf8)
                rest = rest.dropFirst()
            }
        }
        return out
    }
}
