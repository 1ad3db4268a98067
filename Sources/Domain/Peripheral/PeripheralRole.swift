// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation
import Localization

/// FavBlue as the device: the advertisements the user set up and which are on, the server and
/// whether it runs, the adapter's facts, and what each central did. The owner of that state for
/// every page; the Act as a Device page and the device page's Clone are windows on it.
///
/// Events from the route arrive on the main actor. What the user sets up is written to the store
/// after each change, in order, off the main thread.
@MainActor
public final class PeripheralRole {
    // MARK: State
    public private(set) var advertisements: [Advertisement] = []
    /// The advertisements on air, by id.
    public internal(set) var on: Set<String> = []
    /// Why an advertisement could not start, by id, until it is changed or started again.
    public internal(set) var problems: [String: String] = [:]
    public private(set) var server: ServerSetup?
    public internal(set) var serving = false
    /// What Serve sends while none of the user's connectable advertisements is on: the server's
    /// name and services, so a phone finds the device it serves (`Advertisement.announcing`).
    public internal(set) var announcement: Advertisement?
    /// Why the server could not start.
    public internal(set) var serverProblem: String?
    /// Why the adapter went away while something was on air or served, until Try Again.
    public internal(set) var lost: String?
    /// What was on when the adapter went away: the advertisements, and whether Serve was.
    var lostState: (on: Set<String>, serving: Bool) = ([], false)
    /// What the adapter can do, once asked; nil before, or when it would not say.
    public private(set) var facts: AdapterFacts?
    public private(set) var factsProblem: String?
    /// Every central seen this session, in the order they came.
    public internal(set) var centrals: [CentralLog] = []
    /// What each central follows, and whether by indication.
    var following: [PeripheralCentral: [ServedCharacteristicID: Bool]] = [:]
    /// The route's values as the user set them (and centrals wrote), by characteristic.
    public internal(set) var values: [ServedCharacteristicID: [UInt8]] = [:]
    /// Said when the store would not keep the setup.
    public var onStoreProblem: ((String) -> Void)?

    /// Why this source can never be a peripheral (a replay, the demo); nil when it may.
    public var unavailableReason: String? { port.unavailableReason }

    /// Entries a central's log keeps.
    public static let logLimit = 500

    // MARK: Borrowed
    private var port: DevicePeripheral
    private let store: PeripheralSetupsRepository?
    /// Seals an encrypted BTHome sensor's frames.
    private let sealer: PayloadSealer?
    let now: () -> Date

    // MARK: Owned
    let observers = ChangeObservers()
    private var listener: Task<Void, Never>?
    private var writes: Task<Void, Never>?
    /// What the role does on its own after a change (serving a joined server, keeping the
    /// device findable), one job after another, so `flush()` can wait for it.
    private var work: Task<Void, Never>?
    /// The kept setup could not be read; it is not written over.
    private var unreadable = false

    public init(port: DevicePeripheral, store: PeripheralSetupsRepository?, sealer: PayloadSealer? = nil,
                now: @escaping () -> Date = { Date() }) {
        self.port = port
        self.store = store
        self.sealer = sealer
        self.now = now
        listen()
    }

    isolated deinit { listener?.cancel() }

    public func observe(_ handler: @escaping @MainActor () -> Void) -> ObservationToken { observers.observe(handler) }

    /// Uses `port` from now on (the source changed): what ran stops.
    public func replace(port new: DevicePeripheral) {
        guard new !== port else { return }
        let old = port
        let running = on
        Task { for id in running { await old.stopAdvertising(id: id) }; await old.stopServing() }
        port = new
        on = []
        serving = false
        announcement = nil
        facts = nil
        listen()
        observers.notify()
    }

    private func listen() {
        listener?.cancel()
        let events = port.events
        listener = Task { @MainActor [weak self] in
            for await event in events {
                guard let self, !Task.isCancelled else { return }
                self.handle(event)
            }
        }
    }

    /// Reads what was kept, and asks the adapter what it can do.
    public func load() async {
        if let store {
            do {
                let file = try await store.load()
                // What was set up while the store was read (an import at start) comes after it.
                let added = advertisements.filter { ad in !file.advertisements.contains { $0.id == ad.id } }
                advertisements = file.advertisements + added
                server = server ?? file.server
            } catch {
                // What is kept stays as it was: writing over it would lose it.
                unreadable = true
                onStoreProblem?(L10n.format(
                    "What you set up to advertise and serve could not be read, so changes made now are not saved: {}", "\(error)"))
            }
        }
        observers.notify()
        await refreshFacts()
    }

