// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation
import Localization

extension AdvertisingFields {
    /// The fields of advertising data as heard. Known AD types become fields, so they can be
    /// edited; when that would send other bytes (another order, a repeated type), every
    /// structure is kept as raw in the order heard, so a copy sends exactly what was heard.
    public init(parsing bytes: [UInt8]) {
        var structures: [(UInt8, [UInt8])] = []
        var i = 0
        while i < bytes.count {
            let length = Int(bytes[i])
            guard length > 0, i + 1 + length <= bytes.count else { break }
            structures.append((bytes[i + 1], Array(bytes[(i + 2)..<(i + 1 + length)])))
            i += 1 + length
        }
        var f = AdvertisingFields()
        for (type, data) in structures {
            switch type {
            case 0x01 where data.count == 1: f.flags = data[0]
            case 0x08, 0x09:
                f.localName = String(decoding: data, as: UTF8.self)
                f.shortenedName = type == 0x08
            case 0x0A where data.count == 1: f.txPower = Int8(bitPattern: data[0])
            case 0x19 where data.count == 2: f.appearance = UInt16(data[0]) | UInt16(data[1]) << 8
            case 0x02, 0x03, 0x04, 0x05, 0x06, 0x07:
                let width = type <= 0x03 ? 2 : type <= 0x05 ? 4 : 16
                guard data.count % width == 0 else { f.raw.append(RawADField(type: type, data: data)); continue }
                for start in stride(from: 0, to: data.count, by: width) {
                    if let uuid = BluetoothUUID(wire: Array(data[start..<(start + width)])) { f.serviceUUIDs.append(uuid) }
                }
            case 0x16, 0x20, 0x21:
                let width = type == 0x16 ? 2 : type == 0x20 ? 4 : 16
                guard data.count >= width, let uuid = BluetoothUUID(wire: Array(data.prefix(width))) else {
                    f.raw.append(RawADField(type: type, data: data)); continue
                }
                f.serviceData.append(ServiceDataField(uuid: uuid, data: Array(data.dropFirst(width))))
            case 0xFF where data.count >= 2:
                f.manufacturerData.append(ManufacturerField(companyID: UInt16(data[0]) | UInt16(data[1]) << 8, data: Array(data.dropFirst(2))))
            default:
                f.raw.append(RawADField(type: type, data: data))
            }
        }
        let consumed = Array(bytes.prefix(i))
        self = f.encoded == consumed ? f : AdvertisingFields(raw: structures.map { RawADField(type: $0.0, data: $0.1) })
    }
}

/// Clone This Device: a server setup with a connected device's services, characteristics and
/// descriptors at their handles, with the values read, and an advertisement with its last
/// advertising data and scan response.
public enum PeripheralClone {
    /// `values` by handle, for characteristic values and descriptors read; `name` the device's.
    public static func make(name: String, services: [GATTService], values: [UInt16: [UInt8]], advertising: [UInt8],
                            scanResponse: [UInt8], connectable: Bool) -> PeripheralFile {
        var setup = ServerSetup(name: name)
        for service in services {
            let uuid = service.uuid
            var served = ServedService(uuid: uuid, handle: service.start)
            for c in service.characteristics {
                let cu = c.uuid
                var copy = ServedCharacteristic(uuid: cu, properties: c.properties, value: values[c.valueHandle] ?? [], handle: c.handle)
                for d in c.descriptors {
                    let du = d.uuid
                    let value = values[d.handle] ?? []
                    if du == ServerSetup.configuration {
                        copy.cccdHandle = d.handle
                        // The device's configuration stands for properties its declaration may not list.
                        if !copy.hasConfiguration { copy.descriptors.append(ServedDescriptor(uuid: du, value: [0, 0], writable: true, handle: d.handle)) }
                    } else {
                        copy.descriptors.append(ServedDescriptor(uuid: du, value: value, handle: d.handle))
                    }
                }
                served.characteristics.append(copy)
                if uuid == ServerSetup.genericAccess, cu == BluetoothUUID(0x2A00), let gapName = values[c.valueHandle], !gapName.isEmpty {
                    setup.name = String(decoding: gapName, as: UTF8.self)
                }
            }
            setup.services.append(served)
        }
        let ad = Advertisement(label: L10n.format("Copy of {}", name), kind: connectable ? .connectable : .nonConnectable,
                               data: AdvertisingFields(parsing: advertising), scanResponse: AdvertisingFields(parsing: scanResponse))
        return PeripheralFile(advertisements: [ad], server: setup)
    }
}
