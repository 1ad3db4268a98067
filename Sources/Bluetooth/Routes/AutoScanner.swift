// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import Localization

/// The `auto` source: BlueZ over D-Bus when the system's Bluetooth service has an adapter (no
/// special rights needed), else the first raw HCI adapter that opens. When neither works, the
/// failure explains both. The route is chosen on the first start and kept for later ones.
final class AutoScanner: DeviceScanner, @unchecked Sendable {
    // MARK: Configuration
    private let bus: BlueZBus
    private let mode: ScanMode
    private let record: PacketRecorder?
    private let log: @Sendable (String) -> Void

    // MARK: Owned
    private let streams = ScanStreams()
    private let departureSink = Feed<DeviceID>()

    // MARK: State, guarded by `lock`
    private let lock = NSLock()
    private var route: DeviceScanner?
    private var forwarding: [Task<Void, Never>] = []
    private var wanted = false

    init(bus: BlueZBus, mode: ScanMode, record: PacketRecorder?, log: @escaping @Sendable (String) -> Void) {
        self.bus = bus
        self.mode = mode
        self.record = record
        self.log = log
    }

    deinit {
        forwarding.forEach { $0.cancel() }
        departureSink.finish()
    }

    var observations: Feed<Observation> { streams.observations }
    var states: Feed<ScannerState> { streams.states }
    var departures: Feed<DeviceID> { departureSink }

    func start() {
        let route = lock.withLock {
            wanted = true
            return self.route
        }
        if let route { return route.start() }
        streams.set(.starting)
        Task { await choose() }
    }

    func stop() {
        let route = lock.withLock {
            wanted = false
            return self.route
        }
        if let route { route.stop() } else { streams.set(.paused) }
    }

    func powerOn() {
        if let route = lock.withLock({ route }) { route.powerOn() } else { start() }
    }

    /// Asks BlueZ first; a probe that fails says why, for the message if the raw socket fails too.
    private func choose() async {
        var reason: String
        do {
            try await bus.connect()
            if !bus.isServiceRunning {
                reason = L10n.tr("the system’s Bluetooth service (bluetoothd) is not running")
            } else if bus.objects.adapters.isEmpty {
                reason = L10n.tr("the system’s Bluetooth service has no adapter")
            } else {
                log("auto: BlueZ over D-Bus")
                return adopt(BlueZScanner(bus: bus, mode: mode, record: record, log: log), bluezReason: nil)
            }
        } catch {
            reason = BlueZScanner.connectFailure(error).detail
        }
        log("auto: BlueZ cannot be used (\(reason)); trying raw HCI sockets")
        let raw = HCIScanner(open: { () throws(ScanFailure) in try Self.firstAdapter() }, resetController: false,
                             mode: mode, record: record, log: log)
        adopt(raw, bluezReason: reason)
    }

    /// Makes `route` the scanner behind this one and starts it, if scanning is still wanted.
    private func adopt(_ route: DeviceScanner, bluezReason: String?) {
        let streams = self.streams
        let sink = departureSink
        let observations = route.observations, states = route.states, departures = route.departures
        let tasks = [
            Task.detached { for await o in observations { streams.emit(o) } },
            Task.detached { for await id in departures { sink.yield(id) } },
            Task.detached {
                for await state in states {
                    switch state {
                    // The route's own "not started yet" would hide this scanner's "starting".
                    case .idle: continue
                    case .failed(let failure) where bluezReason != nil:
                        streams.set(.failed(Self.both(bluezReason!, failure)))
                    default:
                        streams.set(state)
                    }
                }
            },
        ]
        let wanted = lock.withLock {
            self.route = route
            forwarding = tasks
            return self.wanted
        }
        if wanted { route.start() } else { streams.set(.paused) }
    }

    /// A raw-socket failure that also says why BlueZ could not be used.
    static func both(_ bluez: String, _ raw: ScanFailure) -> ScanFailure {
        let detail = L10n.format("through the system’s Bluetooth service, {}; through a raw HCI socket, {}", bluez, raw.detail)
        switch raw {
        case .permissionDenied: return .permissionDenied(detail)
        case .unavailable: return .unavailable(detail)
        default: return raw
        }
    }

    /// The first raw adapter that opens, hci0 to hci3.
    static func firstAdapter() throws(ScanFailure) -> HCITransport {
        var firstError: ScanFailure?
        for index in 0..<4 {
            do { return try TransportOpener.rawHCI(index: index) } catch { firstError = firstError ?? error }
        }
        throw firstError ?? .unavailable(L10n.tr("no adapter found"))
    }
}