    /// Asks the adapter again (it changed, or was not there).
    public func refreshFacts() async {
        guard port.unavailableReason == nil else { return }
        do {
            facts = try await port.adapterFacts()
            factsProblem = nil
        } catch {
            factsProblem = error.message
        }
        observers.notify()
    }

    // MARK: Advertisements

    /// Adds `advertisement` (a preset's, a clone's). The services that come with it join the
    /// server set up, after the ones it has; a service it has already is not added twice. A
    /// running server serves the joined one at once.
    @discardableResult
    public func add(_ advertisement: Advertisement, server: ServerSetup? = nil) -> String {
        advertisements.append(fitted(advertisement))
        if let server {
            let joined = self.server.map { $0.joining(server) } ?? server
            if joined != self.server {
                self.server = joined
                if serving { later { await self.serve(joined) } }
            }
        }
        changed()
        return advertisement.id
    }

    /// `advertisement` as extended advertising where it does not fit a legacy one and this
    /// adapter sends extended ones: a preset goes on as it comes.
    private func fitted(_ advertisement: Advertisement) -> Advertisement {
        guard !advertisement.extended, let limits = facts?.limits, limits.extended else { return advertisement }
        let sent = advertisement.withSensorData(address: nil, sealer: nil)
        guard !sent.problems(limits: limits).isEmpty else { return advertisement }
        var wider = advertisement
        wider.extended = true
        return wider.withSensorData(address: nil, sealer: nil).problems(limits: limits).isEmpty ? wider : advertisement
    }

    /// The server set up that taking `setup` would lose: nil when there is none, or it is the same.
    public func replaced(by setup: ServerSetup?) -> ServerSetup? {
        guard let setup, let current = server, !current.sameContent(as: setup) else { return nil }
        return current
    }

    /// Replaces the advertisement with the same id; one on air is sent anew.
    public func update(_ advertisement: Advertisement) async {
        guard let i = advertisements.firstIndex(where: { $0.id == advertisement.id }) else { return }
        advertisements[i] = advertisement
        problems[advertisement.id] = nil
        changed()
        if on.contains(advertisement.id) { await start(advertisement.id) }
    }

    public func remove(_ id: String) async {
        if on.contains(id) { await stop(id) }
        advertisements.removeAll { $0.id == id }
        problems[id] = nil
        changed()
    }

    /// What keeps `advertisement` from going out on this adapter, said before it refuses.
    public func problems(of advertisement: Advertisement, company: (UInt16) -> String) -> [AdvertisingProblem] {
        advertisement.named(by: server).problems(limits: facts?.limits ?? AdvertisingLimits(), company: company)
    }

    public func start(_ id: String) async {
        guard let i = advertisements.firstIndex(where: { $0.id == id }) else { return }
        if advertisements[i].sensor != nil {
            // A sealed frame is never sent twice with one counter (bthome.io/encryption).
            advertisements[i].sensor?.counter &+= 1
            changed()
        }
        let address = facts?.advertisingAddress.map { $0.split(separator: ":").compactMap { UInt8($0, radix: 16) } }
        let ad = advertisements[i].named(by: server).withSensorData(address: address, sealer: sealer)
        do {
            try await port.startAdvertising(ad)
            on.insert(id)
            problems[id] = nil
            // The adapter is back: what the loss stopped is the user's to switch on again.
            lost = nil
            lostState = ([], false)
        } catch {
            problems[id] = error.message
        }
        observers.notify()
        await keepFindable()
    }

    public func stop(_ id: String) async {
        await port.stopAdvertising(id: id)
        on.remove(id)
        observers.notify()
        await keepFindable()
    }

    /// Whether one of the user's connectable advertisements is on air.
    private var userConnectableOn: Bool {
        advertisements.contains { $0.kind == .connectable && on.contains($0.id) }
    }

    /// While serving, the device is findable: the server's announcement goes on air when none of
    /// the user's connectable advertisements is on, and off when one is, or serving stops.
    func keepFindable() async {
        let wanted = serving && !userConnectableOn ? server.map(Advertisement.announcing) : nil
        if let current = announcement, current != wanted {
            announcement = nil
            await port.stopAdvertising(id: current.id)
            on.remove(current.id)
        }
        if let wanted, announcement == nil {
            announcement = wanted
            do { try await port.startAdvertising(wanted) } catch {
                announcement = nil
                serverProblem = L10n.format("The server runs, but no phone can find it: {}", error.message)
            }
        }
        observers.notify()
    }

    // MARK: Server

