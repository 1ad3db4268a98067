// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import Localization

/// Scans with a controller over any HCITransport: LE scanning (extended where the
/// controller supports it) interleaved with BR/EDR inquiry, plus remote name requests.
public final class HCIScanner: DeviceScanner, @unchecked Sendable {
    /// What the controller turned out to support (filled during start-up).
    public struct Capabilities: Equatable, Sendable {
        public var le = false
        public var extendedScanning = false
        public var bredr = false
        public var inquiryMode: UInt8?
    }

    // MARK: Configuration
    private let open: @Sendable () throws(ScanFailure) -> HCITransport
    private let resetController: Bool
    private let mode: ScanMode
    private let recorder: BtsnoopWriter?
    private let commandTimeout: Double
    private let inquiryModes: [UInt8]
    private let log: @Sendable (String) -> Void

    // MARK: State
    private let streams = ScanStreams()
    private let thread = ScanThread(name: "favblue-hci")
    private var transport: HCITransport?
    /// What the controller supports, once known.
    public private(set) var capabilities = Capabilities()
    private var named: Set<DeviceID> = []
    private var nameQueue: [(id: DeviceID, address: [UInt8], mode: UInt8, clock: UInt16)] = []
    private var pending: [HCIEvent] = []

    /// Creates a scanner. `open` makes the link (called on the scanner thread);
    /// `resetController` is false for adapters the kernel manages.
    public init(open: @escaping @Sendable () throws(ScanFailure) -> HCITransport, resetController: Bool = true,
                mode: ScanMode = .continuous, record: BtsnoopWriter? = nil, commandTimeout: Double = 2,
                inquiryMode: UInt8? = nil, log: @escaping @Sendable (String) -> Void = { _ in }) {
        // Mode 2 (RSSI or extended results) first, falling back to what the controller accepts.
        self.inquiryModes = inquiryMode.map { [$0] } ?? [2, 1, 0]
        self.open = open
        self.resetController = resetController
        self.mode = mode
        self.recorder = record
        self.commandTimeout = commandTimeout
        self.log = log
    }

    public var observations: AsyncStream<Observation> { streams.observations }
    public var states: AsyncStream<ScannerState> { streams.states }

    public func start() {
        thread.start { [self] in session() }
    }

    public func stop() { thread.requestStop() }

    private var shouldStop: Bool { thread.shouldStop }

    // MARK: Session

    private func session() {
        streams.set(.starting)
        do {
            let link = try open()
            transport = link
            defer {
                link.close()
                transport = nil
            }
            try setUp()
            try scanLoop()
            streams.set(.paused)
        } catch {
            log("scanner failed: \(error.message)")
            streams.set(.failed(error))
        }
        thread.finished()
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
                _ = try command(.leSetEventMask(0x0000_0000_0000_1F1F | 1 << 12))
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
        try enableLE(true)
        streams.set(.scanning)
        if case .periodic(let window, _) = mode { windowEnd = Date().addingTimeInterval(window) }
        while !shouldStop {
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
                while Date() < resume, !shouldStop { _ = try nextEvent(timeout: 0.2) }
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
        while let next = nameQueue.first, !shouldStop {
            nameQueue.removeFirst()
            guard (try? command(.remoteNameRequest(next.address, pageScanRepetitionMode: next.mode, clockOffset: next.clock),
                                expectStatus: true)) != nil else { continue }
            let deadline = Date().addingTimeInterval(5)
            while Date() < deadline {
                if case .remoteNameRequestComplete(_, let address, _)? = try nextEvent(timeout: 0.2), address == next.address { break }
            }
        }
    }

    // MARK: Commands and events

    /// Sends `cmd` and waits for its Command Complete (return parameters) or, with
    /// `expectStatus`, its Command Status. Other events meanwhile are handled as usual.
    private func command(_ cmd: HCICommand, expectStatus: Bool = false) throws(ScanFailure) -> [UInt8] {
        guard let transport else { throw .disconnected(L10n.tr("no link")) }
        try transport.send(.command, cmd.packet)
        recorder?.write(type: .command, bytes: cmd.packet, received: false)
        let deadline = Date().addingTimeInterval(commandTimeout)
        while Date() < deadline {
            guard let event = try readEvent(timeout: deadline.timeIntervalSinceNow) else { continue }
            switch event {
            case .commandComplete(let opcode, let parameters) where opcode == cmd.opcode:
                if let status = parameters.first, status != 0 {
                    throw .controller(L10n.format("{} failed with status 0x{}", cmd.name, String(status, radix: 16)))
                }
                return parameters
            case .commandStatus(let status, let opcode) where opcode == cmd.opcode:
                guard status == 0 else {
                    throw .controller(L10n.format("{} failed with status 0x{}", cmd.name, String(status, radix: 16)))
                }
                if expectStatus { return [status] }
            default:
                pending.append(event)
            }
        }
        throw .controller(L10n.format("{} got no answer", cmd.name))
    }

    /// The next event for the scan loop: queued ones first, then the link.
    private func nextEvent(timeout: Double) throws(ScanFailure) -> HCIEvent? {
        if !pending.isEmpty { return pending.removeFirst() }
        return try readEvent(timeout: timeout)
    }

    /// Reads one event, turns reports into observations, and returns the event.
    private func readEvent(timeout: Double) throws(ScanFailure) -> HCIEvent? {
        guard let transport else { throw .disconnected(L10n.tr("no link")) }
        guard let (type, bytes) = try transport.receive(timeout: max(timeout, 0.01)) else { return nil }
        recorder?.write(type: type, bytes: bytes, received: true)
        guard type == .event else { return nil }
        let event: HCIEvent
        do {
            event = try HCIEvent.decode(bytes[...])
        } catch {
            log("skipped a malformed event: \(error)")
            return nil
        }
        let now = Date()
        switch event {
        case .leAdvertisingReports(let reports):
            for report in reports { streams.emit(ObservationDecoder.observation(report, at: now)) }
        case .inquiryResults(let responses):
            for response in responses {
                let observation = ObservationDecoder.observation(response, at: now)
                if observation.name != nil { named.insert(observation.id) }
                else if !named.contains(observation.id), !nameQueue.contains(where: { $0.id == observation.id }) {
                    nameQueue.append((observation.id, response.address, response.pageScanRepetitionMode, response.clockOffset))
                }
                streams.emit(observation)
            }
        case .remoteNameRequestComplete(let status, let address, let name) where status == 0 && !name.isEmpty:
            let id = DeviceID(wireBytes: address, kind: .bredr)
            named.insert(id)
            streams.emit(Observation(id: id, timestamp: now, rssi: nil, name: name))
        default:
            break
        }
        return event
    }
}
