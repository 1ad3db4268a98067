// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation
import Localization

/// The Device Manager of a device that speaks MCUmgr's SMP: its image slots, what it says of
/// itself, Restart, Erase, Echo and Update Firmware, and, where the device answers those groups,
/// its statistics, files and shell.
///
/// Over Bluetooth it follows the GATT browser: a connected device whose services include SMP
/// gets a client on whichever route the connection runs, and the answers come through the
/// connection's tap on the SMP characteristic, so the browser's log never sees them. Over a
/// network (UDP) or a serial line, `open` makes the link, again after the device restarts.
@MainActor
public final class DeviceManager {
    /// Where the Device Manager of the connected device stands.
    public enum Phase: Equatable, Sendable {
        /// No device connected, or one without the SMP service.
        case absent
        case opening
        case ready
        case failed(String)
        /// The device answers on a paired link only: pairing comes first.
        case needsPairing
    }

    /// A request the user made, under way.
    public enum Action: Equatable, Sendable { case echo, restart, erase, refresh, statistics, shell, files }

    /// Update Firmware, from the file chosen to its end.
    public struct UpdateRun: Equatable, Sendable {
        public let fileName: String
        /// Each image the file holds, image 0 (the application) first.
        public let images: [UpdateImage]
        public let mode: FirmwareUpdate.Mode
        public internal(set) var step: FirmwareUpdate.Step
        /// The step that failed, why and what to do next; nil while it runs or once it is done.
        public internal(set) var failure: FirmwareUpdate.Failure?
        /// Bytes a second since the device took the first part; nil until there is a second to go by.
        public internal(set) var bytesPerSecond: Double?
        /// The user stopped it.
        public internal(set) var cancelled = false
        /// When the device took its first part, and how much it held then (a resumed upload starts further on).
        var sendingSince: Date?
        var sentBefore = 0

        /// The application's image, whose version the update is named by.
        public var image: MCUbootImage { (images.first { $0.number == 0 } ?? images[0]).image }

        public var isRunning: Bool {
            guard failure == nil, !cancelled else { return false }
            if case .done = step { return false }
            return true
        }
    }

    public private(set) var phase: Phase = .absent
    /// The device whose Device Manager this is.
    public private(set) var device: DeviceID?
    public private(set) var slots: [ImageSlot] = []
    public private(set) var parameters: SMPParameters?
    /// The bootloader's name, where the device says it ("MCUboot").
    public private(set) var bootloader: String?
    public private(set) var action: Action?
    /// What came of the last request: the answer, or why there was none.
    public internal(set) var note: (text: String, isProblem: Bool)?
    public internal(set) var update: UpdateRun?

    /// The statistics groups; nil where the device has no statistics.
    public internal(set) var statistics: [StatisticsGroup]?
    /// Whether the device answers the image group (a build without it has no slots to show).
    public private(set) var hasImages = true
    /// Whether the device answers the shell and the file system groups.
    public private(set) var hasShell = false
    public private(set) var hasFiles = false
    /// The shell's commands, newest last.
    public internal(set) var shellRuns: [ShellRun] = []
    public internal(set) var transfer: FileTransfer?
    /// The commands a shell keeps.
    public static let shellLimit = 50

    // MARK: Borrowed
    enum Route {
        case bluetooth(ChatSessions, GATTBrowser)
        case network(name: String, open: @Sendable () throws(SMPProblem) -> SMPTransport)
    }
    let route: Route
    let clock: any Clock<Duration>
    let restartTime: Duration
    let now: () -> Date

    // MARK: Owned
    let observers = ChangeObservers()
    private var token: ObservationToken?
    private var client: SMPClient?
    /// Transports open on the connection, finished when it ends so their waits end too.
    private var transports: [GATTSMPTransport] = []
    /// Links made by `open` (network, serial), closed when a newer one replaces them.
    private var links: [SMPTransport] = []
    /// Bumped when the connection ends, so a restart is known to have happened.
    private(set) var connections = 0
    /// The count when the update restarted the device: only a later connection is the device back.
    var restartedAt: Int?
    var updating: Task<Void, Never>?
    /// When the page was last told of the upload's progress, and the telling put off till later.
    var progressShown: Date?
    var progressPending: Task<Void, Never>?
    /// Progress is told at most this often: an answer comes every few milliseconds, and each
    /// telling lays out the section.
    static let progressInterval: TimeInterval = 0.1
    /// Bumped on every new client, so work for an older one drops its results.
    private var generation = 0

    /// Follows the connection `sessions` owns, through `browser`'s discovery.
    public init(sessions: ChatSessions, browser: GATTBrowser, clock: any Clock<Duration> = ContinuousClock(),
                restartTime: Duration = .seconds(60), now: @escaping () -> Date = { Date() }) {
        route = .bluetooth(sessions, browser)
        self.clock = clock
        self.restartTime = restartTime
        self.now = now
        token = browser.observe { [weak self] in self?.follow() }
        follow()
    }

    /// The Device Manager of a device reached through `open` (UDP, a serial line), named `name`.
    public init(name: String, clock: any Clock<Duration> = ContinuousClock(), restartTime: Duration = .seconds(60),
                now: @escaping () -> Date = { Date() }, open: @escaping @Sendable () throws(SMPProblem) -> SMPTransport) {
        route = .network(name: name, open: open)
        self.clock = clock
        self.restartTime = restartTime
        self.now = now
        refresh()
    }

    isolated deinit {
        updating?.cancel()
        closeTransports()
    }

    /// The device's name where it is reached by network or line ("192.168.1.20"); nil over Bluetooth.
    public var networkName: String? {
        if case .network(let name, _) = route { return name }
        return nil
    }

