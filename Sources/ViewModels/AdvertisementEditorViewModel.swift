// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import Localization

/// One advertisement's page: each field as the user types it, checked as they type. A field that
/// reads is taken at once (an advertisement on air is sent anew); one that does not keeps what
/// was typed and says what is wrong beside it, and the advertisement keeps its last good value.
@MainActor
public final class AdvertisementEditorViewModel {
    /// The advertising data, or the scan response.
    public enum Part: String, Sendable, CaseIterable { case data, scanResponse }

    /// A field of a part, to say which is wrong.
    public enum Field: Hashable, Sendable {
        case interval, duration
        case name(Part), txPower(Part), appearance(Part), uuids(Part)
        case manufacturer(Part, Int), serviceData(Part, Int), raw(Part, Int)
        case temperature, humidity, battery
    }

    public let id: String
    private let role: PeripheralRole
    public let company: (UInt16) -> String
    /// Every company of the SIG's list, by number, for the chooser.
    public let companies: [(id: UInt16, name: String)]

    /// What the user typed that does not read, by field.
    public private(set) var errors: [Field: String] = [:]
    /// Which controls of a row hold what does not read (0 the key, 1 the bytes), where a row has two.
    public private(set) var badControls: [Field: Set<Int>] = [:]

    /// The problems of `part` whose field `about` says yes to; with `andWhole`, those of the part
    /// as a whole (no one field) too.
    public func problemMessages(_ part: Part, about: (AdvertisingFields.Field) -> Bool, andWhole: Bool) -> [String] {
        guard let ad = advertisement else { return [] }
        let which: AdvertisingProblem.Part = part == .data ? .data : .scanResponse
        let listed = role.problems(of: ad, company: company).filter { $0.part == which }
        return listed.filter { problem in problem.field.map(about) ?? andWhole }.map(\.message)
    }

    /// The fields of `part` that a problem of the whole advertisement is about (a name too long).
    public func problemFields(_ part: Part) -> [AdvertisingFields.Field] {
        guard let ad = advertisement else { return [] }
        let which: AdvertisingProblem.Part = part == .data ? .data : .scanResponse
        return role.problems(of: ad, company: company).filter { $0.part == which }.compactMap(\.field)
    }
    private let observers = ChangeObservers()
    private var token: ObservationToken?
    private var applying: Task<Void, Never>?

    public init(role: PeripheralRole, id: String, company: @escaping (UInt16) -> String, companies: [(id: UInt16, name: String)]) {
        self.role = role
        self.id = id
        self.company = company
        self.companies = companies
        token = role.observe { [weak self] in self?.observers.notify() }
    }

    public func observe(_ handler: @escaping @MainActor () -> Void) -> ObservationToken { observers.observe(handler) }

    /// The advertisement as set up now (the last good value of each field).
    public var advertisement: Advertisement? { role.advertisements.first { $0.id == id } }
    public var isOn: Bool { role.on.contains(id) }
    /// Gone (removed meanwhile): the page goes back.
    public var isGone: Bool { advertisement == nil }

    /// What keeps it from going out on this adapter, by part; and why it was refused.
    public func problems(_ part: AdvertisingProblem.Part) -> [String] {
        guard let ad = advertisement else { return [] }
        var out = role.problems(of: ad, company: company).filter { $0.part == part }.map(\.message)
        if part == .whole, let refused = role.problems[id] { out.append(refused) }
        return out
    }

    /// "23 of 31 bytes" for a part.
    public func usage(_ part: Part) -> String {
        guard let ad = advertisement?.withSensorData(address: nil, sealer: nil) else { return "" }
        let limit = ad.extended ? (role.facts?.limits.maximumExtendedLength ?? 31) : AdvertisingLimits.legacyLength
        let used = (part == .data ? ad.data : ad.scanResponse).encoded.count
        return L10n.plural("{} of {} byte", "{} of {} bytes", limit, Formats.number(used), Formats.number(limit))
    }

    /// Whether the adapter offers extended advertising, 2M and Coded (unknown counts as no).
    public var canExtend: Bool { role.facts?.limits.extended ?? false }

    // MARK: Editing

