// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation

/// A pairer the test drives: each pair() waits for the test to `finish` it; `ask` puts a question.
public final class FakePairer: DevicePairer, @unchecked Sendable {
    public let prompts = Feed<PairingPromptEvent>()
    public var unavailableReason: String? { nil }
    private let lock = NSLock()

    public init() {}
    private var paired: Set<DeviceID> = []
    private var pending: [DeviceID: CheckedContinuation<Result<DeviceID, PairingFailure>, Never>] = [:]
    public private(set) var cancelled: [DeviceID] = []
    public private(set) var answers: [PairingAnswer] = []
    /// The devices whose own request to pair was declined.
    public private(set) var declined: [DeviceID] = []
    /// Devices bonded without a code that want one.
    public var wantingCode: Set<DeviceID> = []
    /// Devices bonded by LE legacy pairing.
    public var olderWay: Set<DeviceID> = []

    public func isPaired(_ device: DeviceID) -> Bool { lock.withLock { paired.contains(device) } }

    public func pair(_ device: DeviceID) async throws(PairingFailure) -> DeviceID {
        let result = await withCheckedContinuation { continuation in lock.withLock { pending[device] = continuation } }
        let identity = try result.get()
        lock.withLock { _ = paired.insert(identity) }
        return identity
    }

    public func forget(_ device: DeviceID) async throws(PairingFailure) { lock.withLock { _ = paired.remove(device) } }
    public func cancelPairing(_ device: DeviceID) async { lock.withLock { cancelled.append(device) } }
    public func declineRequest(_ device: DeviceID) async { lock.withLock { declined.append(device) } }
    public func wantsCode(_ device: DeviceID) -> Bool { lock.withLock { wantingCode.contains(device) } }
    public func pairedTheOlderWay(_ device: DeviceID) -> Bool { lock.withLock { olderWay.contains(device) } }

    public func ask(_ id: Int, _ device: DeviceID, _ question: PairingQuestion) {
        prompts.yield(.ask(PairingPrompt(id: id, device: device, question: question) { [weak self] answer in
            self?.lock.withLock { self?.answers.append(answer) }
        }))
    }

    public func finish(_ device: DeviceID, _ result: Result<DeviceID, PairingFailure>) {
        lock.withLock { pending.removeValue(forKey: device) }?.resume(returning: result)
    }

    public var isWaiting: Bool { lock.withLock { !pending.isEmpty } }
}

