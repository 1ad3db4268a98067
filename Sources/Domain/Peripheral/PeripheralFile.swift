// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation
import Localization

/// A file of advertisements and a GATT server setup, as FavBlue exports and imports them
/// (docs/peripheral-format.md). nRF Connect for Desktop's saved server setups import too.
public struct PeripheralFile: Equatable, Sendable {
    public var advertisements: [Advertisement]
    public var server: ServerSetup?
    /// The ids of the advertisements that were on when the file was written: what
    /// `favblue-scan serve` and `advertise` send. A file from before FavBlue kept it has them all on.
    public var on: Set<String>

    public init(advertisements: [Advertisement] = [], server: ServerSetup? = nil, on: Set<String>? = nil) {
        self.advertisements = advertisements
        self.server = server
        self.on = on ?? Set(advertisements.map(\.id))
    }

    /// The advertisements that were on, in the file's order.
    public var advertisementsOn: [Advertisement] { advertisements.filter { on.contains($0.id) } }

    /// What the file says it is.
    static let magic = "favblue-peripheral"
    static let version = 1

    // MARK: Reading

    /// Reads a FavBlue file or an nRF Connect for Desktop server setup. Any problem says its
    /// line, and nothing is taken from a file with a problem.
    public static func read(_ text: String) throws(JSONFileProblem) -> PeripheralFile {
        let root = try JSONDocument.parse(text)
        guard root.members != nil else { throw JSONFileProblem(line: root.line, L10n.tr("the file holds no JSON object.")) }
        if root["format"]?.string == magic {
            let version = root["version"]?.number ?? 0
            guard version == Double(Self.version) else {
                throw JSONFileProblem(line: root["version"]?.line ?? root.line,
                                      L10n.format("this file is of version {}, which this FavBlue does not read.", String(Int(version))))
            }
            let reader = Reader()
            var file = PeripheralFile()
            for node in root["advertisements"]?.array ?? [] {
                let ad = try reader.advertisement(node)
                file.advertisements.append(ad)
                if node["on"]?.bool ?? true { file.on.insert(ad.id) }
            }
            if let server = root["server"] { file.server = try reader.server(server) }
            return file
        }
        if root["children"] != nil { return PeripheralFile(server: try NRFConnectSetup.read(root)) }
        throw JSONFileProblem(line: root.line, L10n.tr("this is neither a FavBlue peripheral file nor an nRF Connect server setup."))
    }

    static let propertyWords: [String: GATTProperties] = [
        "broadcast": .broadcast, "read": .read, "writeWithoutResponse": .writeWithoutResponse, "write": .write,
        "notify": .notify, "indicate": .indicate, "signedWrite": .signedWrite,
    ]

    static func uuid(_ node: JSONNode) throws(JSONFileProblem) -> BluetoothUUID {
        guard let text = node.string, let uuid = BluetoothUUID(text) else {
            throw JSONFileProblem(line: node.line, L10n.format("“{}” is not a UUID (4 or 32 hex digits).", node.string ?? "?"))
        }
        return uuid
    }

    static func integer(_ node: JSONNode, _ range: ClosedRange<Int>) throws(JSONFileProblem) -> Int {
        guard let n = node.number, n == n.rounded(), n >= Double(range.lowerBound), n <= Double(range.upperBound) else {
            throw JSONFileProblem(line: node.line, L10n.format("a whole number from {} to {} should stand here.",
                                                               String(range.lowerBound), String(range.upperBound)))
        }
        return Int(n)
    }
}

/// One reading of a file: the handles met so far, so a handle that comes twice is said at its second line.
private final class Reader {
    private var handles: [UInt16: Int] = [:]

    private func uuid(_ node: JSONNode) throws(JSONFileProblem) -> BluetoothUUID { try PeripheralFile.uuid(node) }
    private func integer(_ node: JSONNode, _ range: ClosedRange<Int>) throws(JSONFileProblem) -> Int {
        try PeripheralFile.integer(node, range)
    }

