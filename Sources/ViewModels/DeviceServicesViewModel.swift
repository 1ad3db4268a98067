// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import Localization

/// The detail page's window on the GATT browser (Domain's `GATTBrowser`): the connected
/// device's services, characteristics and descriptors in words, the values read, decoded,
/// and the intents to read and write.
@MainActor
public final class DeviceServicesViewModel {
    /// One service, as the page lists it.
    public struct Service: Equatable {
        /// Its first handle: the same service across updates.
        public let id: UInt16
        public let title: String
        /// How many characteristics it has; with the identifiers, its UUID and the handles it spans.
        public let subtitle: String
        /// "Includes Battery", one line each (with the identifiers, the handles too).
        public let includes: [String]
        public let characteristics: [Characteristic]
    }

    /// One characteristic, with its value and what can be done with it.
    public struct Characteristic: Equatable {
        /// Its value handle: the same characteristic across updates.
        public let handle: UInt16
        public let title: String
        /// Its UUID in canonical text.
        public let uuid: String
        /// Whether the user may name it: a vendor characteristic, or one named already. A known one
        /// ("Device Name") has its name, and a "Name…" under it read as naming the device.
        public var canBeNamed = true
        /// "Read, Notify"; with the identifiers, "2A19 · Read, Notify".
        public let details: String
        /// Its descriptors ("Client Characteristic Configuration (2902)"); only with the identifiers.
        public let descriptors: [String]
        public let canRead: Bool
        public let canWrite: Bool
        public let canWriteWithoutResponse: Bool
        /// A read or write is under way.
        public let busy: Bool
        public let value: Value?
        /// Why the last read failed.
        public let readProblem: String?
        /// What came of the last write ("2 bytes written at 12:03:04", or why not).
        public let writeNote: String?
        /// Whether the last write failed.
        public let writeFailed: Bool
        /// What the value to write should be like, as far as FavBlue knows: its format (from the
        /// device's 0x2904 or the user's name for it) and the length of the value read.
        public let writeHint: String?
        /// The device wants pairing for what failed last.
        public let wantsPairing: Bool
        /// The write format the Presentation Format descriptor suggests, as an index into `writeFormats`.
        public let suggestedFormat: Int
        /// It can notify or indicate.
        public let canSubscribe: Bool
        public let subscribed: Bool
        /// Why the last subscription (or its end) failed.
        public let subscribeProblem: String?
        /// What FavBlue does with it itself (Service Changed), in place of a switch and a log.
        public let followedNote: String?
        /// The notifications received, when there are any or it is subscribed.
        public let log: Log?
    }

    /// A characteristic's notification log, as the page shows it.
    public struct Log: Equatable {
        /// The newest entries, newest last: "14:09:05.250  57  87 %".
        public let lines: [String]
        /// "1,000 notifications" (how many the log holds).
        public let count: String
        /// "12 a second".
        public let rate: String
        public let paused: Bool
        public let isEmpty: Bool
        /// The main numbers of the newest entries, oldest first, for the plot (empty without two).
        public let figures: [Double]
        /// The plot in words: "Last 120 values: lowest 70, highest 74, last 72".
        public let plotSummary: String?
        /// The plot's scale, each as the value reads with its unit: its highest and lowest
        /// (the top and bottom edges) and the last (the line's end); nil without a plot.
        public let scale: Scale?
    }

    /// A plot's edges in words: "74 bpm" at the top, "70 bpm" at the bottom, "72 bpm" at the end.
    public struct Scale: Equatable {
        /// The words at the plot's top and bottom edges.
        public let highest: String
        public let lowest: String
        public let last: String
        /// The figures at the top and bottom edges; nil: the lowest and highest figure drawn.
        public let axis: ClosedRange<Double>?

        public init(highest: String, lowest: String, last: String, axis: ClosedRange<Double>? = nil) {
            self.highest = highest
            self.lowest = lowest
            self.last = last
            self.axis = axis
        }
    }

    /// How many of a log's newest values the plot draws.
    public static let plotPoints = 120

    /// How many of a log's newest entries the page shows; Copy and Export give all of them.
    public static let shownLogLines = 12

