// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import Localization

/// Scans with a controller: LE scanning (extended where the controller supports it)
/// interleaved with BR/EDR inquiry, plus remote name requests. It is a client of an HCIHost,
/// which owns the link: the scanner's own thread drives the session with blocking commands,
/// while the host's thread hands it events, which become observations on the spot.
public final class HCIScanner: DeviceScanner, HCIHostClient, @unchecked Sendable {
    /// What the controller turned out to support (filled during start-up).
    public struct Capabilities: Equatable, Sendable {
        /// LE scanning works (LMP feature and LE commands accepted).
        public var le = false
        /// LE Extended Advertising is supported, so scanning uses the extended commands.
        public var extendedScanning = false
        /// BR/EDR inquiry works.
        public var bredr = false
        /// The inquiry mode the controller accepted (2, 1 or 0), if any.
        public var inquiryMode: UInt8?
    }

    /// Where the host comes from: a link of its own per session, or one shared with other clients.
    private enum Link {
        case own(open: @Sendable () throws(ScanFailure) -> HCITransport, record: PacketRecorder?)
        case shared(HCIHost)
        case link(HCILink)
    }

    // MARK: Configuration
    private let link: Link
    private let resetController: Bool
    private let mode: ScanMode
    private let commandTimeout: Double
    private let inquiryModes: [UInt8]
    private let log: @Sendable (String) -> Void

    // MARK: State
    private let streams = ScanStreams()
    private let thread = ScanThread(name: "favblue-hci")
    /// The session's host; only the scanner thread touches it.
    private var host: HCIHost?
    /// What `capabilities` reads; written on the scanner thread during start-up.
    public private(set) var capabilities = Capabilities()
    private let names = RemoteNameBook()
    /// Inquiry Complete, Remote Name Request Complete and Hardware Error, for the scan loop.
    private let inbox = HCIEventQueue()
    /// Pieces of long extended advertisements, joined before decoding.
    private var fragments = AdvertisingFragments()
    private let fragmentsLock = NSLock()

    /// Creates a scanner with a link of its own. `open` makes the link (called on the scanner
    /// thread, once per session); `resetController` is false for adapters the kernel manages.
    public convenience init(open: @escaping @Sendable () throws(ScanFailure) -> HCITransport, resetController: Bool = true,
                            mode: ScanMode = .continuous, record: PacketRecorder? = nil, commandTimeout: Double = 2,
                            inquiryMode: UInt8? = nil, log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.init(link: .own(open: open, record: record), resetController: resetController, mode: mode,
                  commandTimeout: commandTimeout, inquiryMode: inquiryMode, log: log)
    }

    /// Creates a scanner on a host other clients share; the host keeps running when the scan stops.
    public convenience init(host: HCIHost, resetController: Bool = true, mode: ScanMode = .continuous, commandTimeout: Double = 2,
                            inquiryMode: UInt8? = nil, log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.init(link: .shared(host), resetController: resetController, mode: mode,
                  commandTimeout: commandTimeout, inquiryMode: inquiryMode, log: log)
    }

    /// Creates a scanner on a link it shares with the connector; the link resets the controller.
    public convenience init(link: HCILink, mode: ScanMode = .continuous, commandTimeout: Double = 2,
                            log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.init(link: .link(link), resetController: false, mode: mode, commandTimeout: commandTimeout,
                  inquiryMode: nil, log: log)
    }

    private init(link: Link, resetController: Bool, mode: ScanMode, commandTimeout: Double, inquiryMode: UInt8?,
                 log: @escaping @Sendable (String) -> Void) {
        // Mode 2 (RSSI or extended results) first, falling back to what the controller accepts.
        self.inquiryModes = inquiryMode.map { [$0] } ?? [2, 1, 0]
        self.link = link
        self.resetController = resetController
        self.mode = mode
        self.commandTimeout = commandTimeout
        self.log = log
    }

    /// Everything the scanner hears, as observations.
    public var observations: Feed<Observation> { streams.observations }
    /// The scanner's state, starting with the current one.
    public var states: Feed<ScannerState> { streams.states }

