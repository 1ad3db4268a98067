// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import Localization

/// Preferences → Sources: this computer's source and the others beside it (gateways in other
/// rooms over MQTT, boards over H4), each named, switched on or off, and said with its state.
@MainActor
public final class SourcesViewModel {
    public struct Entry: Equatable, Sendable {
        public let name: String
        public let address: String
        public var isOn: Bool

        public init(name: String, address: String, isOn: Bool) {
            self.name = name
            self.address = address
            self.isOn = isOn
        }

        /// The broker, when the source is one.
        public var mqtt: MQTTAddress? {
            guard case .mqtt(let broker)? = try? ScanSource(parsing: address) else { return nil }
            return broker
        }

        /// The broker, when the source is one that wants a user's password.
        public var broker: MQTTAddress? { mqtt.flatMap { $0.user != nil ? $0 : nil } }

        /// As kept in settings: "on", a tab, the name, a tab, the address.
        public var stored: String { "\(isOn ? "on" : "off")\t\(name)\t\(address)" }

        public init?(stored: String) {
            let fields = stored.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 3, ["on", "off"].contains(fields[0]), !fields[1].isEmpty, !fields[2].isEmpty else { return nil }
            self.init(name: fields[1], address: fields[2], isOn: fields[0] == "on")
        }

        /// As the app takes it: NAME=SOURCE.
        public var source: NamedSource? { try? NamedSource(parsing: "\(name)=\(address)") }
    }

    public private(set) var entries: [Entry]
    /// This computer's source, in words.
    public private(set) var primary: String
    /// Whether `--source` named the sources: then the command line decides, not this page.
    public let fromCommandLine: Bool
    /// Each source's state now.
    private let statuses: () -> [SourceStatus]
    /// Keeps the list (the composition root writes settings and restarts scanning).
    public var onChange: (([Entry]) -> Void)?
    /// Share with the house: this computer publishes what it hears, and the favorites'
    /// presence for Home Assistant, to the first broker switched on. Off unless chosen.
    public var isSharing: Bool {
        didSet { if isSharing != oldValue { onSharingChange?(isSharing) } }
    }
    public var onSharingChange: ((Bool) -> Void)?
    /// The gateway name this computer publishes under.
    public let gatewayName: String

    /// The rooms heard so far, by the name each gateway goes by (the composition root asks the live model).
    public var heardRooms: () -> [String] = { [] }
    /// What the user calls each room, by the name its gateway goes by ("kitchen" → "Kitchen").
    public private(set) var roomNames: [String: String] = [:]
    /// Keeps the room names (the composition root writes settings and tells the live model).
    public var onRoomNamesChange: (([String: String]) -> Void)?

    /// The rooms to name: those heard, and those named before.
    public var rooms: [String] { Set(heardRooms()).union(roomNames.keys).sorted() }

    /// Names `room` (as its gateway goes by) `name`; an empty name gives it back its own.
    public func setRoomName(_ name: String, for room: String) {
        let clean = String(name.map { $0 == "\t" || $0.isNewline ? " " : $0 }).trimmingCharacters(in: .whitespaces)
        guard roomNames[room, default: ""] != clean else { return }
        roomNames[room] = clean.isEmpty ? nil : clean
        onRoomNamesChange?(roomNames)
    }

    /// Reads room names as settings keep them: "gateway\tName" a line.
    public static func roomNames(stored: [String]) -> [String: String] {
        var names: [String: String] = [:]
        for line in stored {
            let parts = line.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            if parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty { names[parts[0]] = parts[1] }
        }
        return names
    }

    /// Room names as settings keep them.
    public static func stored(roomNames: [String: String]) -> [String] {
        roomNames.sorted { $0.key < $1.key }.map { "\($0.key)\t\($0.value)" }
    }

    /// The broker sharing goes to: the first one switched on.
    public var sharingBroker: MQTTAddress? { entries.first { $0.isOn && $0.mqtt != nil }?.mqtt }

    /// What Share with the House does, or why it cannot.
    public var sharingNote: String {
        guard let broker = sharingBroker else { return L10n.tr("Add a broker first: sharing goes to the first one switched on.") }
        return L10n.format("Publishes to {} as the gateway “{}”: what this computer hears, and your favorites’ presence and sensor readings for Home Assistant.",
                           broker.host, DeviceText.isolated(gatewayName))
    }
    /// Keeps a broker's password in the keyring; throws what went wrong, in words.
    private let keepPassword: (MQTTAddress, String) throws -> Void

    public init(entries: [Entry], primary: ScanSource, fromCommandLine: Bool, statuses: @escaping () -> [SourceStatus],
                keepPassword: @escaping (MQTTAddress, String) throws -> Void, isSharing: Bool = false, gatewayName: String = "",
                roomNames: [String: String] = [:]) {
        self.entries = entries
        self.roomNames = roomNames
        self.primary = Self.words(primary)
        self.isSharing = isSharing
        self.gatewayName = gatewayName
        self.fromCommandLine = fromCommandLine
        self.statuses = statuses
        self.keepPassword = keepPassword
    }

