// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation
import Localization

/// A server setup saved by nRF Connect for Desktop's Bluetooth Low Energy app ("Save setup…"):
/// the app's state as JSON, services under "children" by instance id, their characteristics and
/// descriptors under their own "children" (pc-nrfconnect-ble, lib/reducers/serverSetupReducer.js).
enum NRFConnectSetup {
    static func read(_ root: JSONNode) throws(JSONFileProblem) -> ServerSetup {
        var setup = ServerSetup(name: "FavBlue")
        for serviceMember in root["children"]?.members ?? [] {
            let s = serviceMember.node
            var service = ServedService(uuid: try uuid(s))
            for charMember in s["children"]?.members ?? [] {
                let c = charMember.node
                var properties = GATTProperties()
                if let p = c["properties"] {
                    for (keys, property) in propertyKeys where keys.contains(where: { p[$0]?.bool == true }) { properties.insert(property) }
                }
                let (readable, readSecurity) = try permission(c["readPerm"])
                let (writable, writeSecurity) = try permission(c["writePerm"])
                if !readable { properties.remove(.read) }
                if !writable { properties.subtract([.write, .writeWithoutResponse]) }
                var characteristic = ServedCharacteristic(
                    uuid: try uuid(c), properties: properties, readSecurity: readSecurity, writeSecurity: writeSecurity,
                    value: try value(c), maximumLength: min(512, Int(c["maxLength"]?.number ?? 512)))
                for descMember in c["children"]?.members ?? [] {
                    let d = descMember.node
                    let type = try uuid(d)
                    let bytes = try value(d)
                    switch type {
                    case ServerSetup.configuration:
                        // FavBlue makes the configuration itself, one per characteristic that notifies or indicates.
                        continue
                    case ServerSetup.userDescription:
                        characteristic.userDescription = String(decoding: bytes, as: UTF8.self)
                    case ServerSetup.presentationFormat where PresentationFormat(descriptor: bytes) != nil:
                        characteristic.presentation = PresentationFormat(descriptor: bytes)
                    default:
                        let (dr, drs) = try permission(d["readPerm"])
                        let (dw, dws) = try permission(d["writePerm"])
                        characteristic.descriptors.append(ServedDescriptor(uuid: type, value: bytes, readable: dr, writable: dw,
                                                                           readSecurity: drs, writeSecurity: dws))
                    }
                }
                service.characteristics.append(characteristic)
            }
            if service.uuid == ServerSetup.genericAccess {
                // Its name and appearance become the setup's; FavBlue serves Generic Access itself.
                for c in service.characteristics {
                    if c.uuid == BluetoothUUID(0x2A00) { setup.name = String(decoding: c.value, as: UTF8.self) }
                    if c.uuid == BluetoothUUID(0x2A01), c.value.count == 2 { setup.appearance = UInt16(c.value[0]) | UInt16(c.value[1]) << 8 }
                }
                continue
            }
            // Generic Attribute is FavBlue's own as well; an empty one in the file is the app's default.
            if service.uuid == ServerSetup.genericAttribute && service.characteristics.isEmpty { continue }
            setup.services.append(service)
        }
        return setup
    }

    /// Both spellings nRF Connect wrote over the years.
    private static let propertyKeys: [([String], GATTProperties)] = [
        (["broadcast"], .broadcast), (["read"], .read), (["writeWoResp", "write_wo_resp"], .writeWithoutResponse),
        (["write"], .write), (["notify"], .notify), (["indicate"], .indicate), (["authSignedWr", "auth_signed_wr"], .signedWrite),
    ]

    private static func uuid(_ node: JSONNode) throws(JSONFileProblem) -> BluetoothUUID {
        guard let at = node["uuid"] else { throw JSONFileProblem(line: node.line, L10n.tr("an attribute has no “uuid”.")) }
        return try PeripheralFile.uuid(at)
    }

    /// The value as nRF Connect keeps it: an array of byte numbers.
    private static func value(_ node: JSONNode) throws(JSONFileProblem) -> [UInt8] {
        guard let items = node["value"]?.array else { return [] }
        guard items.count <= 512 else { throw JSONFileProblem(line: node["value"]!.line, L10n.tr("the value is longer than an attribute holds (512 bytes).")) }
        var bytes: [UInt8] = []
        for item in items { bytes.append(UInt8(try PeripheralFile.integer(item, 0...255))) }
        return bytes
    }

    /// "open", "encrypt", "encrypt mitm-protection", "lesc" or "no_access" (CharacteristicEditor.jsx).
    private static func permission(_ node: JSONNode?) throws(JSONFileProblem) -> (allowed: Bool, security: AttributeSecurity) {
        guard let node else { return (true, .none) }
        switch node.string {
        case "open"?: return (true, .none)
        case "encrypt"?: return (true, .encrypted)
        case "encrypt mitm-protection"?, "lesc"?: return (true, .authenticated)
        case "no_access"?: return (false, .none)
        default:
            throw JSONFileProblem(line: node.line, L10n.format("“{}” is no permission nRF Connect knows.", node.string ?? "?"))
        }
    }
}