    private func edit(_ field: Field?, _ change: (inout Advertisement) throws(EditProblem) -> Void) {
        guard var ad = advertisement else { return }
        do {
            try change(&ad)
        } catch {
            if let field { errors[field] = error.message }
            observers.notify()
            return
        }
        if let field { errors[field] = nil }
        let previous = applying
        applying = Task { [role] in
            await previous?.value
            await role.update(ad)
        }
        observers.notify()
    }

    /// Waits until the last change reached the route (for tests).
    public func settled() async { await applying?.value }

    struct EditProblem: Error { let message: String }

    /// The name the entry shows for `part`: the server's where the name follows it.
    public func name(_ part: Part) -> String {
        guard let ad = advertisement else { return "" }
        return ad.named(by: role.server)[keyPath: Self.fields(part)].localName ?? ""
    }

    /// What a phone sees, said once under the advertising data: the one name, or the two.
    public var nameNote: String? {
        guard let ad = advertisement, ad.kind == .connectable, let server = role.server, !server.name.isEmpty else { return nil }
        let advertised = ad.named(by: server)
        guard let name = advertised.data.localName ?? advertised.scanResponse.localName else { return nil }
        if name == server.name {
            return L10n.format("Phones see “{}”, the server’s name, before and after they connect.", DeviceText.isolated(name))
        }
        return L10n.format("Phones see “{}” here and “{}”, the server’s name, once they connect.",
                           DeviceText.isolated(name), DeviceText.isolated(server.name))
    }

    /// Whether the name can follow the server's again (it was set apart, and there is a server).
    public var canFollowServerName: Bool {
        guard let ad = advertisement, let server = role.server, !server.name.isEmpty else { return false }
        return !ad.nameFollowsServer && ad.kind == .connectable
    }

    /// Makes the advertised name the server's again.
    public func followServerName() {
        edit(nil) { ad in
            ad.nameFollowsServer = true
            if ad.data.localName == nil, ad.scanResponse.localName == nil { ad.data.localName = "" }
        }
    }

    /// A name of the user's own: it no longer follows the language, as a preset's does.
    public func setLabel(_ text: String) {
        edit(nil) {
            $0.label = text
            $0.namedAfter = nil
        }
    }
    public func setKind(_ kind: Advertisement.Kind) { edit(nil) { $0.kind = kind } }
    public func setExtended(_ on: Bool) { edit(nil) { $0.extended = on } }
    public func setPHY(primary: Bool, _ phy: Advertisement.PHY) {
        edit(nil) { if primary { $0.primaryPHY = phy } else { $0.secondaryPHY = phy } }
    }

    public func setInterval(_ text: String) {
        edit(.interval) { ad throws(EditProblem) in
            guard let ms = Self.number(text), Advertisement.intervalRange.contains(ms) else {
                throw EditProblem(message: L10n.format("The interval is from {} to {} milliseconds.", Formats.number(20), Formats.number(10_240)))
            }
            ad.intervalMilliseconds = ms
        }
    }

    /// Seconds; empty runs until stopped.
    public func setDuration(_ text: String) {
        edit(.duration) { ad throws(EditProblem) in
            if text.trimmingCharacters(in: .whitespaces).isEmpty { ad.durationSeconds = nil; return }
            guard let s = Self.number(text), s >= 0.01, s <= 655.35 else {
                throw EditProblem(message: L10n.format("The duration is from {} to {} seconds; leave it empty to send until stopped.",
                                                       Formats.decimal(0.01, digits: 2), Formats.decimal(655.35, digits: 2)))
            }
            ad.durationSeconds = s
        }
    }