    /// Starts a session on the scanner's thread, unless one is running.
    public func start() {
        thread.start { [self] in session() }
    }

    /// Asks the session to end; it stops scanning and pauses within about 0.2 s.
    public func stop() { thread.requestStop() }

    private var shouldStop: Bool { thread.shouldStop }

    // MARK: Host client

    /// Turns reports into observations through ObservationDecoder, notes which BR/EDR devices
    /// still need a name, and passes the events the scan loop waits for on to its thread.
    public func host(_ host: HCIHost, didReceive event: HCIEvent) {
        fragmentsLock.lock()
        let whole = fragments.join(event)
        fragmentsLock.unlock()
        let observations = ObservationDecoder.observations(in: whole, at: Date())
        names.note(observations, of: event)
        for observation in observations { streams.emit(observation) }
        switch event {
        case .inquiryComplete, .remoteNameRequestComplete, .hardwareError: inbox.post(event)
        default: break
        }
    }

    /// The link ended: the session's next wait or command fails with `reason`.
    public func hostDidClose(_ host: HCIHost, reason: ScanFailure) {
        inbox.close(reason)
    }

    // MARK: Session

    private func session() {
        streams.set(.starting)
        inbox.reset()
        if case .link(let link) = link {
            link.beginScanSession()
            defer { link.endScanSession() }
            run()
        } else {
            run()
        }
        thread.finished()
    }

    private func run() {
        do {
            let host = try connect()
            self.host = host
            defer {
                disconnect(host)
                self.host = nil
            }
            try setUp()
            try scanLoop()
            streams.set(.paused)
        } catch {
            log("scanner failed: \(error.message)")
            streams.set(.failed(error))
        }
    }

    /// The host for this session, with the scanner registered as its client.
    private func connect() throws(ScanFailure) -> HCIHost {
        let host: HCIHost
        switch link {
        case .own(let open, let record):
            host = HCIHost(transport: try open(), record: record, log: log)
        case .shared(let shared):
            host = shared
        case .link(let link):
            host = try link.host()
        }
        host.add(self)
        host.start()
        return host
    }

    /// Ends the session's hold on the host: its own host closes, a shared one goes on.
    private func disconnect(_ host: HCIHost) {
        switch link {
        case .own: host.close()
        case .shared, .link: host.remove(self)
        }
    }

    private func setUp() throws(ScanFailure) {
        if resetController { _ = try command(.reset) }
        _ = try command(.setEventMask(0x3DBF_F807_FFFB_FFFF))
        let features = try? command(.readLocalFeatures)
        // LMP features (Core v5.4, Vol 2, Part C, §3.3): byte 4 bit 6 LE, byte 4 bit 5 no BR/EDR.
        if let f = features, f.count >= 9, f[0] == 0 {
            let lmp = Array(f[1...8])
            capabilities.le = lmp[4] & 0x40 != 0
            capabilities.bredr = lmp[4] & 0x20 == 0
        } else {
            capabilities.le = true
            capabilities.bredr = true
        }
        if capabilities.le {
            do {
                let le = try command(.leReadLocalFeatures)
                // LE features bit 12: LE Extended Advertising (Vol 6, Part B, §4.6).
                capabilities.extendedScanning = le.count >= 3 && le[0] == 0 && le[2] & 0x10 != 0
                _ = try command(.leSetEventMask(HCICommand.leEventMask))
            } catch {
                log("LE not supported here: \(error.message)")
                capabilities.le = false
            }
        }
        if capabilities.bredr {
            for inquiryMode in inquiryModes {
                if (try? command(.writeInquiryMode(inquiryMode))) != nil {
                    capabilities.inquiryMode = inquiryMode
                    break
                }
            }
            if capabilities.inquiryMode == nil {
                log("BR/EDR inquiry not supported here")
                capabilities.bredr = false
            }
        }
        guard capabilities.le || capabilities.bredr else {
            throw .controller(L10n.tr("the controller supports neither LE scanning nor inquiry"))
        }
    }

