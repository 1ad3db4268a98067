// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation

/// The connector of an H4 source: an `HCIConnector` on the host the scanner shares, made
/// anew when the link was opened again, behind one steady stream of events.
public final class HCILinkConnector: DeviceConnector, @unchecked Sendable {
    private let link: HCILink
    private let log: @Sendable (String) -> Void
    private let streams = ConnectionStreams()
    /// Opening the link may block; user requests wait here in order, off the caller's thread.
    private let queue = DispatchQueue(label: "favblue-link-connector")
    private let lock = NSLock()
    private var inner: HCIConnector?
    private var forwarding: Task<Void, Never>?

    /// Creates a connector over `link`; nothing opens until the first connect.
    public init(link: HCILink, log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.link = link
        self.log = log
    }

    deinit { forwarding?.cancel() }

    public var events: Feed<ConnectionEvent> { streams.events }
    public var state: ConnectionState { streams.state }

    public func connect(to device: DeviceID) {
        queue.async { [self] in
            do throws(ScanFailure) {
                try connector().connect(to: device)
            } catch {
                streams.set(.failed(.adapterGone(error.detail)))
            }
        }
    }

    public func cancel() {
        queue.async { [self] in
            if let inner = lock.withLock({ inner }) { inner.cancel() } else { streams.set(.idle) }
        }
    }

    public func disconnect() {
        queue.async { [self] in
            if let inner = lock.withLock({ inner }) { inner.disconnect() } else { streams.set(.idle) }
        }
    }

    public func disconnectBeforeQuitting(within timeout: TimeInterval) {
        // Not through `queue`: a connect there may be waiting on the link that is about to close.
        if let inner = lock.withLock({ inner }) { inner.disconnectBeforeQuitting(within: timeout) } else { streams.set(.idle) }
    }

    public func send(_ text: String) async throws(ChatSendError) {
        guard let inner = lock.withLock({ inner }) else { throw .notConnected }
        try await inner.send(text)
    }

    /// The bonds its links are encrypted with; set before the first connect.
    public var keyring: HCIKeyring? {
        get { lock.withLock { storedKeyring } }
        set { lock.withLock { storedKeyring = newValue; inner?.keyring = newValue } }
    }
    private var storedKeyring: HCIKeyring?

    /// A device that is not bonded asks to be paired; handed to every connector on the link.
    var onPairingRequest: (@Sendable (DeviceID) -> Void)? {
        get { lock.withLock { storedPairingRequest } }
        set { lock.withLock { storedPairingRequest = newValue; inner?.onPairingRequest = newValue } }
    }
    private var storedPairingRequest: (@Sendable (DeviceID) -> Void)?

    /// Says no to a device's own request to pair.
    func declinePairingRequest(from device: DeviceID) { lock.withLock { inner }?.declinePairingRequest(from: device) }

    /// Where each device is heard now, handed to every connector on the link; set before the first connect.
    public var addresses: HeardAddresses? {
        get { lock.withLock { storedAddresses } }
        set { lock.withLock { storedAddresses = newValue; inner?.addresses = newValue } }
    }
    private var storedAddresses: HeardAddresses?

    /// Pairs with `device` on the current link, connecting first when it is not the one connected.
    func pair(_ device: DeviceID, _ context: PairingContext) async -> Result<(DeviceID, Bond?), PairingFailure> {
        let made: Result<HCIConnector, ScanFailure> = await withCheckedContinuation { continuation in
            queue.async { [self] in
                do throws(ScanFailure) {
                    continuation.resume(returning: .success(try connector()))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        switch made {
        case .success(let inner): return await inner.pair(device, context)
        case .failure(let error): return .failure(.unavailable(error.message))
        }
    }

    /// The user's answer to the question the pairing asked.
    func answerPairing(_ answer: PairingAnswer) { lock.withLock { inner }?.answerPairing(answer) }

    /// Calls off the pairing under way.
    func cancelPairing() { lock.withLock { inner }?.cancelPairing() }

    // MARK: GATTAccess, on the current host's connector

    public func discoverServices() async throws(GATTError) -> [GATTService] {
        guard let inner = lock.withLock({ inner }) else { throw .notConnected }
        return try await inner.discoverServices()
    }

    public func readValue(at handle: UInt16) async throws(GATTError) -> [UInt8] {
        guard let inner = lock.withLock({ inner }) else { throw .notConnected }
        return try await inner.readValue(at: handle)
    }

    public func readValues(at handles: [UInt16]) async -> [Result<[UInt8], GATTError>] {
        guard let inner = lock.withLock({ inner }) else { return handles.map { _ in .failure(.notConnected) } }
        return await inner.readValues(at: handles)
    }

    public func writeValue(_ value: [UInt8], at handle: UInt16, withResponse: Bool) async throws(GATTError) {
        guard let inner = lock.withLock({ inner }) else { throw .notConnected }
        try await inner.writeValue(value, at: handle, withResponse: withResponse)
    }

    public func subscribe(to handle: UInt16, cccd: UInt16, indicate: Bool, on: Bool) async throws(GATTError) {
        guard let inner = lock.withLock({ inner }) else { throw .notConnected }
        try await inner.subscribe(to: handle, cccd: cccd, indicate: indicate, on: on)
    }

    public func writeCommandLimit() async -> Int {
        guard let inner = lock.withLock({ inner }) else { return 20 }
        return await inner.writeCommandLimit()
    }

    public var readsSignalWhileConnected: Bool { true }

    /// The connector on the link's current host, made (and listened to) when the host is new.
    private func connector() throws(ScanFailure) -> HCIConnector {
        let host = try link.host()
        return lock.withLock {
            if let inner, inner.host === host { return inner }
            let made = HCIConnector(host: host, attributes: link.attributes, log: log)
            made.keyring = storedKeyring
            made.addresses = storedAddresses
            made.onPairingRequest = storedPairingRequest
            inner = made
            forwarding?.cancel()
            let events = made.events
            let streams = streams
            forwarding = Task.detached {
                for await event in events {
                    if case .state(let state) = event { streams.set(state) } else { streams.emit(event) }
                }
            }
            return made
        }
    }
}
