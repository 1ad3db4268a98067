// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import Localization

/// The Act as a Device page: the advertisements set up and which are on, the server and its
/// values, and what each central did. A window on `PeripheralRole`.
@MainActor
public final class PeripheralViewModel {
    public struct AdvertisementRow: Equatable, Sendable {
        public let id: String
        public let title: String
        /// "Connectable · 23 of 31 bytes".
        public let subtitle: String
        public let isOn: Bool
        /// Why it cannot go, or why it was refused; nil when it can.
        public let problem: String?
    }

    public struct CharacteristicRow: Equatable, Sendable {
        public let id: ServedCharacteristicID
        /// Its name, else its UUID.
        public let title: String
        /// "Read, Notify".
        public let properties: String
        /// The value as it is typed: text, a number, or hex.
        public let value: String
        public let format: ValueInputFormat
        /// It notifies or indicates, so Send means something.
        public let canSend: Bool
    }

    public struct ServiceRow: Equatable, Sendable {
        public let title: String
        public let characteristics: [CharacteristicRow]
    }

    public struct CentralRow: Equatable, Sendable {
        public let id: String
        /// Its address, else what the route calls it.
        public let title: String
        /// "Connected" or "Disconnected".
        public let subtitle: String
        /// One line an event, oldest first: "12:00:01 Wrote “hi” to Greeting"; the newest
        /// `shownLines` of them, with "…" before where there were more.
        public let lines: [String]
    }

    /// The events a central's log shows: a central that follows a value sent a thousand times a
    /// second would else have the page lay out a thousand lines ten times a second.
    public static let shownLines = 50

    // MARK: Borrowed
    public let role: PeripheralRole
    private let names: (BluetoothUUID) -> String?
    let company: (UInt16) -> String

    // MARK: Owned
    private let observers = ChangeObservers()
    private var token: ObservationToken?

    /// `names` names a well-known characteristic or service; `company` a company identifier.
    public init(role: PeripheralRole, names: @escaping (BluetoothUUID) -> String?, company: @escaping (UInt16) -> String) {
        self.role = role
        self.names = names
        self.company = company
        token = role.observe { [weak self] in self?.observers.notify() }
    }

    public func observe(_ handler: @escaping @MainActor () -> Void) -> ObservationToken { observers.observe(handler) }

    // MARK: State

    /// Why this source cannot act as a device, in one sentence; nil when it can.
    public var unavailable: String? {
        if let reason = role.unavailableReason { return reason }
        // BlueZ's Adapter1.Roles without "peripheral": nothing here could go out.
        if let facts = role.facts, !facts.canBePeripheral {
            return L10n.tr("This adapter cannot be a peripheral: it can only look for other devices.")
        }
        return nil
    }

    /// The Adapter page's facts; nil while they are asked, or when the adapter would not say.
    public var adapterRows: [AdapterReport.Row]? { role.facts.map(AdapterReport.rows) }
    /// Why the adapter's facts are not known.
    public var adapterProblem: String? { role.unavailableReason ?? role.factsProblem }

    /// Asks the adapter again.
    public func refreshAdapter() async { await role.refreshFacts() }

    /// Said at the top while the adapter that sent and served is gone: what stopped and why.
    public var lost: String? {
        role.lost.map { L10n.format("Advertising and serving stopped: {}", $0) }
    }

    /// Starts again what the adapter's loss stopped.
    public func tryAgain() async { await role.tryAgain() }

    /// What the adapter allows, under the Advertisements heading; nothing while it is gone.
    public var adapterSummary: String {
        if role.lost != nil { return "" }
        if let problem = role.factsProblem { return problem }
        guard let facts = role.facts else { return L10n.tr("Asking the adapter what it can do…") }
        guard facts.canBePeripheral else { return L10n.tr("This adapter cannot be a peripheral: it can only look for other devices.") }
        let limits = facts.limits
        let sets = L10n.plural("This adapter sends {} advertisement at a time", "This adapter sends {} advertisements at a time",
                               limits.sets, Formats.number(limits.sets))
        let length = L10n.plural("each up to {} byte.", "each up to {} bytes.", limits.maximumExtendedLength,
                                 Formats.number(limits.maximumExtendedLength))
        return L10n.format("{}, {}", sets, length)
    }

    public var advertisements: [AdvertisementRow] {
        role.advertisements.map { ad in
            let limit = ad.extended ? (role.facts?.limits.maximumExtendedLength ?? 31) : AdvertisingLimits.legacyLength
            let used = ad.withSensorData(address: nil, sealer: nil).data.encoded.count
            let subtitle = L10n.format("{} · {}", Self.kindWords(ad.kind), L10n.plural("{} of {} byte", "{} of {} bytes", limit,
                                                                                       Formats.number(used), Formats.number(limit)))
            let problem = role.problems[ad.id] ?? role.problems(of: ad, company: company).first?.message
            // A switch the adapter's loss turned off says so, not nothing.
            let stopped = role.stoppedByLoss(ad.id) ? L10n.tr("Off: the adapter went away. Try Again starts it again.") : nil
            let lines = [stopped, problem ?? subtitle, missingServices(ad)].compactMap { $0 }
            return AdvertisementRow(id: ad.id, title: ad.title.isEmpty ? L10n.tr("Advertisement") : ad.title,
                                    subtitle: lines.joined(separator: "\n"), isOn: role.on.contains(ad.id), problem: problem)
        }
    }

