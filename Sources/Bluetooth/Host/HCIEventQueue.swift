// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation

/// Events a client wants on a thread of its own. The host's read thread posts them from a
/// callback; the client's thread takes them, waiting on a condition, never spinning. Once the
/// host has ended, what was posted is still handed out, then the reason is thrown.
final class HCIEventQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var events: [HCIEvent] = []
    private var head = 0
    private var reason: ScanFailure?

    /// Queues `event` and wakes a waiting taker.
    func post(_ event: HCIEvent) {
        condition.lock()
        events.append(event)
        condition.signal()
        condition.unlock()
    }

    /// Marks the end of the link; takers get `reason` once the queue is empty.
    func close(_ reason: ScanFailure) {
        condition.lock()
        if self.reason == nil { self.reason = reason }
        condition.broadcast()
        condition.unlock()
    }

    /// Empties the queue and forgets the end, for a new session.
    func reset() {
        condition.lock()
        events = []
        head = 0
        reason = nil
        condition.unlock()
    }

    /// The next event, waiting up to `timeout` seconds; nil when none came in time.
    func next(timeout: Double) throws(ScanFailure) -> HCIEvent? {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if head < events.count {
                let event = events[head]
                head += 1
                // Drop what was taken now and then, rather than shifting the array per event.
                if head == events.count || head >= 64 {
                    events.removeFirst(head)
                    head = 0
                }
                return event
            }
            if let reason { throw reason }
            if !condition.wait(until: deadline) {
                return nil
            }
        }
    }
}
