// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation
import Localization

/// The owner of the connected device's GATT tree and of what was read from it and written to
/// it, for the detail page's Services section.
///
/// It follows the one connection (`ChatSessions`): once a device is connected it discovers the
/// whole tree, then reads each characteristic's user description (0x2901) and presentation
/// format (0x2904), which name and decode it. Values are read only when asked ("Read all
/// values" too is a button: some devices drop a link that reads everything at once). When the
/// connection ends, the tree goes with it.
@MainActor
public final class GATTBrowser {
    /// Where discovery stands.
    public enum Phase: Equatable, Sendable {
        /// No device connected.
        case idle
        case discovering
        case ready
        /// Discovery failed; carries why.
        case failed(String)
    }

    /// A value as read, and when.
    public struct Reading: Equatable, Sendable {
        public let bytes: [UInt8]
        public let time: Date

        public init(bytes: [UInt8], time: Date) {
            self.bytes = bytes
            self.time = time
        }
    }

    /// The outcome of the last write to a characteristic.
    public enum Written: Equatable, Sendable {
        case done(Date)
        case failed(GATTError)
    }

    // MARK: State
    /// The connected device whose tree this is.
    public private(set) var device: DeviceID?
    public private(set) var phase: Phase = .idle
    /// Every primary service, in handle order.
    public private(set) var services: [GATTService] = []
    /// The last value read, by value handle.
    public private(set) var values: [UInt16: Reading] = [:]
    /// Why the last read of a handle failed.
    public private(set) var readProblems: [UInt16: GATTError] = [:]
    /// The last write to a handle.
    public private(set) var writes: [UInt16: Written] = [:]
    /// Handles with a read or write under way.
    public private(set) var busy: Set<UInt16> = []
    /// Whether "Read all values" is under way.
    public private(set) var readingAll = false
    /// Characteristic User Descriptions (0x2901), by the characteristic's value handle.
    public private(set) var userDescriptions: [UInt16: String] = [:]
    /// Presentation Formats (0x2904), by the characteristic's value handle.
    public private(set) var formats: [UInt16: PresentationFormat] = [:]

    // MARK: Borrowed
    private let sessions: ChatSessions
    private let now: () -> Date

    // MARK: Owned
    private let observers = ChangeObservers()
    private var token: ObservationToken?
    /// Bumped when the connection changes, so work for an older one drops its results.
    private var generation = 0

    /// Follows the connection `sessions` owns.
    public init(sessions: ChatSessions, now: @escaping () -> Date = { Date() }) {
        self.sessions = sessions
        self.now = now
        token = sessions.observe { [weak self] in self?.follow() }
        follow()
    }

    /// Calls `handler` after every change.
    public func observe(_ handler: @escaping @MainActor () -> Void) -> ObservationToken { observers.observe(handler) }

    /// The characteristic whose value is at `handle`.
    public func characteristic(at handle: UInt16) -> GATTCharacteristic? {
        services.lazy.flatMap(\.characteristics).first { $0.valueHandle == handle }
    }

    // MARK: Following the connection

    private func follow() {
        var connected: DeviceID?
        if case .connected(let device, _) = sessions.state { connected = device }
        guard connected != device else { return }
        if let connected, device != nil, phase != .idle {
            // Pairing showed the same link's identity: the tree stays.
            device = connected
            observers.notify()
            return
        }
        generation += 1
        device = connected
        services = []
        values = [:]
        readProblems = [:]
        writes = [:]
        busy = []
        readingAll = false
        userDescriptions = [:]
        formats = [:]
        phase = connected == nil ? .idle : .discovering
        observers.notify()
        if connected != nil { Task { await discover() } }
    }

    /// Discovers the tree again (after a failure, or when the device's services changed).
    public func rediscover() {
        guard device != nil, phase != .discovering else { return }
        generation += 1
        phase = .discovering
        observers.notify()
        Task { await discover() }
    }

    private func discover() async {
        let generation = generation
        let connector = sessions.connector
        do {
            let found = try await connector.discoverServices()
            guard generation == self.generation else { return }
            services = found
            values = [:]
            readProblems = [:]
            phase = .ready
            observers.notify()
        } catch {
            guard generation == self.generation else { return }
            phase = .failed(error.message)
            observers.notify()
            return
        }
        // The descriptors that name and decode a characteristic; small, and read once.
        for characteristic in services.flatMap(\.characteristics) {
            for descriptor in characteristic.descriptors where descriptor.uuid == "2901" || descriptor.uuid == "2904" {
                guard let bytes = try? await connector.readValue(at: descriptor.handle), generation == self.generation else { continue }
                if descriptor.uuid == "2901" {
                    let text = DeviceText.shown(bytes: bytes).trimmingCharacters(in: .whitespaces)
                    if !text.isEmpty { userDescriptions[characteristic.valueHandle] = text }
                } else if let format = PresentationFormat(descriptor: bytes) {
                    formats[characteristic.valueHandle] = format
                }
                observers.notify()
            }
        }
    }

    // MARK: Reading and writing

    /// Reads the value at `handle` whole.
    public func read(_ handle: UInt16) async {
        guard device != nil, !busy.contains(handle) else { return }
        let generation = generation
        busy.insert(handle)
        observers.notify()
        let result: Result<[UInt8], GATTError>
        do {
            result = .success(try await sessions.connector.readValue(at: handle))
        } catch {
            result = .failure(error)
        }
        guard generation == self.generation else { return }
        busy.remove(handle)
        switch result {
        case .success(let bytes):
            values[handle] = Reading(bytes: bytes, time: now())
            readProblems[handle] = nil
        case .failure(let error):
            readProblems[handle] = error
        }
        observers.notify()
    }

    /// Reads every readable characteristic, one after another.
    public func readAll() async {
        guard phase == .ready, !readingAll else { return }
        let generation = generation
        readingAll = true
        observers.notify()
        for characteristic in services.flatMap(\.characteristics) where characteristic.properties.contains(.read) {
            guard generation == self.generation else { return }
            await read(characteristic.valueHandle)
        }
        guard generation == self.generation else { return }
        readingAll = false
        observers.notify()
    }

    /// Writes what the user typed in `format` to the characteristic at `handle`; returns why
    /// nothing was sent when the typed value cannot be written (said at the entry), else nil.
    @discardableResult
    public func write(_ typed: String, as format: ValueInputFormat, to handle: UInt16, withResponse: Bool) async -> String? {
        guard device != nil, !busy.contains(handle) else { return nil }
        let bytes: [UInt8]
        do {
            bytes = try ValueInput.bytes(typed, as: format)
        } catch {
            return error.message
        }
        let generation = generation
        busy.insert(handle)
        observers.notify()
        let outcome: Written
        do {
            try await sessions.connector.writeValue(bytes, at: handle, withResponse: withResponse)
            outcome = .done(now())
        } catch {
            outcome = .failed(error)
        }
        guard generation == self.generation else { return nil }
        busy.remove(handle)
        writes[handle] = outcome
        observers.notify()
        return nil
    }
}