    /// This computer's source changed (Try the Demo): its row says so from now on.
    public func setPrimary(_ source: ScanSource) {
        primary = Self.words(source)
    }

    /// Whether `name`'s state is a problem (a broker it cannot reach, a source that failed),
    /// which its row marks with the error style.
    public func hasProblem(_ name: String) -> Bool {
        statuses().contains { $0.name == name && $0.via == nil && $0.isProblem }
    }

    /// How this computer reaches its radio, in plain words: no source names.
    static func words(_ source: ScanSource) -> String {
        switch source {
        case .auto: return L10n.tr("The system’s Bluetooth service, else the adapter itself")
        case .bluez(let adapter):
            return adapter.map { L10n.format("The system’s Bluetooth service, adapter {}", $0) } ?? L10n.tr("The system’s Bluetooth service")
        case .hci(let index): return L10n.format("Adapter hci{}, spoken to directly", index)
        case .h4Unix, .h4TCP, .h4Serial: return L10n.tr("A controller FavBlue speaks to itself")
        case .btsnoop: return L10n.tr("A recorded capture")
        case .demo: return L10n.tr("The demo")
        case .mqtt(let broker): return L10n.format("Gateways through the broker {}", broker.host)
        }
    }

    /// Why `name` and `address` cannot be added; nil when they can.
    public func problem(name: String, address: String) -> String? {
        let name = name.trimmingCharacters(in: .whitespaces), address = address.trimmingCharacters(in: .whitespaces)
        if name.isEmpty { return L10n.tr("Give it a name, such as the room it is in.") }
        if name.contains("=") || name.contains("\t") || name.contains("\n") { return L10n.tr("A name cannot hold “=”, tabs or line breaks.") }
        if entries.contains(where: { $0.name == name }) || name == L10n.tr("This Computer") {
            return L10n.format("There is a source called “{}” already.", DeviceText.isolated(name))
        }
        if address.isEmpty { return L10n.tr("Give its address, such as mqtt://broker.local/home.") }
        let schemes = ["mqtt://", "mqtts://", "h4-tcp:", "h4-unix:", "h4-serial:"]
        if !schemes.contains(where: { address.lowercased().hasPrefix($0) }) {
            // "broker.local" or "10.0.0.5:1883/home": a host alone is most likely a broker.
            if address.range(of: #"^[A-Za-z0-9.\-]+(:[0-9]+)?(/.*)?$"#, options: .regularExpression) != nil {
                return L10n.format("A broker’s address starts with mqtt://, as in mqtt://{}.", address)
            }
            return L10n.tr("FavBlue cannot read this address. A broker’s reads mqtt://broker.local/home, a board’s h4-tcp:host:port.")
        }
        do {
            let source = try ScanSource(parsing: address)
            switch source {
            case .demo, .btsnoop, .auto, .bluez, .hci:
                return L10n.tr("Beside this computer’s, a source is a broker (mqtt://…) or a board (h4-tcp:…, h4-unix:…, h4-serial:…).")
            default: return nil
            }
        } catch {
            // The address of a broker or a board, not of "the Bluetooth source".
            if case .badSource(let detail) = error { return L10n.format("This address cannot be used: {}", detail) }
            return error.message
        }
    }

    /// Adds a source, switched on.
    public func add(name: String, address: String) {
        guard problem(name: name, address: address) == nil else { return }
        entries.append(Entry(name: name.trimmingCharacters(in: .whitespaces), address: address.trimmingCharacters(in: .whitespaces),
                             isOn: true))
        onChange?(entries)
    }

    public func remove(_ name: String) {
        entries.removeAll { $0.name == name }
        onChange?(entries)
    }

    public func setOn(_ on: Bool, _ name: String) {
        guard let i = entries.firstIndex(where: { $0.name == name }), entries[i].isOn != on else { return }
        entries[i].isOn = on
        onChange?(entries)
    }

    /// Keeps `password` for `name`'s broker in the keyring and tries again; what went wrong, else nil.
    public func keepPassword(_ password: String, for name: String) -> String? {
        guard let broker = entries.first(where: { $0.name == name })?.broker else { return nil }
        do {
            try keepPassword(broker, password)
        } catch {
            return "\(error)"
        }
        onChange?(entries)
        return nil
    }

    /// "Kitchen · connected" and the like for `name`: the source, then the gateways a broker heard.
    public func state(of name: String) -> String {
        let all = statuses()
        guard let own = all.first(where: { $0.name == name && $0.via == nil }) else {
            return entries.first { $0.name == name }.map { entry in
                // Not started yet: brokers listen as long as FavBlue is open, unless the command line chose.
                !entry.isOn ? L10n.ctx("source", "off")
                    : fromCommandLine ? L10n.tr("not in use: the command line named the sources")
                    : L10n.ctx("source", "connecting…")
            } ?? ""
        }
        // A broker's gateways follow it.
        let lines = [own.stateWords] + all.filter { $0.via == name }.map(\.words)
        return lines.joined(separator: "\n")
    }
}