    /// A value as read: decoded where FavBlue knows how, as text where it is printable, always as hex.
    public struct Value: Equatable {
        /// "87 %"; or why it cannot be decoded ("Too short to read …"); nil when the format is not known.
        public let decoded: String?
        /// The fields of a value of several ("Heart rate: 72 bpm").
        public let parts: [String]
        /// The bytes as UTF-8 text, when they are printable.
        public let text: String?
        /// "57 00 FF".
        public let hex: String
        /// "2 bytes · read at 12:03:04".
        public let meta: String
    }

    // MARK: Borrowed
    let browser: GATTBrowser
    /// Names a Bluetooth SIG company identifier (PnP ID's vendor); the composition root sets it.
    public var companyName: (UInt16) -> String = { L10n.format("Company 0x{}", String(format: "%04X", $0)) }

    private let observers = ChangeObservers()
    private var browserToken: ObservationToken?

    public init(browser: GATTBrowser) {
        self.browser = browser
        browserToken = browser.observe { [weak self] in self?.observers.notify() }
    }

    /// Calls `handler` after every change.
    public func observe(_ handler: @escaping @MainActor () -> Void) -> ObservationToken { observers.observe(handler) }

    /// Whether UUIDs, handles and descriptors show (Preferences). Off, the page speaks of
    /// names, properties and values only; the identifiers are for those who build devices.
    public var showsIdentifiers = false {
        didSet {
            guard showsIdentifiers != oldValue else { return }
            onShowsIdentifiersChange?(showsIdentifiers)
            observers.notify()
        }
    }

    /// Keeps the choice; the composition root sets it.
    public var onShowsIdentifiersChange: ((Bool) -> Void)?

    // MARK: State

    /// Whether `device` is the one connected (the section shows only then).
    public func isConnected(_ device: DeviceID) -> Bool { browser.device == device }

    /// A line above the tree while there is no tree: finding the services, or why not.
    public var status: String? {
        switch browser.phase {
        case .idle, .ready: return browser.labelProblem
        case .discovering: return L10n.tr("Finding the device’s services…")
        case .failed(let why): return L10n.format("The device’s services could not be listed: {}", why)
        }
    }

    public var isDiscovering: Bool { browser.phase == .discovering }
    public var canRediscover: Bool { if case .failed = browser.phase { return true } else { return false } }
    public var isReadingAll: Bool { browser.readingAll }
    /// Whether "Read All Values" has anything to read.
    public var canReadAll: Bool {
        browser.phase == .ready && !browser.readingAll && browser.services.contains { $0.characteristics.contains { $0.properties.contains(.read) } }
    }

    /// The services, in handle order.
    public var services: [Service] {
        browser.services.map { service in
            let name = service.name.map { L10n.ctx("Bluetooth service", $0) }
            return Service(
                id: service.start,
                title: name ?? L10n.tr("Unknown Service"),
                subtitle: subtitle(of: service),
                includes: service.includes.map { include in
                    let included = browser.services.first { $0.start == include.start }
                    let name = included?.name.map { L10n.ctx("Bluetooth service", $0) } ?? include.uuid?.text ?? L10n.tr("Unknown Service")
                    return showsIdentifiers
                        ? L10n.format("Includes {} (handles {}–{})", name, Self.handle(include.start), Self.handle(include.end))
                        : L10n.format("Includes {}", name)
                },
                characteristics: service.characteristics.map(characteristic))
        }
    }

    private func subtitle(of service: GATTService) -> String {
        guard showsIdentifiers else {
            return service.fromSystem ? L10n.tr("Read by the system’s Bluetooth service")
                : L10n.plural("{} characteristic", "{} characteristics", service.characteristics.count)
        }
        return service.fromSystem
            ? L10n.format("{} · read by the system’s Bluetooth service", service.uuid)
            : L10n.format("{} · handles {}–{}", service.uuid, Self.handle(service.start), Self.handle(service.end))
    }