    /// The services a connectable advertisement lists that the server lacks, in words: a phone
    /// that connects for them finds nothing. Nil when it lists none the server lacks.
    func missingServices(_ ad: Advertisement) -> String? {
        guard ad.kind == .connectable else { return nil }
        let listed = ad.data.serviceUUIDs + ad.scanResponse.serviceUUIDs
        let missing = listed.filter { !(role.server?.serves($0) ?? false) }
        guard !missing.isEmpty else { return nil }
        let named = missing.map { names($0) ?? $0.text }.joined(separator: L10n.tr(", "))
        return L10n.plural("Lists {}, which the server lacks: a phone that connects will not find it.",
                           "Lists {}, which the server lacks: a phone that connects will not find them.", missing.count, named)
    }

    public static func kindWords(_ kind: Advertisement.Kind) -> String {
        switch kind {
        case .connectable: return L10n.tr("Connectable")
        case .scannable: return L10n.tr("Scannable")
        case .nonConnectable: return L10n.tr("Not connectable")
        }
    }

    /// "Serving as “FavBlue Pulse”", or why not; nil with no server set up.
    public var serverTitle: String? { role.server.map { DeviceText.isolated($0.name) } }
    public var serving: Bool { role.serving }

    /// While the server runs, what a phone sees, said once: the name it finds the device by,
    /// and the one it reads once connected where that differs.
    public var findable: String? {
        guard role.serving, let server = role.server else { return nil }
        let advertised: String?
        if let ad = role.announcement {
            advertised = ad.data.localName ?? server.name
        } else {
            advertised = role.advertisements.first { $0.kind == .connectable && role.on.contains($0.id) }
                .flatMap { $0.data.localName ?? $0.scanResponse.localName }
        }
        guard let advertised else { return nil }
        if advertised == server.name { return L10n.format("Phones find it as “{}”.", DeviceText.isolated(advertised)) }
        return L10n.format("Phones find it as “{}”, and read “{}” once connected.", DeviceText.isolated(advertised),
                           DeviceText.isolated(server.name))
    }
    public var serverProblem: String? { role.serverProblem }
    public var hasServer: Bool { role.server != nil }

    public var services: [ServiceRow] {
        guard let setup = role.server else { return [] }
        return setup.services.enumerated().map { s, service in
            ServiceRow(title: names(service.uuid) ?? service.uuid.text, characteristics: service.characteristics.enumerated().map { c, characteristic in
                let id = ServedCharacteristicID(service: s, characteristic: c)
                let format = characteristic.inputFormat
                return CharacteristicRow(id: id, title: characteristic.userDescription.map { DeviceText.shown($0) } ?? names(characteristic.uuid)
                                             ?? characteristic.uuid.text,
                                         properties: characteristic.properties.words.joined(separator: L10n.tr(", ")),
                                         value: Self.typed(role.value(of: id), format),
                                         format: format, canSend: characteristic.hasConfiguration)
            })
        }
    }

    /// `bytes` as they are typed in `format`.
    static func typed(_ bytes: [UInt8], _ format: ValueInputFormat) -> String {
        switch format {
        case .text: return DeviceText.shown(bytes: bytes)
        case .hex: return Hex.spaced(bytes)
        case .number(let width, let signed, let bigEndian):
            guard bytes.count == width else { return Hex.spaced(bytes) }
            let ordered = bigEndian ? bytes : bytes.reversed()
            let raw = ordered.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            if signed {
                let shift = UInt64(64 - width * 8)
                return String(Int64(bitPattern: raw << shift) >> Int64(shift))
            }
            return String(raw)
        }
    }

    public var centrals: [CentralRow] {
        role.centrals.map { log in
            CentralRow(id: log.central.id, title: log.central.address ?? DeviceText.shown(log.central.id),
                       subtitle: log.connected ? L10n.tr("Connected") : L10n.tr("Disconnected"),
                       lines: (log.entries.count > Self.shownLines
                                   ? [L10n.format("… the newest {} of {} events", Formats.number(Self.shownLines), Formats.number(log.entries.count))]
                                   : []) + log.entries.suffix(Self.shownLines).map { Formats.preciseTime($0.time) + "  " + words($0.event) })
        }
    }

