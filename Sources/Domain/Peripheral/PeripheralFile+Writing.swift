// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation

/// FavBlue's own file, written: what `PeripheralFile.read` reads back as it was.
extension PeripheralFile {
    /// The file as JSON text.
    public var text: String {
        var members = [JSONMember("format", .init(.string(Self.magic))), JSONMember("version", .init(.number(Double(Self.version))))]
        if !advertisements.isEmpty {
            members.append(JSONMember("advertisements", .init(.array(advertisements.map { ad in
                .init(Self.json(ad, on: on.contains(ad.id)))
            }))))
        }
        if let server { members.append(JSONMember("server", .init(Self.json(server)))) }
        return JSONDocument.write(JSONNode(.object(members)))
    }

    private static func json(_ a: Advertisement, on: Bool) -> JSONValue {
        var m: [JSONMember] = [
            JSONMember("id", .init(.string(a.id))), JSONMember("label", .init(.string(a.title))), JSONMember("on", .init(.bool(on))),
            JSONMember("kind", .init(.string(a.kind.rawValue))), JSONMember("extended", .init(.bool(a.extended))),
        ]
        // A preset's name follows the language until renamed; the label above is it as it reads now.
        if let preset = a.namedAfter { m.append(JSONMember("namedAfterPreset", .init(.string(preset.rawValue)))) }
        if a.nameFollowsServer { m.append(JSONMember("nameFollowsServer", .init(.bool(true)))) }
        if a.extended {
            m.append(JSONMember("primaryPHY", .init(.string(a.primaryPHY.rawValue))))
            m.append(JSONMember("secondaryPHY", .init(.string(a.secondaryPHY.rawValue))))
        }
        m.append(JSONMember("intervalMs", .init(.number(a.intervalMilliseconds))))
        if let duration = a.durationSeconds { m.append(JSONMember("durationSeconds", .init(.number(duration)))) }
        if let r = a.sensor {
            var sm = [JSONMember("temperature", .init(.number(r.temperature))), JSONMember("humidity", .init(.number(r.humidity))),
                      JSONMember("battery", .init(.number(Double(r.battery)))), JSONMember("counter", .init(.number(Double(r.counter))))]
            if let key = r.key { sm.append(JSONMember("key", hex(key))) }
            m.append(JSONMember("bthome", .init(.object(sm))))
        }
        m.append(JSONMember("data", .init(json(a.data))))
        if !a.scanResponse.isEmpty { m.append(JSONMember("scanResponse", .init(json(a.scanResponse)))) }
        return .object(m)
    }

    private static func hex(_ bytes: [UInt8]) -> JSONNode { .init(.string(Hex.spaced(bytes))) }

    private static func json(_ f: AdvertisingFields) -> JSONValue {
        var m: [JSONMember] = []
        if let flags = f.flags { m.append(JSONMember("flags", .init(.number(Double(flags))))) }
        if let name = f.localName { m.append(JSONMember("name", .init(.string(name)))) }
        if f.shortenedName { m.append(JSONMember("shortenedName", .init(.bool(true)))) }
        if let tx = f.txPower { m.append(JSONMember("txPower", .init(.number(Double(tx))))) }
        if let appearance = f.appearance { m.append(JSONMember("appearance", .init(.number(Double(appearance))))) }
        if !f.serviceUUIDs.isEmpty {
            m.append(JSONMember("serviceUUIDs", .init(.array(f.serviceUUIDs.map { .init(.string($0.text)) }))))
        }
        if !f.serviceData.isEmpty {
            m.append(JSONMember("serviceData", .init(.array(f.serviceData.map {
                .init(.object([JSONMember("uuid", .init(.string($0.uuid.text))), JSONMember("hex", hex($0.data))]))
            }))))
        }
        if !f.manufacturerData.isEmpty {
            m.append(JSONMember("manufacturerData", .init(.array(f.manufacturerData.map {
                .init(.object([JSONMember("company", .init(.number(Double($0.companyID)))), JSONMember("hex", hex($0.data))]))
            }))))
        }
        if !f.raw.isEmpty {
            m.append(JSONMember("raw", .init(.array(f.raw.map {
                .init(.object([JSONMember("type", .init(.number(Double($0.type)))), JSONMember("hex", hex($0.data))]))
            }))))
        }
        return .object(m)
    }

    private static func json(_ s: ServerSetup) -> JSONValue {
        var m = [JSONMember("id", .init(.string(s.id))), JSONMember("name", .init(.string(s.name)))]
        if let appearance = s.appearance { m.append(JSONMember("appearance", .init(.number(Double(appearance))))) }
        m.append(JSONMember("services", .init(.array(s.services.map { service in
            var sm = [JSONMember("uuid", .init(.string(service.uuid.text)))]
            if !service.primary { sm.append(JSONMember("primary", .init(.bool(false)))) }
            if let handle = service.handle { sm.append(JSONMember("handle", .init(.number(Double(handle))))) }
            sm.append(JSONMember("characteristics", .init(.array(service.characteristics.map { .init(json($0)) }))))
            return .init(.object(sm))
        }))))
        return .object(m)
    }

    private static func json(_ c: ServedCharacteristic) -> JSONValue {
        let words = PeripheralFile.propertyWords.filter { c.properties.contains($0.value) }.map(\.key).sorted {
            order.firstIndex(of: $0)! < order.firstIndex(of: $1)!
        }
        var m = [JSONMember("uuid", .init(.string(c.uuid.text))),
                 JSONMember("properties", .init(.array(words.map { .init(.string($0)) })))]
        if c.readSecurity != .none { m.append(JSONMember("readSecurity", .init(.string(c.readSecurity.rawValue)))) }
        if c.writeSecurity != .none { m.append(JSONMember("writeSecurity", .init(.string(c.writeSecurity.rawValue)))) }
        m.append(JSONMember("hex", hex(c.value)))
        if c.maximumLength != 512 { m.append(JSONMember("maxLength", .init(.number(Double(c.maximumLength))))) }
        if let description = c.userDescription { m.append(JSONMember("description", .init(.string(description)))) }
        if let p = c.presentation {
            m.append(JSONMember("presentation", .init(.object([
                JSONMember("format", .init(.number(Double(p.format)))), JSONMember("exponent", .init(.number(Double(p.exponent)))),
                JSONMember("unit", .init(.number(Double(p.unit)))),
            ]))))
        }
        if let handle = c.handle { m.append(JSONMember("handle", .init(.number(Double(handle))))) }
        if let handle = c.cccdHandle { m.append(JSONMember("cccdHandle", .init(.number(Double(handle))))) }
        if !c.descriptors.isEmpty {
            m.append(JSONMember("descriptors", .init(.array(c.descriptors.map { d in
                var dm = [JSONMember("uuid", .init(.string(d.uuid.text))), JSONMember("hex", hex(d.value))]
                if !d.readable { dm.append(JSONMember("readable", .init(.bool(false)))) }
                if d.writable { dm.append(JSONMember("writable", .init(.bool(true)))) }
                if d.readSecurity != .none { dm.append(JSONMember("readSecurity", .init(.string(d.readSecurity.rawValue)))) }
                if d.writeSecurity != .none { dm.append(JSONMember("writeSecurity", .init(.string(d.writeSecurity.rawValue)))) }
                if let handle = d.handle { dm.append(JSONMember("handle", .init(.number(Double(handle))))) }
                return .init(.object(dm))
            }))))
        }
        return .object(m)
    }

    private static let order = ["broadcast", "read", "writeWithoutResponse", "write", "notify", "indicate", "signedWrite"]
}
