// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation

/// A connector that does what the test tells it: connects at once (or fails), records what
/// was sent, and delivers messages the test feeds it.
public final class FakeConnector: DeviceConnector, @unchecked Sendable {
    private let lock = NSLock()
    private var continuations: [UUID: Feed<ConnectionEvent>] = [:]
    private var current: ConnectionState = .idle
    /// The service a connection opens; nil simulates a device without one.
    public var service: ChatService? = .chat
    /// When set, `connect` fails with it.
    public var connectFailure: ConnectionFailure?
    /// When set, `send` throws it.
    public var sendFailure: ChatSendError?
    /// Every text sent, in order.
    public private(set) var sent: [String] = []
    /// The GATT tree discovery finds.
    public var tree: [GATTService] = []
    /// Values by handle, as reads return them.
    public var values: [UInt16: [UInt8]] = [:]
    /// Reads of these handles fail so.
    public var readFailures: [UInt16: GATTError] = [:]
    /// Every write: handle, bytes, and whether it asked for a response.
    public private(set) var written: [(handle: UInt16, value: [UInt8], withResponse: Bool)] = []
    /// Every subscription asked for: value handle, CCCD, indications, on or off.
    public private(set) var subscriptions: [(handle: UInt16, cccd: UInt16, indicate: Bool, on: Bool)] = []
    /// How many times the tree was discovered.
    public private(set) var discoveries = 0

    public init() {}

    public var events: Feed<ConnectionEvent> {
        let feed = Feed<ConnectionEvent>()
        let id = UUID()
        lock.withLock {
            feed.yield(.state(current))
            continuations[id] = feed
        }
        feed.onTermination = { [weak self] in
            self?.lock.withLock { self?.continuations[id] = nil }
        }
        return feed
    }

    public var state: ConnectionState {
        lock.lock()
        defer { lock.unlock() }
        return current
    }

    public func connect(to device: DeviceID) {
        if current.device != nil { emit(.state(.idle)) }
        emit(.state(.connecting(device)))
        if let failure = connectFailure {
            emit(.state(.failed(failure)))
        } else {
            emit(.state(.connected(device, service: service)))
        }
    }

    public func cancel() { emit(.state(.idle)) }

    public func disconnect() {
        if let device = current.device { emit(.state(.disconnecting(device))) }
        emit(.state(.idle))
    }

    public func send(_ text: String) async throws(ChatSendError) {
        if let sendFailure { throw sendFailure }
        guard state.canChat else { throw .notConnected }
        lock.withLock { sent.append(text) }
    }

    public func discoverServices() async throws(GATTError) -> [GATTService] {
        guard state.device != nil else { throw .notConnected }
        return lock.withLock {
            discoveries += 1
            return tree
        }
    }

    public func readValue(at handle: UInt16) async throws(GATTError) -> [UInt8] {
        guard state.device != nil else { throw .notConnected }
        if let failure = lock.withLock({ readFailures[handle] }) { throw failure }
        guard let value = lock.withLock({ values[handle] }) else { throw .vanished }
        return value
    }

    public func writeValue(_ value: [UInt8], at handle: UInt16, withResponse: Bool) async throws(GATTError) {
        guard state.device != nil else { throw .notConnected }
        lock.withLock {
            written.append((handle, value, withResponse))
            values[handle] = value
        }
    }

    public func subscribe(to handle: UInt16, cccd: UInt16, indicate: Bool, on: Bool) async throws(GATTError) {
        guard state.device != nil else { throw .notConnected }
        lock.withLock { subscriptions.append((handle, cccd, indicate, on)) }
    }

    /// Delivers a notification of the characteristic at `handle`, as the device would.
    public func notify(_ handle: UInt16, _ value: [UInt8], at time: Date = Date()) {
        guard let device = state.device else { return }
        emit(.notified(device, handle: handle, value: value, at: time))
    }

    /// Delivers `text` from the connected device.
    public func receive(_ text: String, at time: Date = Date()) {
        guard let device = state.device else { return }
        emit(.received(ChatMessage(device: device, direction: .incoming, body: .text(text), time: time, delivery: .sent)))
    }

    /// Says the link was made but never answered, and is being made again (a real connector's
    /// `.unanswered`), while connecting.
    public func answerNot() {
        guard case .connecting(let device) = state else { return }
        emit(.unanswered(device))
    }

    /// Starts connecting to `device` and stays there, as a link being made does.
    public func startConnecting(to device: DeviceID) { emit(.state(.connecting(device))) }

    /// Ends the connection as the device or the link would.
    public func drop(_ failure: ConnectionFailure) { emit(.state(.failed(failure))) }

    private func emit(_ event: ConnectionEvent) {
        lock.lock()
        if case .state(let state) = event { current = state }
        let targets = Array(continuations.values)
        // Yielded under the lock, so events from two threads keep one order.
        targets.forEach { $0.yield(event) }
        lock.unlock()
    }
}
