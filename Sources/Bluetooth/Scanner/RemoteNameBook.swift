// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation

/// Which BR/EDR devices still need a Remote Name Request (Core v5.4, Vol 4, Part E, §7.1.19).
/// It sits on top of ObservationDecoder: it reads the observations the live scanner emits,
/// remembers the devices that gave a name, and queues the others once. Filled on the host's
/// read thread, drained on the scanner's thread, hence the lock.
final class RemoteNameBook: @unchecked Sendable {
    /// What a Remote Name Request for one device needs.
    struct Request: Equatable {
        let id: DeviceID
        let address: [UInt8]
        let pageScanRepetitionMode: UInt8
        let clockOffset: UInt16
    }

    private let lock = NSLock()
    private var named: Set<DeviceID> = []
    private var queue: [Request] = []

    /// Notes what `event` taught, given the observations ObservationDecoder made of it.
    func note(_ observations: [Observation], of event: HCIEvent) {
        lock.lock()
        defer { lock.unlock() }
        // Inquiry results come out one observation per response, in order.
        let responses: [InquiryResponse]
        if case .inquiryResults(let list) = event { responses = list } else { responses = [] }
        for (i, observation) in observations.enumerated() where observation.id.kind == .bredr {
            if observation.name != nil {
                named.insert(observation.id)
            } else if i < responses.count, !named.contains(observation.id), !queue.contains(where: { $0.id == observation.id }) {
                let response = responses[i]
                queue.append(Request(id: observation.id, address: response.address,
                                     pageScanRepetitionMode: response.pageScanRepetitionMode, clockOffset: response.clockOffset))
            }
        }
    }

    /// The next device to ask for its name, taken off the queue.
    func next() -> Request? {
        lock.lock()
        defer { lock.unlock() }
        return queue.isEmpty ? nil : queue.removeFirst()
    }
}