    func advertisement(_ node: JSONNode) throws(JSONFileProblem) -> Advertisement {
        let kindText = node["kind"]?.string ?? Advertisement.Kind.connectable.rawValue
        guard let kind = Advertisement.Kind(rawValue: kindText) else {
            throw JSONFileProblem(line: node["kind"]?.line ?? node.line, L10n.format("“{}” is no kind of advertisement.", kindText))
        }
        func phy(_ key: String) throws(JSONFileProblem) -> Advertisement.PHY {
            let text = node[key]?.string ?? "1M"
            guard let phy = Advertisement.PHY(rawValue: text) else {
                throw JSONFileProblem(line: node[key]?.line ?? node.line, L10n.format("“{}” is no PHY (1M, 2M or coded).", text))
            }
            return phy
        }
        var sensor: BTHomeReadings?
        if let b = node["bthome"] {
            let key = try bytes(b["key"], in: b)
            guard key.isEmpty || key.count == 16 else {
                throw JSONFileProblem(line: b["key"]?.line ?? b.line, L10n.tr("a BTHome key is 16 bytes, 32 hex digits."))
            }
            sensor = BTHomeReadings(temperature: b["temperature"]?.number ?? 21.5, humidity: b["humidity"]?.number ?? 48,
                                    battery: try b["battery"].map { n throws(JSONFileProblem) in try integer(n, 0...100) } ?? 90,
                                    key: key.isEmpty ? nil : key,
                                    counter: UInt32(try b["counter"].map { n throws(JSONFileProblem) in try integer(n, 0...Int(UInt32.max)) } ?? 1))
        }
        var ad = Advertisement(id: node["id"]?.string ?? UUID().uuidString, label: node["label"]?.string ?? "",
                               kind: kind, extended: node["extended"]?.bool ?? false,
                               primaryPHY: try phy("primaryPHY"), secondaryPHY: try phy("secondaryPHY"),
                               data: try fields(node["data"]), scanResponse: try fields(node["scanResponse"]),
                               intervalMilliseconds: node["intervalMs"]?.number ?? 100,
                               durationSeconds: node["durationSeconds"]?.number, sensor: sensor)
        ad.namedAfter = node["namedAfterPreset"]?.string.flatMap(AdvertisingPreset.init(rawValue:))
        ad.nameFollowsServer = node["nameFollowsServer"]?.bool ?? false
        return ad
    }

    func fields(_ node: JSONNode?) throws(JSONFileProblem) -> AdvertisingFields {
        guard let node else { return AdvertisingFields() }
        var f = AdvertisingFields()
        if let flags = node["flags"] { f.flags = UInt8(try integer(flags, 0...255)) }
        f.localName = node["name"]?.string
        f.shortenedName = node["shortenedName"]?.bool ?? false
        if let tx = node["txPower"] { f.txPower = Int8(try integer(tx, -127...127)) }
        if let appearance = node["appearance"] { f.appearance = UInt16(try integer(appearance, 0...0xFFFF)) }
        for item in node["serviceUUIDs"]?.array ?? [] { f.serviceUUIDs.append(try uuid(item)) }
        for item in node["serviceData"]?.array ?? [] {
            guard let at = item["uuid"] else { throw JSONFileProblem(line: item.line, L10n.tr("service data needs a “uuid”.")) }
            f.serviceData.append(ServiceDataField(uuid: try uuid(at), data: try bytes(item["hex"], in: item)))
        }
        for item in node["manufacturerData"]?.array ?? [] {
            guard let company = item["company"] else { throw JSONFileProblem(line: item.line, L10n.tr("manufacturer data needs a “company”.")) }
            f.manufacturerData.append(ManufacturerField(companyID: UInt16(try integer(company, 0...0xFFFF)),
                                                        data: try bytes(item["hex"], in: item)))
        }
        for item in node["raw"]?.array ?? [] {
            guard let type = item["type"] else { throw JSONFileProblem(line: item.line, L10n.tr("an AD structure needs a “type”.")) }
            f.raw.append(RawADField(type: UInt8(try integer(type, 1...255)), data: try bytes(item["hex"], in: item)))
        }
        return f
    }

    func server(_ node: JSONNode) throws(JSONFileProblem) -> ServerSetup {
        var setup = ServerSetup(id: node["id"]?.string ?? UUID().uuidString, name: node["name"]?.string ?? "FavBlue")
        if let appearance = node["appearance"] { setup.appearance = UInt16(try integer(appearance, 0...0xFFFF)) }
        for s in node["services"]?.array ?? [] {
            guard let at = s["uuid"] else { throw JSONFileProblem(line: s.line, L10n.tr("a service needs a “uuid”.")) }
            var service = ServedService(uuid: try uuid(at), primary: s["primary"]?.bool ?? true, handle: try handle(s["handle"]))
            for c in s["characteristics"]?.array ?? [] { service.characteristics.append(try characteristic(c)) }
            setup.services.append(service)
        }
        return setup
    }

