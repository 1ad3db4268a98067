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
    }

    /// A request the user made, under way.
    public enum Action: Equatable, Sendable { case echo, restart, erase, refresh, statistics, shell, files }

    /// Update Firmware, from the file chosen to its end.
    public struct UpdateRun: Equatable, Sendable {
        public let fileName: String
        public let image: MCUbootImage
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
    public private(set) var note: (text: String, isProblem: Bool)?
    public private(set) var update: UpdateRun?

    /// One statistics group and its counters, in the device's order.
    public struct StatisticsGroup: Equatable, Sendable {
        public let name: String
        public let counters: [Counter]
    }

    public struct Counter: Equatable, Sendable {
        public let name: String
        public let value: Int64
    }

    /// A shell command run and what it printed.
    public struct ShellRun: Equatable, Sendable {
        public let command: String
        public let output: String
        public let code: Int64?
        /// Why it did not run, in words.
        public let problem: String?
    }

    /// A file going to or coming from the device.
    public struct FileTransfer: Equatable, Sendable {
        public let path: String
        public let upload: Bool
        public internal(set) var progress: TransferProgress
        /// What came of it, once over: done (nil problem) or why not.
        public internal(set) var over = false
        public internal(set) var problem: String?
    }

    /// The statistics groups; nil where the device has no statistics.
    public private(set) var statistics: [StatisticsGroup]?
    /// Whether the device answers the image group (a build without it has no slots to show).
    public private(set) var hasImages = true
    /// Whether the device answers the shell and the file system groups.
    public private(set) var hasShell = false
    public private(set) var hasFiles = false
    /// The shell's commands, newest last.
    public private(set) var shellRuns: [ShellRun] = []
    public private(set) var transfer: FileTransfer?
    /// The commands a shell keeps.
    public static let shellLimit = 50

    // MARK: Borrowed
    private enum Route {
        case bluetooth(ChatSessions, GATTBrowser)
        case network(name: String, open: @Sendable () throws(SMPProblem) -> SMPTransport)
    }
    private let route: Route
    private let clock: any Clock<Duration>
    private let restartTime: Duration
    private let now: () -> Date

    // MARK: Owned
    private let observers = ChangeObservers()
    private var token: ObservationToken?
    private var client: SMPClient?
    /// Transports open on the connection, finished when it ends so their waits end too.
    private var transports: [GATTSMPTransport] = []
    /// Links made by `open` (network, serial), closed when a newer one replaces them.
    private var links: [SMPTransport] = []
    /// Bumped when the connection ends, so a restart is known to have happened.
    private var connections = 0
    /// The count when the update restarted the device: only a later connection is the device back.
    private var restartedAt: Int?
    private var updating: Task<Void, Never>?
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
                phase = .failed(error.message)
            }
            action = nil
            observers.notify()
        }
    }

    /// Whether the device offers a group: its answer to a harmless request of it is anything but
    /// MCUmgr's "not supported" (a group the device lacks is not an error).
    private static func answers(_ client: SMPClient, _ operation: SMPMessage.Operation, _ group: SMPGroup, _ command: UInt8,
                                _ body: CBOR) async throws(SMPProblem) -> Bool {
        do {
            _ = try await client.request(operation, group, command, body)
            return true
        } catch .device(let error) {
            return !(error.code == 8 && !error.groupCode)
        }
    }

    /// What `body` gets, or nil where the device lacks the group it asks.
    private static func unlessAbsent<T>(_ body: () async throws(SMPProblem) -> T) async throws(SMPProblem) -> T? {
        do { return try await body() } catch .device(let error) where error.code == 8 && !error.groupCode { return nil }
    }

    /// Every statistics group with its counters; nil where the device has no statistics group.
    private static func statistics(_ client: SMPClient) async throws(SMPProblem) -> [StatisticsGroup]? {
        let names: [String]
        do { names = try await client.statisticsGroups() } catch .device(let error) where error.code == 8 && !error.groupCode {
            return nil
        }
        var groups: [StatisticsGroup] = []
        for name in names {
            let counters = (try? await client.statistics(name)) ?? []
            groups.append(StatisticsGroup(name: name, counters: counters.map { Counter(name: $0.name, value: $0.value) }))
        }
        return groups
    }

    /// Reads the statistics again.
    public func refreshStatistics() {
        perform(.statistics) { [weak self] client throws(SMPProblem) in
            let groups = try await Self.statistics(client)
            self?.statistics = groups
            return nil
        }
    }

    /// shell, Execute: `line` split as a shell splits words ("quotes" keep spaces), run on the device.
    public func runShell(_ line: String) {
        let words = Self.words(line)
        guard !words.isEmpty else { return }
        perform(.shell) { [weak self] client throws(SMPProblem) in
            do throws(SMPProblem) {
                let (output, code) = try await client.shell(words)
                self?.ran(ShellRun(command: line, output: output, code: code, problem: nil))
            } catch {
                self?.ran(ShellRun(command: line, output: "", code: nil, problem: error.message))
            }
            return nil
        }
    }

    private func ran(_ run: ShellRun) {
        shellRuns.append(run)
        if shellRuns.count > Self.shellLimit { shellRuns.removeFirst(shellRuns.count - Self.shellLimit) }
    }

    /// Splits a command line into words: spaces part them, quotes (" or ') keep them together.
    static func words(_ line: String) -> [String] {
        var words: [String] = []
        var word = ""
        var quote: Character?
        var started = false
        for c in line {
            if let q = quote {
                if c == q { quote = nil } else { word.append(c) }
            } else if c == "\"" || c == "'" {
                quote = c
                started = true
            } else if c.isWhitespace {
                if started || !word.isEmpty { words.append(word) }
                word = ""
                started = false
            } else {
                word.append(c)
            }
        }
        if started || !word.isEmpty { words.append(word) }
        return words
    }

    /// fs, File download: the device's file at `path`, handed to `save` once whole.
    public func downloadFile(_ path: String, save: @escaping @MainActor ([UInt8]) -> String?) {
        transfer = FileTransfer(path: path, upload: false, progress: TransferProgress(done: 0, total: 0, preparing: true))
        perform(.files) { [weak self] client throws(SMPProblem) in
            do throws(SMPProblem) {
                let data = try await client.downloadFile(path) { p in Task { @MainActor in self?.moved(p) } }
                self?.transfer?.progress = TransferProgress(done: data.count, total: data.count, preparing: false)
                self?.transferEnded(save(data))
            } catch {
                self?.transferEnded(error.message)
            }
            return nil
        }
    }

    /// fs, File upload: `data` to the device's file at `path`.
    public func uploadFile(_ data: [UInt8], to path: String) {
        transfer = FileTransfer(path: path, upload: true, progress: TransferProgress(done: 0, total: data.count, preparing: true))
        perform(.files) { [weak self] client throws(SMPProblem) in
            do throws(SMPProblem) {
                let parameters = try await client.parameters()
                try await client.uploadFile(data, to: path, parameters: parameters) { p in Task { @MainActor in self?.moved(p) } }
                self?.transferEnded(nil)
            } catch {
                self?.transferEnded(error.message)
            }
            return nil
        }
    }

    private func moved(_ progress: TransferProgress) {
        guard transfer?.over == false else { return }
        transfer?.progress = progress
        observers.notify()
    }

    private func transferEnded(_ problem: String?) {
        transfer?.over = true
        transfer?.problem = problem
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
    private func perform(_ which: Action, _ body: @escaping @MainActor (SMPClient) async throws(SMPProblem) -> String?) {
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

    // MARK: Update Firmware

    /// Starts Update Firmware with the file's bytes, read and checked as `image`.
    public func startUpdate(_ bytes: [UInt8], image: MCUbootImage, fileName: String, mode: FirmwareUpdate.Mode) {
        guard update?.isRunning != true, action == nil, phase == .ready else { return }
        let device = self.device
        note = nil
        restartedAt = nil
        update = UpdateRun(fileName: fileName, image: image, mode: mode,
                           step: .uploading(TransferProgress(done: 0, total: bytes.count, preparing: true)))
        observers.notify()
        let (steps, stepped) = AsyncStream.makeStream(of: FirmwareUpdate.Step.self)
        let run = FirmwareUpdate(clock: clock, restartTime: restartTime) { [weak self] () async throws(SMPProblem) -> SMPClient in
            guard let self else { throw .cancelled }
            return try await self.comeBack(device)
        }
        updating = Task {
            let following = Task { for await step in steps { self.took(step) } }
            var failure: FirmwareUpdate.Failure?
            do throws(FirmwareUpdate.Failure) {
                try await run.run(bytes, image: image, mode: mode) { stepped.yield($0) }
            } catch {
                failure = error
            }
            stepped.finish()
            await following.value
            if update?.cancelled != true { update?.failure = failure }
            updating = nil
            observers.notify()
            // The page's own client lists the slots as they are now.
            switch route {
            case .bluetooth(_, let browser): if browser.device == device, browser.phase == .ready { refresh() }
            case .network: refresh()
            }
        }
    }

    /// Stops the update: the transfer ends where it is, and the device keeps what it took.
    public func cancelUpdate() {
        guard update?.isRunning == true else { return }
        update?.cancelled = true
        updating?.cancel()
        closeTransports()
        observers.notify()
    }

    /// Forgets a finished or failed update, so the section shows the slots alone.
    public func dismissUpdate() {
        guard update?.isRunning != true else { return }
        update = nil
        observers.notify()
    }

    private func took(_ step: FirmwareUpdate.Step) {
        guard var run = update, !run.cancelled else { return }
        if case .uploading(let progress) = step, !progress.preparing {
            let time = now()
            if let since = run.sendingSince {
                let seconds = time.timeIntervalSince(since)
                if seconds >= 0.5 { run.bytesPerSecond = Double(progress.done - run.sentBefore) / seconds }
            } else {
                run.sendingSince = time
                run.sentBefore = progress.done
            }
        }
        if step == .restarting { restartedAt = connections }
        run.step = step
        update = run
        observers.notify()
    }

    /// A client for the update: on the link as it is, or, after the restart, once the device
    /// is connected again (asked for here while it is not).
    private func comeBack(_ device: DeviceID?) async throws(SMPProblem) -> SMPClient {
        if Task.isCancelled || update?.cancelled == true { throw .cancelled }
        guard case .bluetooth(let sessions, let browser) = route, let device else { return try await open() }
        if let restartedAt, connections == restartedAt {
            throw .disconnected(L10n.tr("The device has not restarted yet."))
        }
        if browser.device == device, browser.phase == .ready { return try await open() }
        switch sessions.state {
        case .idle, .failed: sessions.connect(to: device)
        default: break
        }
        throw .disconnected(L10n.tr("The device is not connected yet."))
    }

    /// A client on the connected device's SMP characteristic, its answers tapped from the connection.
    private func open() async throws(SMPProblem) -> SMPClient {
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
        sessions.taps[transport.notifications] = { value in received.yield(value) }
        return SMPClient(transport: transport, clock: clock)
    }

    private func closeTransports() {
        let old = links
        links = []
        if !old.isEmpty { Task { for link in old { await link.close() } } }
        guard case .bluetooth(let sessions, _) = route else { return }
        for transport in transports {
            sessions.taps[transport.notifications] = nil
            transport.received.finish()
        }
        transports = []
    }
}
