// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import Localization

/// The server editor: the GATT server's name, its services, and each characteristic's UUID,
/// properties, the security each access needs, its description and the format its value is
/// typed in. Each change is served at once when the server runs; a field that does not read
/// says why beside it and keeps the last good value.
@MainActor
public final class ServerEditorViewModel {
    public enum Field: Hashable, Sendable {
        case name
        case service(Int)
        case characteristic(Int, Int)
    }

    /// How a characteristic's value is typed and described (its Presentation Format, 0x2904).
    public enum ValueFormat: CaseIterable, Sendable {
        case unsaid, text, bytes, uint8, uint16, uint32, sint8, sint16, sint32

        /// The Presentation Format's format code (Assigned Numbers, §2.4.1); nil for none.
        var code: UInt8? {
            switch self {
            case .unsaid: return nil
            case .text: return 0x19
            case .bytes: return 0x1B
            case .uint8: return 0x04
            case .uint16: return 0x06
            case .uint32: return 0x08
            case .sint8: return 0x0C
            case .sint16: return 0x0E
            case .sint32: return 0x10
            }
        }

        init(_ presentation: PresentationFormat?) {
            self = Self.allCases.first { $0.code == presentation?.format } ?? (presentation == nil ? .unsaid : .bytes)
        }

        public var words: String {
            switch self {
            case .unsaid: return L10n.tr("No Format")
            case .text: return L10n.tr("Text (UTF-8)")
            case .bytes: return L10n.tr("Bytes")
            case .uint8: return L10n.tr("Whole Number, 1 Byte")
            case .uint16: return L10n.tr("Whole Number, 2 Bytes")
            case .uint32: return L10n.tr("Whole Number, 4 Bytes")
            case .sint8: return L10n.tr("Signed Number, 1 Byte")
            case .sint16: return L10n.tr("Signed Number, 2 Bytes")
            case .sint32: return L10n.tr("Signed Number, 4 Bytes")
            }
        }
    }

    /// The properties the editor offers, in its order.
    public static let properties: [GATTProperties] = [.read, .write, .writeWithoutResponse, .notify, .indicate]

    private let role: PeripheralRole
    private let names: (BluetoothUUID) -> String?
    /// Why a field does not read, by field.
    public private(set) var errors: [Field: String] = [:]
    /// The setup as edited, ahead of the role while a change is on its way.
    private var draft: ServerSetup?
    private var applying: Task<Void, Never>?
    private let observers = ChangeObservers()
    private var token: ObservationToken?

    public init(role: PeripheralRole, names: @escaping (BluetoothUUID) -> String?) {
        self.role = role
        self.names = names
        token = role.observe { [weak self] in self?.observers.notify() }
    }

    public func observe(_ handler: @escaping @MainActor () -> Void) -> ObservationToken { observers.observe(handler) }

    /// The server as set up now; nil with none.
    public var setup: ServerSetup? { draft ?? role.server }

    /// A service's or characteristic's name, else its UUID.
    public func title(_ uuid: BluetoothUUID) -> String { names(uuid) ?? uuid.text }

    /// Whether a change reaches the centrals at once.
    public var isServing: Bool { role.serving }

    /// Waits until the last change reached the role (for tests).
    public func settled() async { await applying?.value }

    struct EditProblem: Error { let message: String }

    private func edit(_ field: Field?, _ change: (inout ServerSetup) throws(EditProblem) -> Void) {
        var setup = setup ?? ServerSetup(name: "FavBlue")
        if draft == nil { setup = withValuesKept(setup) }
        do {
            try change(&setup)
        } catch {
            if let field { errors[field] = error.message }
            observers.notify()
            return
        }
        if let field { errors[field] = nil }
        draft = setup
        let previous = applying
        let role = self.role
        applying = Task { [weak self] in
            await previous?.value
            await role.setServer(setup)
            if self?.draft == setup { self?.draft = nil }
        }
        observers.notify()
    }

    /// What centrals wrote and the user set, kept in the setup, so a change of shape loses none of it.
    private func withValuesKept(_ setup: ServerSetup) -> ServerSetup {
        var setup = setup
        for s in setup.services.indices {
            for c in setup.services[s].characteristics.indices {
                setup.services[s].characteristics[c].value = role.value(of: ServedCharacteristicID(service: s, characteristic: c))
            }
        }
        return setup
    }

    private static func uuid(_ text: String) throws(EditProblem) -> BluetoothUUID {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let uuid = BluetoothUUID(trimmed) else {
            throw EditProblem(message: L10n.format("“{}” is not a UUID (4, 8 or 32 hex digits).", DeviceText.shown(trimmed)))
        }
        return uuid
    }

    // MARK: Intents

    /// Sets up an empty server to add services to.
    public func create() { edit(nil) { _ in } }