    /// One event in words; what a central wrote is shown as text, its control characters visible.
    func words(_ event: PeripheralEvent) -> String {
        switch event {
        case .connected: return L10n.tr("Connected")
        case .mtu(_, let mtu): return L10n.plural("Agreed on packets of {} byte (ATT MTU)", "Agreed on packets of {} bytes (ATT MTU)", mtu,
                                                  Formats.number(mtu))
        case .read(_, let id): return L10n.format("Read {}", name(of: id))
        case .wrote(_, let id, let value, _):
            return L10n.format("Wrote “{}” ({}) to {}", DeviceText.isolated(String(decoding: value, as: UTF8.self)), Hex.spaced(value), name(of: id))
        case .subscribed(_, let id, let indicate):
            return indicate ? L10n.format("Asked for indications of {}", name(of: id)) : L10n.format("Asked for notifications of {}", name(of: id))
        case .unsubscribed(_, let id): return L10n.format("Stopped following {}", name(of: id))
        case .confirmed(_, let id): return L10n.format("Confirmed an indication of {}", name(of: id))
        case .sent(_, let id, let value, let indicate):
            let text = DeviceText.isolated(String(decoding: value, as: UTF8.self))
            return indicate ? L10n.format("Was sent “{}” ({}) by indication of {}", text, Hex.spaced(value), name(of: id))
                : L10n.format("Was sent “{}” ({}) by notification of {}", text, Hex.spaced(value), name(of: id))
        case .encrypted(_, let authenticated):
            return authenticated ? L10n.tr("Encrypted the link with a key made with a code") : L10n.tr("Encrypted the link")
        case .refused(_, let why): return L10n.format("Refused: {}", why)
        case .disconnected(_, let why): return L10n.format("Disconnected: {}", why)
        case .advertising, .advertisingFailed, .ended: return ""
        }
    }

    private func name(of id: ServedCharacteristicID) -> String {
        guard let c = role.server?.services[safe: id.service]?.characteristics[safe: id.characteristic] else { return "?" }
        return c.userDescription.map { DeviceText.isolated($0) } ?? names(c.uuid) ?? c.uuid.text
    }

    // MARK: Intents

    /// The presets the Add menu offers, in its order; nil is a custom advertisement.
    public static let presets: [AdvertisingPreset?] = [nil] + AdvertisingPreset.allCases

    public static func presetTitle(_ preset: AdvertisingPreset?) -> String {
        preset?.title ?? L10n.tr("Custom Advertisement")
    }

    /// Adds an advertisement from `preset` (nil: a connectable one with the flags and a name); returns its id.
    @discardableResult
    public func add(_ preset: AdvertisingPreset?) -> String {
        guard let preset else {
            return role.add(Advertisement(label: L10n.tr("Custom Advertisement"), data: AdvertisingFields(flags: 0x06, localName: "FavBlue")))
        }
        if preset == .bthome {
            return role.add(preset.advertisement(name: "FavBlue Sensor"))
        }
        return role.add(preset.advertisement(), server: preset.server())
    }

    public func setOn(_ id: String, _ on: Bool) async {
        if on { await role.start(id) } else { await role.stop(id) }
    }

    public func setServing(_ on: Bool) async {
        if on { await role.startServing() } else { await role.stopServing() }
    }

    /// Sets a characteristic's value from what was typed; returns why not, beside the entry.
    public func setValue(_ typed: String, of id: ServedCharacteristicID, as format: ValueInputFormat) async -> String? {
        do {
            let bytes = try ValueInput.bytes(typed, as: format)
            await role.setValue(bytes, of: id)
            return nil
        } catch {
            return error.message
        }
    }

    /// Sends the value to every central subscribed; what to say afterwards.
    public func send(_ id: ServedCharacteristicID) async -> String {
        let count = await role.send(id)
        return count == 0 ? L10n.tr("No connected device follows it: nothing was sent.")
            : L10n.plural("Sent to {} connected device.", "Sent to {} connected devices.", count, Formats.number(count))
    }

    /// A file read for Import…: what went wrong, with its line, or what it sets up, asking first
    /// where its server would replace the one set up.
    public enum FileReading {
        case problem(String)
        case ready(PendingSetup)
    }

    /// Reads the file named `fileName`; nothing changes until the setup is applied.
    public func readImport(_ text: String, fileName: String) -> FileReading {
        let file: PeripheralFile
        do { file = try PeripheralFile.read(text) } catch { return .problem(error.description) }
        let question = file.server.flatMap { incoming in role.replaced(by: incoming).flatMap { ReplaceQuestion.losing($0, to: incoming) } }
        return .ready(PendingSetup(question: question) { [role] in
            role.take(file)
            return L10n.format("Imported “{}”", DeviceText.isolated(fileName))
        })
    }

    /// Takes a file's advertisements and server at once, without asking; what went wrong, with its line, or nil.
    public func importFile(_ text: String) -> String? {
        switch readImport(text, fileName: "") {
        case .problem(let problem): return problem
        case .ready(let setup):
            _ = setup.apply()
            return nil
        }
    }

    /// Everything set up, as FavBlue's own file.
    public var exportText: String { role.file.text }
}