    /// A number as typed, with the locale's decimal comma or a point.
    static func number(_ text: String) -> Double? {
        Double(text.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: ",", with: ".").replacingOccurrences(of: "\u{2212}", with: "-"))
    }

    private static func fields(_ part: Part) -> WritableKeyPath<Advertisement, AdvertisingFields> {
        part == .data ? \.data : \.scanResponse
    }

    public func setName(_ part: Part, _ text: String) {
        // Typing the server's own name changes nothing: the name still follows the server.
        if advertisement?.nameFollowsServer == true, text == role.server?.name { return }
        edit(.name(part)) { ad in
            ad[keyPath: Self.fields(part)].localName = text.isEmpty ? nil : text
            ad.nameFollowsServer = false
        }
    }

    /// The flags byte's General Discoverable, LE only (0x06), or none.
    public func setDiscoverable(_ part: Part, _ on: Bool) {
        edit(nil) { ad in ad[keyPath: Self.fields(part)].flags = on ? 0x06 : nil }
    }

    public func setTxPower(_ part: Part, _ text: String) {
        edit(.txPower(part)) { ad throws(EditProblem) in
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty else { ad[keyPath: Self.fields(part)].txPower = nil; return }
            guard let value = Self.number(trimmed), value == value.rounded(), (-127...127).contains(value) else {
                throw EditProblem(message: L10n.tr("The transmit power is a whole number of dBm from −127 to 127."))
            }
            ad[keyPath: Self.fields(part)].txPower = Int8(value)
        }
    }

    public func setAppearance(_ part: Part, _ text: String) {
        edit(.appearance(part)) { ad throws(EditProblem) in
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty else { ad[keyPath: Self.fields(part)].appearance = nil; return }
            let value = trimmed.lowercased().hasPrefix("0x") ? UInt16(trimmed.dropFirst(2), radix: 16) : UInt16(trimmed)
            guard let value else { throw EditProblem(message: L10n.tr("The appearance is a number from 0 to 65535, or 0x and four hex digits.")) }
            ad[keyPath: Self.fields(part)].appearance = value
        }
    }

    /// UUIDs separated by commas or spaces.
    public func setUUIDs(_ part: Part, _ text: String) {
        edit(.uuids(part)) { ad throws(EditProblem) in
            var list: [BluetoothUUID] = []
            for word in text.split(whereSeparator: { $0 == "," || $0 == " " }) {
                guard let uuid = BluetoothUUID(String(word)) else {
                    throw EditProblem(message: L10n.format("“{}” is not a UUID (4, 8 or 32 hex digits).", DeviceText.shown(String(word))))
                }
                list.append(uuid)
            }
            ad[keyPath: Self.fields(part)].serviceUUIDs = list
        }
    }

    static func hex(_ text: String) throws(EditProblem) -> [UInt8] {
        // Pasted bytes may come in lines.
        let digits = text.filter { !($0.isWhitespace || ":-".contains($0)) }
        if digits.isEmpty { return [] }
        guard let bytes = Hex.bytes(digits) else { throw EditProblem(message: L10n.tr("Hex needs two digits, 0–9 and A–F, for each byte.")) }
        return bytes
    }

    public func setManufacturer(_ part: Part, _ index: Int, company id: UInt16, hex text: String) {
        edit(.manufacturer(part, index)) { ad throws(EditProblem) in
            let data = try Self.hex(text)
            let path = Self.fields(part)
            guard index < ad[keyPath: path].manufacturerData.count else { return }
            ad[keyPath: path].manufacturerData[index] = ManufacturerField(companyID: id, data: data)
        }
    }

    public func setServiceData(_ part: Part, _ index: Int, uuid text: String, hex: String) {
        let field = Field.serviceData(part, index)
        // Both halves are read, and each that does not read is said and marked, not the first alone.
        let uuid = BluetoothUUID(text)
        var bytes: [UInt8]?
        var hexProblem: String?
        do throws(EditProblem) { bytes = try Self.hex(hex) } catch { hexProblem = error.message }
        badControls[field] = Set([uuid == nil ? 0 : nil, hexProblem != nil ? 1 : nil].compactMap { $0 })
        edit(field) { ad throws(EditProblem) in
            let problems = [uuid == nil ? L10n.format("“{}” is not a UUID (4, 8 or 32 hex digits).", DeviceText.shown(text)) : nil,
                            hexProblem].compactMap { $0 }
            guard problems.isEmpty, let uuid, let data = bytes else { throw EditProblem(message: problems.joined(separator: " ")) }
            let path = Self.fields(part)
            guard index < ad[keyPath: path].serviceData.count else { return }
            ad[keyPath: path].serviceData[index] = ServiceDataField(uuid: uuid, data: data)
        }
    }

    public func setRaw(_ part: Part, _ index: Int, type text: String, hex: String) {
        edit(.raw(part, index)) { ad throws(EditProblem) in
            let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
            guard let type = trimmed.hasPrefix("0x") ? UInt8(trimmed.dropFirst(2), radix: 16) : UInt8(trimmed), type > 0 else {
                throw EditProblem(message: L10n.tr("The AD type is a number from 1 to 255, or 0x and two hex digits."))
            }
            let data = try Self.hex(hex)
            let path = Self.fields(part)
            guard index < ad[keyPath: path].raw.count else { return }
            ad[keyPath: path].raw[index] = RawADField(type: type, data: data)
        }
    }

    /// Adds an empty entry of a list: manufacturer data (FavBlue's test company 0xFFFF), service data, or a raw structure.
    public func addManufacturer(_ part: Part) {
        edit(nil) { ad in ad[keyPath: Self.fields(part)].manufacturerData.append(ManufacturerField(companyID: 0xFFFF, data: [])) }
    }
    public func addServiceData(_ part: Part) {
        edit(nil) { ad in ad[keyPath: Self.fields(part)].serviceData.append(ServiceDataField(uuid: BluetoothUUID(0xFFFF), data: [])) }
    }
    public func addRaw(_ part: Part) {
        edit(nil) { ad in ad[keyPath: Self.fields(part)].raw.append(RawADField(type: 0xFF, data: [0xFF, 0xFF])) }
    }

    public func removeManufacturer(_ part: Part, _ index: Int) {
        edit(nil) { ad in if index < ad[keyPath: Self.fields(part)].manufacturerData.count { ad[keyPath: Self.fields(part)].manufacturerData.remove(at: index) } }
        errors = errors.filter { if case .manufacturer(part, _) = $0.key { return false } else { return true } }
    }
    public func removeServiceData(_ part: Part, _ index: Int) {
        edit(nil) { ad in if index < ad[keyPath: Self.fields(part)].serviceData.count { ad[keyPath: Self.fields(part)].serviceData.remove(at: index) } }
        errors = errors.filter { if case .serviceData(part, _) = $0.key { return false } else { return true } }
    }
    public func removeRaw(_ part: Part, _ index: Int) {
        edit(nil) { ad in if index < ad[keyPath: Self.fields(part)].raw.count { ad[keyPath: Self.fields(part)].raw.remove(at: index) } }
        errors = errors.filter { if case .raw(part, _) = $0.key { return false } else { return true } }
    }

    // MARK: A BTHome sensor's readings

    public func setTemperature(_ text: String) {
        edit(.temperature) { ad throws(EditProblem) in
            guard let value = Self.number(text), (-327.68...327.67).contains(value) else {
                throw EditProblem(message: L10n.tr("The temperature is a number of °C from −327.68 to 327.67."))
            }
            ad.sensor?.temperature = value
        }
    }

    public func setHumidity(_ text: String) {
        edit(.humidity) { ad throws(EditProblem) in
            guard let value = Self.number(text), (0...100).contains(value) else { throw EditProblem(message: L10n.tr("The humidity is from 0 to 100 %.")) }
            ad.sensor?.humidity = value
        }
    }

    public func setBattery(_ text: String) {
        edit(.battery) { ad throws(EditProblem) in
            guard let value = Self.number(text), value == value.rounded(), (0...100).contains(value) else {
                throw EditProblem(message: L10n.tr("The battery is a whole number from 0 to 100 %."))
            }
            ad.sensor?.battery = Int(value)
        }
    }

    /// Encrypts the sensor's frames with a new key (shown, for the receiving app), or stops.
    public func setEncrypted(_ on: Bool, key: [UInt8]) {
        edit(nil) { $0.sensor?.key = on ? key : nil }
    }

    /// The sensor's key in hex, for the receiving side; nil when not encrypted.
    public var sensorKey: String? { advertisement?.sensor?.key.map(Hex.compact) }

    public func remove() async {
        await applying?.value
        await role.remove(id)
    }

    public func setOn(_ on: Bool) async {
        await applying?.value
        if on { await role.start(id) } else { await role.stop(id) }
    }
}