    /// Sets up `setup` as the server; a running one serves it at once.
    public func setServer(_ setup: ServerSetup?) async {
        let renamed = setup?.name != server?.name
        server = setup
        values = [:]
        changed()
        // What is on air under the server's name goes on under its new one.
        if renamed {
            for ad in advertisements where ad.nameFollowsServer && on.contains(ad.id) { await start(ad.id) }
        }
        if serving {
            if let setup { await serve(setup) } else { await stopServing() }
        }
    }

    public func startServing() async {
        guard let server else { return }
        await serve(server)
    }

    private func serve(_ setup: ServerSetup) async {
        do {
            try await port.serve(setup)
            serving = true
            serverProblem = nil
        } catch {
            serving = false
            serverProblem = error.message
        }
        observers.notify()
        await keepFindable()
    }

    /// Starts again what was on when the adapter went away; a failure is said where it belongs.
    public func tryAgain() async {
        let (wasOn, wasServing) = lostState
        lost = nil
        lostState = ([], false)
        observers.notify()
        if wasServing, let server { await serve(server) }
        for id in wasOn where advertisements.contains(where: { $0.id == id }) { await start(id) }
    }

    /// Whether `id` was on when the adapter went away (its switch is off for that reason).
    public func stoppedByLoss(_ id: String) -> Bool { lost != nil && lostState.on.contains(id) }

    public func stopServing() async {
        await port.stopServing()
        serving = false
        observers.notify()
        await keepFindable()
    }

    /// The value a characteristic has now: what the user set or a central wrote, else the setup's.
    public func value(of id: ServedCharacteristicID) -> [UInt8] {
        values[id] ?? server?.services[safe: id.service]?.characteristics[safe: id.characteristic]?.value ?? []
    }

    /// The value centrals read from now on; kept in the setup too.
    public func setValue(_ value: [UInt8], of id: ServedCharacteristicID) async {
        values[id] = value
        if var setup = server, id.service < setup.services.count, id.characteristic < setup.services[id.service].characteristics.count {
            setup.services[id.service].characteristics[id.characteristic].value = value
            server = setup
            changed()
        }
        await port.setValue(value, of: id)
        observers.notify()
    }

    /// Notifies or indicates the characteristic's value to every central subscribed; how many it
    /// reached. Each central's log says what it was sent.
    @discardableResult
    public func send(_ id: ServedCharacteristicID) async -> Int {
        let value = value(of: id)
        let count = await port.send(value, of: id)
        if count > 0 {
            // Who is told first, then the logs: a log looped over is a second hold on its entries,
            // and appending to them would copy all of them, at every Send.
            let told = centrals.compactMap { log in
                log.connected ? following[log.central]?[id].map { (log.central, $0) } : nil
            }
            for (central, indicate) in told { log(.sent(central, id, value, indicate: indicate)) }
            observers.notify()
        }
        return count
    }

    // MARK: Files

    /// Adds `file`'s advertisements (each under an id of its own), and takes its server in place
    /// of the one set up; a running server serves the new one at once.
    public func take(_ file: PeripheralFile) {
        var ids = Set(advertisements.map(\.id))
        for var ad in file.advertisements {
            if ids.contains(ad.id) { ad.id = UUID().uuidString }
            ids.insert(ad.id)
            advertisements.append(ad)
        }
        if let setup = file.server {
            server = setup
            values = [:]
            if serving { later { await self.serve(setup) } }
        }
        changed()
    }

    /// Keeps what is set up, behind the user's back, in order. Off the main actor, so quitting
    /// can wait for the last write while it holds the main thread.
    private func changed() {
        observers.notify()
        guard let store, !unreadable else { return }
        let file = self.file
        let before = writes
        let message = L10n.tr("What you set up to advertise and serve could not be saved.")
        let tell: @Sendable () -> Void = { [weak self] in Task { @MainActor in self?.onStoreProblem?(message) } }
        writes = Task.detached {
            await before?.value
            do { try await store.save(file) } catch { tell() }
        }
    }

    /// The writes not yet done, to wait for from any thread.
    public var pendingWrites: Task<Void, Never>? { writes }

    /// Runs `job` after the role's earlier jobs.
    func later(_ job: @escaping @MainActor () async -> Void) {
        let before = work
        work = Task { @MainActor in
            await before?.value
            await job()
        }
    }

    /// Returns once what was set up so far is served and kept.
    public func flush() async {
        await work?.value
        await writes?.value
    }
}

extension Array {
    /// The element at `index`, or nil past the ends.
    public subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
