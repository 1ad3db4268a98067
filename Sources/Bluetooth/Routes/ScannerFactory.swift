// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import Localization
import Synchronization

/// Makes the scanner a source names.
public enum ScannerFactory {
    /// Makes an MQTT source's scanner. Brokers are HomeServices' (`Brokers.install()`, which each
    /// program calls first), so that this target holds Bluetooth alone.
    public typealias BrokerScanner = @Sendable (MQTTAddress, @escaping @Sendable (String) -> Void) -> DeviceScanner
    private static let brokers = Mutex<BrokerScanner?>(nil)

    /// Sets who makes MQTT sources' scanners.
    public static func useBrokers(_ make: @escaping BrokerScanner) { brokers.withLock { $0 = make } }

    /// A scanner for `source`. `demoCapture` is the path of the shipped demo capture, which the
    /// `demo` source replays with `DemoChatDevice` advertising alongside;
    /// `fast` replays captures without pacing; `record` writes what the session saw (a replay's
    /// events as they are replayed). With `link` (H4 sources), the scanner shares that link with the connector;
    /// with `bus` (`bluez`, `auto`), the BlueZ connection.
    /// With `loopDemo` (the app), the demo plays its capture again and again instead of ending;
    /// `sealer` encrypts the demo freezer's readings.
    public static func make(_ source: ScanSource, demoCapture: String?, fast: Bool = false, mode: ScanMode = .continuous,
                            record: PacketRecorder? = nil, link: HCILink? = nil, bus: BlueZBus? = nil, loopDemo: Bool = false,
                            sealer: PayloadSealer? = nil, log: @escaping @Sendable (String) -> Void = { _ in }) -> DeviceScanner {
        if let link, source.isH4 { return HCIScanner(link: link, mode: mode, log: log) }
        switch source {
        case .btsnoop(let path):
            return ReplayScanner(path: path, realTime: !fast, record: record)
        case .mqtt(let address):
            guard let make = brokers.withLock({ $0 }) else {
                return RefusedScanner(.badSource(L10n.tr("This program cannot listen to an MQTT broker.")))
            }
            return make(address, log)
        case .demo:
            return DemoScanner(capture: demoCapture ?? "/nonexistent/demo.btsnoop", realTime: !fast, record: record,
                               loops: loopDemo && !fast, sealer: sealer)
        case .bluez(let adapter):
            return BlueZScanner(bus: bus ?? BlueZBus(), adapter: adapter, mode: mode, record: record, log: log)
        case .auto:
            return AutoScanner(bus: bus ?? BlueZBus(), mode: mode, record: record, log: log)
        case .hci(let index):
            return HCIScanner(open: { () throws(ScanFailure) in try TransportOpener.rawHCI(index: index) },
                              resetController: false, mode: mode, record: record, log: log)
        case .h4Unix(let path):
            return HCIScanner(open: { () throws(ScanFailure) in try TransportOpener.unix(path: path) }, mode: mode, record: record, log: log)
        case .h4TCP(let host, let port):
            return HCIScanner(open: { () throws(ScanFailure) in try TransportOpener.tcp(host: host, port: port) },
                              mode: mode, record: record, log: log)
        case .h4Serial(let device, let baud):
            return HCIScanner(open: { () throws(ScanFailure) in try TransportOpener.serial(device: device, baud: baud) },
                              mode: mode, record: record, log: log)
        }
    }

    /// The link an H4 source's scanner and connector share; nil for other sources. `crypto`
    /// hashes the link's own GATT database.
    public static func link(for source: ScanSource, record: PacketRecorder? = nil, crypto: (any PairingCrypto)? = nil,
                            log: @escaping @Sendable (String) -> Void = { _ in }) -> HCILink? {
        let attributes = LocalAttributes(crypto: crypto)
        switch source {
        case .h4Unix(let path):
            return HCILink(open: { () throws(ScanFailure) in try TransportOpener.unix(path: path) }, record: record,
                           attributes: attributes, log: log)
        case .h4TCP(let host, let port):
            return HCILink(open: { () throws(ScanFailure) in try TransportOpener.tcp(host: host, port: port) }, record: record,
                           attributes: attributes, log: log)
        case .h4Serial(let device, let baud):
            return HCILink(open: { () throws(ScanFailure) in try TransportOpener.serial(device: device, baud: baud) },
                           record: record, attributes: attributes, log: log)
        case .hci, .auto, .bluez, .btsnoop, .demo, .mqtt:
            return nil
        }
    }

    /// The BlueZ connection the scanner, the connector and the alias writer share, for the
    /// sources that may go through BlueZ; nil for the others. It connects on first use.
    public static func bus(for source: ScanSource) -> BlueZBus? {
        switch source {
        case .bluez, .auto: return BlueZBus()
        case .hci, .h4Unix, .h4TCP, .h4Serial, .btsnoop, .demo, .mqtt: return nil
        }
    }
}

extension ScanSource {
    /// H4 framing over a socket or serial line: FavBlue's own host owns the controller.
    var isH4: Bool {
        switch self {
        case .h4Unix, .h4TCP, .h4Serial: return true
        case .hci, .auto, .bluez, .btsnoop, .demo, .mqtt: return false
        }
    }

    /// The adapter a BlueZ source names; nil for the default and for other sources.
    public var bluezAdapter: String? {
        if case .bluez(let adapter) = self { return adapter }
        return nil
    }
}

/// A scanner that fails as it starts, saying why: a source this program cannot open.
final class RefusedScanner: DeviceScanner, @unchecked Sendable {
    let observations = Feed<Observation>.finished
    let states = Feed<ScannerState>()
    private let failure: ScanFailure

    init(_ failure: ScanFailure) { self.failure = failure }

    func start() { states.yield(.failed(failure)) }
    func stop() {}
}