    public func setName(_ text: String) {
        edit(.name) { setup throws(EditProblem) in
            guard !text.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw EditProblem(message: L10n.tr("The server needs a name: connected devices read it as this device’s name."))
            }
            guard text.utf8.count <= 248 else {
                throw EditProblem(message: L10n.tr("The name is longer than Bluetooth carries (248 bytes)."))
            }
            setup.name = text
        }
    }

    /// Adds a service with a UUID of its own, and returns its index.
    @discardableResult
    public func addService() -> Int {
        let index = setup?.services.count ?? 0
        edit(nil) { $0.services.append(ServedService(uuid: Self.fresh())) }
        return index
    }

    public func removeService(_ s: Int) {
        errors = errors.filter { field, _ in
            switch field {
            case .service(let i), .characteristic(let i, _): return i < s
            case .name: return true
            }
        }
        edit(nil) { setup in if setup.services.indices.contains(s) { setup.services.remove(at: s) } }
    }

    public func setServiceUUID(_ s: Int, _ text: String) {
        edit(.service(s)) { setup throws(EditProblem) in
            guard setup.services.indices.contains(s) else { return }
            setup.services[s].uuid = try Self.uuid(text)
            setup.services[s].handle = nil
        }
    }

    /// Adds a readable characteristic with a UUID of its own, and returns its index.
    @discardableResult
    public func addCharacteristic(to s: Int) -> Int {
        let index = setup?.services[safe: s]?.characteristics.count ?? 0
        edit(nil) { setup in
            guard setup.services.indices.contains(s) else { return }
            setup.services[s].characteristics.append(ServedCharacteristic(uuid: Self.fresh(), properties: [.read]))
        }
        return index
    }

    public func removeCharacteristic(_ s: Int, _ c: Int) {
        errors = errors.filter { field, _ in
            if case .characteristic(let i, let j) = field, i == s { return j < c }
            return true
        }
        edit(nil) { setup in
            guard setup.services[safe: s]?.characteristics.indices.contains(c) == true else { return }
            setup.services[s].characteristics.remove(at: c)
        }
    }

    public func setCharacteristicUUID(_ s: Int, _ c: Int, _ text: String) {
        edit(.characteristic(s, c)) { setup throws(EditProblem) in
            guard setup.services[safe: s]?.characteristics.indices.contains(c) == true else { return }
            setup.services[s].characteristics[c].uuid = try Self.uuid(text)
        }
    }

    public func setProperty(_ s: Int, _ c: Int, _ property: GATTProperties, _ on: Bool) {
        edit(nil) { setup in
            guard setup.services[safe: s]?.characteristics.indices.contains(c) == true else { return }
            if on { setup.services[s].characteristics[c].properties.insert(property) } else {
                setup.services[s].characteristics[c].properties.remove(property)
            }
        }
    }

    public func setSecurity(_ s: Int, _ c: Int, reading: Bool, _ security: AttributeSecurity) {
        edit(nil) { setup in
            guard setup.services[safe: s]?.characteristics.indices.contains(c) == true else { return }
            if reading { setup.services[s].characteristics[c].readSecurity = security } else {
                setup.services[s].characteristics[c].writeSecurity = security
            }
        }
    }

    /// The User Description (0x2901); empty leaves it out.
    public func setDescription(_ s: Int, _ c: Int, _ text: String) {
        edit(nil) { setup in
            guard setup.services[safe: s]?.characteristics.indices.contains(c) == true else { return }
            setup.services[s].characteristics[c].userDescription = text.isEmpty ? nil : text
        }
    }

    /// The Presentation Format (0x2904), which also says how the value is typed.
    public func setFormat(_ s: Int, _ c: Int, _ format: ValueFormat) {
        edit(nil) { setup in
            guard setup.services[safe: s]?.characteristics.indices.contains(c) == true else { return }
            let kept = setup.services[s].characteristics[c].presentation
            setup.services[s].characteristics[c].presentation = format.code.map {
                PresentationFormat(format: $0, exponent: kept?.exponent ?? 0, unit: kept?.unit ?? 0x2700)
            }
        }
    }

    public func format(_ c: ServedCharacteristic) -> ValueFormat { ValueFormat(c.presentation) }

    /// The units the Presentation Format offers (Assigned Numbers §3.5), none first.
    public static let units: [UInt16] = [0x2700, 0x272F, 0x27AC, 0x2705, 0x27AD, 0x2726, 0x2704, 0x2724, 0x2723,
                                         0x2722, 0x2720, 0x2701, 0x2712, 0x2702, 0x2703]

    /// A unit as the choice lists it: "No unit", else its symbol.
    public static func unitWords(_ unit: UInt16) -> String {
        guard unit != 0x2700, let symbol = PresentationFormat.symbol(unit) else { return L10n.tr("No unit") }
        return symbol
    }

    /// The unit and the power of ten of a characteristic's Presentation Format (none and 0 without one).
    public func unit(_ c: ServedCharacteristic) -> UInt16 { c.presentation?.unit ?? 0x2700 }
    public func exponent(_ c: ServedCharacteristic) -> Int { Int(c.presentation?.exponent ?? 0) }

    /// Sets the unit connected devices are told the value is in.
    public func setUnit(_ s: Int, _ c: Int, _ unit: UInt16) {
        edit(nil) { setup in
            guard let kept = setup.services[safe: s]?.characteristics[safe: c]?.presentation else { return }
            setup.services[s].characteristics[c].presentation = PresentationFormat(format: kept.format, exponent: kept.exponent, unit: unit)
        }
    }

    /// Sets the power of ten the value is multiplied by (−2: hundredths).
    public func setExponent(_ s: Int, _ c: Int, _ exponent: Int) {
        edit(nil) { setup in
            guard let kept = setup.services[safe: s]?.characteristics[safe: c]?.presentation else { return }
            setup.services[s].characteristics[c].presentation = PresentationFormat(format: kept.format, exponent: Int8(clamping: exponent),
                                                                                   unit: kept.unit)
        }
    }

    /// Leaves the server out: it stops, and its setup goes.
    public func removeServer() async {
        await applying?.value
        draft = nil
        errors = [:]
        await role.stopServing()
        await role.setServer(nil)
        observers.notify()
    }

    /// A new 128-bit UUID, so a service or characteristic added is one of a kind until the user types its own.
    private static func fresh() -> BluetoothUUID {
        BluetoothUUID(UUID().uuidString)!
    }
}