    private func scanLoop() throws(ScanFailure) {
        var windowEnd: Date?
        var inquiryRunning = false
        var inquiryFailed = false
        // Known to the pause before scanning goes on: a change asked for meanwhile waits for the
        // first checkpoint to turn it off, instead of slipping in beside the enable.
        let pause = host?.scanPause
        pause?.scanner(running: true)
        defer { pause?.scanner(running: false) }
        try enableLE(true)
        streams.set(.scanning)
        if case .periodic(let window, _) = mode { windowEnd = Date().addingTimeInterval(window) }
        while !shouldStop {
            try pause?.checkpoint(off: { () throws(ScanFailure) in try enableLE(false) },
                                  on: { () throws(ScanFailure) in try enableLE(true) })
            if capabilities.bredr, !inquiryRunning, !inquiryFailed {
                try resolveNames()
                do {
                    _ = try command(.inquiry(length: 4), expectStatus: true)
                    inquiryRunning = true
                } catch {
                    // Some controllers accept LE but never answer Inquiry: go on with LE alone.
                    log("inquiry failed, continuing with LE only: \(error.message)")
                    inquiryFailed = true
                }
            }
            if let event = try nextEvent(timeout: 0.2) {
                switch event {
                case .inquiryComplete: inquiryRunning = false
                case .hardwareError(let code): throw .controller(L10n.format("hardware error 0x{}", String(code, radix: 16)))
                default: break
                }
            }
            if let end = windowEnd, Date() >= end, case .periodic(let window, let interval) = mode {
                try enableLE(false)
                if inquiryRunning { _ = try? command(.inquiryCancel); inquiryRunning = false }
                streams.set(.waiting)
                let resume = Date().addingTimeInterval(max(interval - window, 0))
                while Date() < resume, !shouldStop {
                    _ = try nextEvent(timeout: 0.2)
                    // Scanning is off already between two windows.
                    try pause?.checkpoint(off: {}, on: {})
                }
                if shouldStop { break }
                try enableLE(true)
                streams.set(.scanning)
                windowEnd = Date().addingTimeInterval(window)
            }
        }
        try? enableLE(false)
        if inquiryRunning { _ = try? command(.inquiryCancel) }
    }

    private func enableLE(_ on: Bool) throws(ScanFailure) {
        guard capabilities.le else { return }
        if capabilities.extendedScanning {
            if on { _ = try command(.leSetExtendedScanParameters(active: true, interval: 0x0060, window: 0x0030)) }
            _ = try command(.leSetExtendedScanEnable(on))
        } else {
            if on { _ = try command(.leSetScanParameters(active: true, interval: 0x0060, window: 0x0030)) }
            _ = try command(.leSetScanEnable(on))
        }
    }

    /// Asks BR/EDR devices heard without a name for their name, one at a time (§7.1.19).
    private func resolveNames() throws(ScanFailure) {
        while !shouldStop, let next = names.next() {
            guard (try? command(.remoteNameRequest(next.address, pageScanRepetitionMode: next.pageScanRepetitionMode,
                                                   clockOffset: next.clockOffset),
                                expectStatus: true)) != nil else { continue }
            let deadline = Date().addingTimeInterval(5)
            while Date() < deadline {
                if case .remoteNameRequestComplete(_, let address, _)? = try nextEvent(timeout: 0.2), address == next.address { break }
            }
        }
    }

    // MARK: Commands and events

    /// Sends `cmd` through the host and waits for its Command Complete (return parameters) or,
    /// with `expectStatus`, its Command Status; events meanwhile reach `host(_:didReceive:)`.
    private func command(_ cmd: HCICommand, expectStatus: Bool = false) throws(ScanFailure) -> [UInt8] {
        guard let host else { throw .disconnected(L10n.tr("no link")) }
        return try host.command(cmd, expectStatus: expectStatus, timeout: commandTimeout)
    }

    /// The next event the scan loop cares about, waiting up to `timeout`; throws once the link ended.
    private func nextEvent(timeout: Double) throws(ScanFailure) -> HCIEvent? {
        try inbox.next(timeout: timeout)
    }
}