    private func characteristic(_ c: GATTCharacteristic) -> Characteristic {
        let handle = c.valueHandle
        let words = c.properties.words.joined(separator: ", ")
        let followed = browser.followsServiceChanges(at: handle)
        var writeNote: String?
        var writeProblem: GATTError?
        switch browser.writes[handle] {
        case .done(let time, let count)?:
            writeNote = L10n.plural("{} byte written at {}", "{} bytes written at {}", count, Formats.number(count), Formats.time(time))
        case .failed(let error)?: writeNote = error.message; writeProblem = error
        case nil: break
        }
        let readProblem = browser.readProblems[handle]
        return Characteristic(
            handle: handle,
            title: Self.name(of: c, label: browser.labels[c.uuid.text], description: browser.userDescriptions[handle]),
            uuid: c.uuid.text,
            canBeNamed: c.name == nil || browser.labels[c.uuid.text] != nil,
            details: !showsIdentifiers ? words : words.isEmpty ? c.uuid.text : L10n.format("{} · {}", c.uuid.text, words),
            descriptors: !showsIdentifiers ? [] : c.descriptors.map { d in
                d.name.map { L10n.format("{} ({})", L10n.ctx("Bluetooth descriptor", $0), d.uuid.text) } ?? d.uuid.text
            },
            canRead: c.properties.contains(.read),
            canWrite: c.properties.contains(.write),
            canWriteWithoutResponse: c.properties.contains(.writeWithoutResponse),
            busy: browser.busy.contains(handle),
            value: browser.values[handle].map { value($0, of: c) },
            readProblem: readProblem?.message,
            writeNote: writeNote,
            writeFailed: writeProblem != nil,
            writeHint: writeHint(of: c),
            wantsPairing: readProblem?.wantsPairing == true || writeProblem?.wantsPairing == true,
            suggestedFormat: Self.writeFormats.firstIndex(of: expectedFormat(of: c)?.format ?? .text) ?? 0,
            canSubscribe: !followed && !c.properties.isDisjoint(with: [.notify, .indicate]),
            subscribed: browser.subscribed.contains(handle),
            subscribeProblem: browser.subscribeProblems[handle]?.message,
            followedNote: followed
                ? L10n.tr("FavBlue follows this itself: when the device’s services change, it discovers them again.") : nil,
            log: followed ? nil : log(of: c))
    }

    /// The format a value should be written in: the user's, else the device's 0x2904; nil when neither says.
    private func expectedFormat(of c: GATTCharacteristic) -> (format: ValueInputFormat, fromUser: Bool)? {
        if let format = browser.labels[c.uuid.text]?.format { return (format, true) }
        guard let presentation = browser.formats[c.valueHandle] else { return nil }
        return (ValueInputFormat(presentation: presentation), false)
    }

    private func writeHint(of c: GATTCharacteristic) -> String? {
        guard !c.properties.isDisjoint(with: [.write, .writeWithoutResponse]) else { return nil }
        var hints: [String] = []
        // Hex is what a 0x2904 format FavBlue cannot type (a float) falls back to: no hint then.
        if let expected = expectedFormat(of: c), expected.fromUser || expected.format != .hex,
           let index = Self.writeFormats.firstIndex(of: expected.format) {
            let name = Self.writeFormatNames[index]
            hints.append(expected.fromUser ? L10n.format("You said its value reads as {}.", name)
                         : L10n.format("The device says its value is {}.", name))
        }
        if let read = browser.values[c.valueHandle]?.bytes.count {
            hints.append(L10n.plural("The value read was {} byte long.", "The value read was {} bytes long.", read, Formats.number(read)))
        }
        return hints.isEmpty ? nil : hints.joined(separator: " ")
    }

    /// The name the user gave a characteristic, else the device's description of it (0x2901),
    /// else its assigned name.
    static func name(of c: GATTCharacteristic, label: CharacteristicLabel?, description: String?) -> String {
        if let label { return label.name }
        if let description { return description }
        return c.name.map { L10n.ctx("Bluetooth characteristic", $0) } ?? L10n.tr("Unknown Characteristic")
    }

