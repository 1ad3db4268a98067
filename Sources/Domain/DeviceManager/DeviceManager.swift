// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation
import Localization

/// The Device Manager of the connected device, where it has MCUmgr's SMP service: its image
/// slots, what it says of itself, Restart, Erase, Echo and Update Firmware, on whichever route
/// the connection runs. It follows the GATT browser: a device whose services are known and
/// include SMP gets a client; the answers come through the connection's tap on the SMP
/// characteristic, so the browser's log never sees them.
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
    public enum Action: Equatable, Sendable { case echo, restart, erase, refresh }

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

    // MARK: Borrowed
    private let sessions: ChatSessions
    private let browser: GATTBrowser
    private let clock: any Clock<Duration>
    private let restartTime: Duration
    private let now: () -> Date

    // MARK: Owned
    private let observers = ChangeObservers()
    private var token: ObservationToken?
    private var client: SMPClient?
    /// Transports open on the connection, finished when it ends so their waits end too.
    private var transports: [GATTSMPTransport] = []
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
        self.sessions = sessions
        self.browser = browser
        self.clock = clock
        self.restartTime = restartTime
        self.now = now
        token = browser.observe { [weak self] in self?.follow() }
        follow()
    }

    /// Calls `handler` after every change.
    public func observe(_ handler: @escaping @MainActor () -> Void) -> ObservationToken { observers.observe(handler) }

    /// Whether the connected device's services include MCUmgr's.
    private var offered: Bool {
        browser.services.contains { $0.uuid == GATTSMPTransport.service }
    }

    private func follow() {
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
        guard let device else { return }
        phase = .opening
        action = .refresh
        observers.notify()
        generation += 1
        let generation = generation
        Task {
            do throws(SMPProblem) {
                let client = try await self.open(device)
                let parameters = try? await client.parameters()
                let bootloader = try? await client.bootloader().name
                let slots = try await client.images()
                guard generation == self.generation else { return }
                self.client = client
                self.parameters = parameters
                self.bootloader = bootloader
                self.slots = slots
                phase = .ready
            } catch {
                guard generation == self.generation else { return }
                phase = .failed(error.message)
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

    private func perform(_ which: Action, _ body: @escaping @MainActor (SMPClient) async throws(SMPProblem) -> String) {
        guard action == nil, update?.isRunning != true, let client else { return }
        action = which
        note = nil
        observers.notify()
        let generation = generation
        Task {
            do throws(SMPProblem) {
                let said = try await body(client)
                if generation == self.generation || which == .restart { note = (said, false) }
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
        guard let device, update?.isRunning != true, action == nil else { return }
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
            if browser.device == device, browser.phase == .ready { refresh() }
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
    private func comeBack(_ device: DeviceID) async throws(SMPProblem) -> SMPClient {
        if Task.isCancelled || update?.cancelled == true { throw .cancelled }
        if let restartedAt, connections == restartedAt {
            throw .disconnected(L10n.tr("The device has not restarted yet."))
        }
        if browser.device == device, browser.phase == .ready { return try await open(device) }
        switch sessions.state {
        case .idle, .failed: sessions.connect(to: device)
        default: break
        }
        throw .disconnected(L10n.tr("The device is not connected yet."))
    }

    /// A client on the connected device's SMP characteristic, its answers tapped from the connection.
    private func open(_ device: DeviceID) async throws(SMPProblem) -> SMPClient {
        guard let transport = try await GATTSMPTransport.open(sessions.connector, device: device, services: browser.services,
                                                               listening: false) else {
            throw .unexpected(L10n.tr("The device has no Device Manager."))
        }
        transports.append(transport)
        let received = transport.received
        sessions.taps[transport.notifications] = { value in received.yield(value) }
        return SMPClient(transport: transport, clock: clock)
    }

    private func closeTransports() {
        for transport in transports {
            sessions.taps[transport.notifications] = nil
            transport.received.finish()
        }
        transports = []
    }
}
