// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import Localization

/// The GATT browser's port on the HCI route: the tree, reads and writes, each on the worker
/// with the current link.
extension HCIConnector {
    /// Runs `body` on the worker with the current link once it is ready; nil when not connected.
    private func onReadyLink<T: Sendable>(_ body: @escaping @Sendable (LELink) throws(ATTError) -> T) async -> Result<T, ATTError>? {
        await withCheckedContinuation { continuation in
            worker.async { [self] in
                guard let link = lock.withLock({ self.link }), lock.withLock({ link.ready }) else {
                    continuation.resume(returning: nil)
                    return
                }
                do throws(ATTError) {
                    continuation.resume(returning: .success(try body(link)))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
    }

    /// Runs `body` on the ready link, with its failures in the port's words.
    private func onLink<T: Sendable>(_ body: @escaping @Sendable (LELink) throws(ATTError) -> T) async throws(GATTError) -> T {
        switch await onReadyLink(body) {
        case nil: throw .notConnected
        case .success(let value)?: return value
        case .failure(let error)?: throw portError(error)
        }
    }

    /// A failure in the port's words; one that wants authentication marks the bond as too weak.
    private func portError(_ error: ATTError) -> GATTError {
        if case .error(.insufficientAuthentication, _, _) = error, let link = lock.withLock({ self.link }) {
            noteAuthenticationWanted(on: link)
        }
        return GATTError(error)
    }

    // MARK: GATTAccess

    public func discoverServices() async throws(GATTError) -> [GATTService] {
        try await onLink { link throws(ATTError) in
            let known = self.lock.withLock { () -> [ServiceRange]? in
                defer { link.primaries = nil }
                return link.primaries
            }
            return try GATTClient(bearer: link.bearer).discoverAll(primaries: known)
        }
    }

    public func readValue(at handle: UInt16) async throws(GATTError) -> [UInt8] {
        try await onLink { link throws(ATTError) in try GATTClient(bearer: link.bearer).read(handle) }
    }

    /// All on the worker in one go: each answer leads straight to the next request, with no
    /// hop through the caller's thread between them.
    public func readValues(at handles: [UInt16]) async -> [Result<[UInt8], GATTError>] {
        let outcome = await onReadyLink { link throws(ATTError) -> [Result<[UInt8], ATTError>] in
            let gatt = GATTClient(bearer: link.bearer)
            var results: [Result<[UInt8], ATTError>] = []
            for handle in handles {
                do throws(ATTError) {
                    results.append(.success(try gatt.read(handle)))
                } catch {
                    results.append(.failure(error))
                    switch error {
                    case .linkEnded, .aborted, .timeout:
                        // A link that ended or stopped answering: what is left would meet the same.
                        return results + handles[results.count...].map { _ in .failure(error) }
                    case .error, .unexpected: continue
                    }
                }
            }
            return results
        }
        guard case .success(let results)? = outcome else { return handles.map { _ in .failure(.notConnected) } }
        return results.map { $0.mapError(portError) }
    }

    public func writeCommandLimit() async -> Int {
        (try? await onLink { link throws(ATTError) in link.bearer.mtu - 3 }) ?? 20
    }

    /// A write with a response is long where it must be; a command must fit in one packet.
    public func writeValue(_ value: [UInt8], at handle: UInt16, withResponse: Bool) async throws(GATTError) {
        let limit: Int? = try await onLink { link throws(ATTError) in
            guard withResponse else {
                guard value.count <= link.bearer.mtu - 3 else { return link.bearer.mtu - 3 }
                link.outbox.send(frame: L2CAPFrame(channel: L2CAPFrame.attChannel,
                                                   payload: ATTPDU.writeCommand(handle: handle, value: value).bytes).bytes)
                return nil
            }
            try GATTClient(bearer: link.bearer).write(handle, value)
            return nil
        }
        if let limit { throw .refused(GATTError.commandLimit(limit)) }
    }
}

extension HCIConnector {
    public func subscribe(to handle: UInt16, cccd: UInt16, indicate: Bool, on: Bool) async throws(GATTError) {
        let value: [UInt8] = on ? (indicate ? [0x02, 0x00] : [0x01, 0x00]) : [0x00, 0x00]
        try await onLink { link throws(ATTError) in try GATTClient(bearer: link.bearer).write(cccd, value) }
    }
}

extension GATTError {
    /// The port's words for what the bearer met.
    init(_ error: ATTError) {
        switch error {
        case .error(let code, _, _): self = .device(message: code.message, wantsPairing: code.wantsPairing)
        case .timeout: self = .timedOut
        case .linkEnded, .aborted: self = .connectionLost
        case .unexpected(let what): self = .device(message: what, wantsPairing: false)
        }
    }

    /// Why a write without response of more than `limit` bytes is not sent.
    static func commandLimit(_ limit: Int) -> String {
        L10n.plural("A write without response carries at most {} byte here; write it with a response instead.",
                    "A write without response carries at most {} bytes here; write it with a response instead.", limit,
                    Formats.number(limit))
    }
}