    /// Ends the links (the page of a network device closed).
    public func close() {
        updating?.cancel()
        closeTransports()
    }

    /// Calls `handler` after every change.
    public func observe(_ handler: @escaping @MainActor () -> Void) -> ObservationToken { observers.observe(handler) }

    private func follow() {
        guard case .bluetooth(_, let browser) = route else { return }
        let offered = browser.services.contains { $0.uuid == GATTSMPTransport.service }
        let connected = browser.phase == .ready ? browser.device : nil
        if browser.device == nil, device != nil || !transports.isEmpty {
            connections += 1
            closeTransports()
            client = nil
            generation += 1
            if update?.isRunning != true {
                device = nil
                phase = .absent
                slots = []
                action = nil
                observers.notify()
            }
            return
        }
        guard let connected, offered else { return }
        if connected == device, phase != .absent { return }
        device = connected
        if update?.isRunning == true { return }
        refresh()
    }

    // MARK: Requests

    /// Pairing under way before the Device Manager opens again (`pairThenOpen`).
    public private(set) var isPairing = false

    /// For a device that answers on a paired link only: runs `pair`, then asks the device again.
    public func pairThenOpen(_ pair: @escaping @MainActor () async -> Bool) {
        guard !isPairing else { return }
        isPairing = true
        observers.notify()
        Task {
            let paired = await pair()
            isPairing = false
            if paired { refresh() } else { observers.notify() }
        }
    }

    /// Asks the device for its slots, buffers and bootloader again.
    public func refresh() {
        if case .bluetooth = route, device == nil { return }
        phase = .opening
        action = .refresh
        observers.notify()
        generation += 1
        let generation = generation
        Task {
            do throws(SMPProblem) {
                let client = try await self.open()
                let parameters = try? await client.parameters()
                let bootloader = try? await client.bootloader().name
                let slots = try await Self.unlessAbsent { () throws(SMPProblem) in try await client.images() }
                let statistics = try await Self.statistics(client)
                // Harmless requests: a shell command of no words, the status of the root's file.
                let hasShell = try await Self.answers(client, .write, .shell, 0, .object(["argv": .array([])]))
                let hasFiles = try await Self.answers(client, .read, .fileSystem, 1, .object(["name": .text("/")]))
                guard generation == self.generation else { return }
                self.client = client
                self.parameters = parameters
                self.bootloader = bootloader
                self.slots = slots ?? []
                hasImages = slots != nil
                self.statistics = statistics
                self.hasShell = hasShell
                self.hasFiles = hasFiles
                phase = .ready
            } catch {
                guard generation == self.generation else { return }
                phase = error == .needsPairing ? .needsPairing : .failed(error.message)
            }
            action = nil
            observers.notify()
        }
    }

    /// os, Echo: `text` sent and back, with its round trip.
    public func echo(_ text: String) {
        perform(.echo) { client throws(SMPProblem) in
            let (back, time) = try await client.echo(text)
            let ms = Double(time.components.seconds) * 1000 + Double(time.components.attoseconds) / 1e15
            return L10n.format("“{}” came back in {} ms.", DeviceText.isolated(back), Formats.decimal(ms, digits: 1))
        }
    }

    /// os, Reset: the device restarts, and the link with it.
    public func restart() {
        expectRestart()
        perform(.restart) { client throws(SMPProblem) in
            try await client.reset()
            return L10n.tr("The device is restarting. Connect again once it is back.")
        }
    }

    /// img, Erase: the spare slot is emptied.
    public func eraseSpare() {
        perform(.erase) { [weak self] client throws(SMPProblem) in
            try await client.eraseImage()
            let slots = try await client.images()
            self?.slots = slots
            return L10n.tr("The spare slot is empty.")
        }
    }

    /// Runs one request of the user's; `body` returns what to say of it, if anything.
    func perform(_ which: Action, _ body: @escaping @MainActor (SMPClient) async throws(SMPProblem) -> String?) {
        guard action == nil, update?.isRunning != true, let client else { return }
        action = which
        note = nil
        observers.notify()
        let generation = generation
        Task {
            do throws(SMPProblem) {
                let said = try await body(client)
                if let said, generation == self.generation || which == .restart { note = (said, false) }
            } catch {
                note = (error.message, true)
            }
            action = nil
            observers.notify()
        }
    }

    /// A client on the connected device's SMP characteristic, its answers tapped from the connection.
    func open() async throws(SMPProblem) -> SMPClient {
        let sessions: ChatSessions, browser: GATTBrowser
        switch route {
        case .network(_, let open):
            for old in links { await old.close() }
            let link = try open()
            links = [link]
            return SMPClient(transport: link, clock: clock)
        case .bluetooth(let s, let b):
            (sessions, browser) = (s, b)
        }
        guard let device = browser.device, let transport = try await GATTSMPTransport.open(sessions.connector, device: device, services: browser.services,
                                                               listening: false) else {
            throw .unexpected(L10n.tr("The device has no Device Manager."))
        }
        transports.append(transport)
        let received = transport.received
        sessions.taps.tap(transport.notifications, of: device) { value in received.yield(value) }
        return SMPClient(transport: transport, clock: clock)
    }

    /// The device is told to restart: its link's end is no failure for the connection to tell.
    func expectRestart() {
        guard case .bluetooth(let sessions, let browser) = route, let device = browser.device else { return }
        sessions.expectEnd(of: device)
    }

    func closeTransports() {
        let old = links
        links = []
        if !old.isEmpty { Task { for link in old { await link.close() } } }
        guard case .bluetooth(let sessions, _) = route else { return }
        for transport in transports {
            sessions.taps.untap(transport.notifications)
            transport.received.finish()
        }
        transports = []
    }
}