    func characteristic(_ c: JSONNode) throws(JSONFileProblem) -> ServedCharacteristic {
        guard let at = c["uuid"] else { throw JSONFileProblem(line: c.line, L10n.tr("a characteristic needs a “uuid”.")) }
        var properties = GATTProperties()
        for p in c["properties"]?.array ?? [] {
            guard let word = p.string, let property = PeripheralFile.propertyWords[word] else {
                throw JSONFileProblem(line: p.line, L10n.format("“{}” is no characteristic property.", p.string ?? "?"))
            }
            properties.insert(property)
        }
        var characteristic = ServedCharacteristic(
            uuid: try uuid(at), properties: properties, readSecurity: try security(c["readSecurity"]),
            writeSecurity: try security(c["writeSecurity"]), value: try value(c),
            maximumLength: try c["maxLength"].map { node throws(JSONFileProblem) in try integer(node, 0...512) } ?? 512,
            userDescription: c["description"]?.string, handle: try handle(c["handle"], valueFollows: true), cccdHandle: try handle(c["cccdHandle"]))
        if let p = c["presentation"] {
            characteristic.presentation = PresentationFormat(
                format: UInt8(try integer(p["format"] ?? JSONNode(line: p.line, .number(0)), 0...255)),
                exponent: Int8(try integer(p["exponent"] ?? JSONNode(line: p.line, .number(0)), -128...127)),
                unit: UInt16(try integer(p["unit"] ?? JSONNode(line: p.line, .number(0x2700)), 0...0xFFFF)))
        }
        for d in c["descriptors"]?.array ?? [] {
            guard let at = d["uuid"] else { throw JSONFileProblem(line: d.line, L10n.tr("a descriptor needs a “uuid”.")) }
            characteristic.descriptors.append(ServedDescriptor(
                uuid: try uuid(at), value: try value(d), readable: d["readable"]?.bool ?? true, writable: d["writable"]?.bool ?? false,
                readSecurity: try security(d["readSecurity"]), writeSecurity: try security(d["writeSecurity"]),
                handle: try handle(d["handle"])))
        }
        return characteristic
    }

    /// A value as "hex" ("0A FF") or as "text".
    func value(_ node: JSONNode) throws(JSONFileProblem) -> [UInt8] {
        if let text = node["text"]?.string { return Array(text.utf8) }
        return try bytes(node["hex"], in: node)
    }

    func bytes(_ node: JSONNode?, in parent: JSONNode) throws(JSONFileProblem) -> [UInt8] {
        guard let node else { return [] }
        guard let text = node.string else { throw JSONFileProblem(line: node.line, L10n.tr("bytes are written as hex in quotes (\"0A FF\").")) }
        let digits = text.filter { !" :-".contains($0) }
        guard let bytes = Hex.bytes(digits) else {
            throw JSONFileProblem(line: node.line, L10n.format("“{}” is not hex: two digits 0–9, A–F a byte.", text))
        }
        guard bytes.count <= 1_650 else { throw JSONFileProblem(line: node.line, L10n.tr("the value is longer than anything Bluetooth carries.")) }
        return bytes
    }

    /// A handle the file keeps; one it met before (as any attribute's, or a value's) is refused.
    func handle(_ node: JSONNode?, valueFollows: Bool = false) throws(JSONFileProblem) -> UInt16? {
        guard let node else { return nil }
        let handle = UInt16(try integer(node, 1...(valueFollows ? 0xFFFE : 0xFFFF)))
        for taken in valueFollows ? [handle, handle + 1] : [handle] {
            if let first = handles[taken] {
                throw JSONFileProblem(line: node.line, L10n.format("the handle {} is taken already, on line {}.", String(taken), Formats.number(first)))
            }
            handles[taken] = node.line
        }
        return handle
    }

    func security(_ node: JSONNode?) throws(JSONFileProblem) -> AttributeSecurity {
        guard let node else { return .none }
        guard let text = node.string, let security = AttributeSecurity(rawValue: text) else {
            throw JSONFileProblem(line: node.line, L10n.format("“{}” is no security (none, encrypted or authenticated).", node.string ?? "?"))
        }
        return security
    }
}