    private func log(of c: GATTCharacteristic) -> Log? {
        let handle = c.valueHandle
        let entries = browser.logs[handle] ?? []
        guard browser.subscribed.contains(handle) || !entries.isEmpty else { return nil }
        let lines = entries.suffix(Self.shownLogLines).map { line($0, of: c) }
        let plotted = entries.suffix(Self.plotPoints).compactMap { entry -> (figure: Double, words: String)? in
            let decoded = decode(entry.bytes, of: c)
            guard let figure = decoded.figure else { return nil }
            return (figure, decoded.text ?? Self.figure(figure))
        }
        let figures = plotted.map(\.figure)
        var summary: String?
        var scale: Scale?
        if figures.count >= 2, let low = plotted.min(by: { $0.figure < $1.figure }), let high = plotted.max(by: { $0.figure < $1.figure }),
           let last = plotted.last {
            summary = L10n.plural("Last {} value: lowest {}, highest {}, last {}", "Last {} values: lowest {}, highest {}, last {}",
                                  figures.count, Formats.number(figures.count), Self.figure(low.figure), Self.figure(high.figure),
                                  Self.figure(last.figure))
            scale = Scale(highest: high.words, lowest: low.words, last: last.words)
        }
        return Log(lines: lines, count: L10n.plural("{} notification", "{} notifications", entries.count, Formats.number(entries.count)),
                   // Translators: how many values a characteristic sent in the last second, "12 a second".
                   rate: L10n.format("{} a second", Formats.number(browser.rate(of: handle))),
                   paused: browser.paused.contains(handle), isEmpty: entries.isEmpty,
                   figures: figures.count >= 2 ? figures : [], plotSummary: summary, scale: scale)
    }

    /// A number as the plot's words give it: whole where it is, else to two places.
    static func figure(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? Formats.number(Int(value)) : Formats.decimal(value, digits: 2)
    }

    /// One log entry: its time to the millisecond, its hex, and its value in words where known.
    func line(_ reading: GATTBrowser.Reading, of c: GATTCharacteristic) -> String {
        let words = decode(reading.bytes, of: c).text
        let hex = Self.hex(reading.bytes)
        return [Formats.preciseTime(reading.time), hex, words].compactMap { $0 }.joined(separator: "  ")
    }

    func decode(_ bytes: [UInt8], of c: GATTCharacteristic) -> DecodedValue {
        // The format the user chose comes first: they know their device.
        if let format = browser.labels[c.uuid.text]?.format { return format.decode(bytes) }
        var decoded = DecodedValue.unknown
        if let short = c.uuid.short {
            decoded = CharacteristicValues.decode(short, bytes, company: companyName)
        }
        if case .unknown = decoded, let format = browser.formats[c.valueHandle] { decoded = format.decode(bytes) }
        return decoded
    }

    private func value(_ reading: GATTBrowser.Reading, of c: GATTCharacteristic) -> Value {
        let bytes = reading.bytes
        let decoded = decode(bytes, of: c)
        var parts: [String] = []
        if case .decoded(_, let fields, _) = decoded { parts = fields.map { L10n.format("{}: {}", $0.label, $0.value) } }
        let size = L10n.plural("{} byte", "{} bytes", bytes.count, Formats.number(bytes.count))
        let meta = reading.notified ? L10n.format("{} · received at {}", size, Formats.preciseTime(reading.time))
            : L10n.format("{} · read at {}", size, Formats.time(reading.time))
        // Text only where nothing decoded the value: a battery at 87 % is not the letter "W".
        let text = decoded == .unknown ? Self.printable(bytes) : nil
        return Value(decoded: decoded.text, parts: parts, text: text, hex: Self.hex(bytes), meta: meta)
    }

    /// The bytes as text when they are valid UTF-8 made of printable characters (a trailing NUL allowed).
    static func printable(_ bytes: [UInt8]) -> String? {
        var body = bytes[...]
        while body.last == 0 { body = body.dropLast() }
        guard !body.isEmpty, let text = String(validating: body, as: UTF8.self) else { return nil }
        let printable = text.unicodeScalars.allSatisfy { $0.properties.generalCategory != .control || $0 == "\n" || $0 == "\t" }
        return printable ? DeviceText.shown(text) : nil
    }

    /// "57 00 FF"; "(empty)" for no bytes.
    public static func hex(_ bytes: [UInt8]) -> String {
        bytes.isEmpty ? L10n.tr("(empty)") : Hex.spaced(bytes)
    }

    private static func handle(_ value: UInt16) -> String { String(format: "0x%04X", value) }
}
