// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation

/// One pairing on one link, in either role: the session, what its driver keeps beside it, and
/// its outcome. Guarded by the lock of whoever drives it (the connector's, or the link's).
final class PairingRun: @unchecked Sendable {
    let session: SMPSession
    /// Puts a question to the user; the peripheral makes its own prompts and leaves it nil.
    let ask: (@Sendable (PairingQuestion) -> Void)?
    /// The responder's key for the central's encryption, once the checks matched.
    var key: [UInt8]?
    /// The SMP timeout (Vol 3, Part H, §3.4): a run with no PDU for 30 s is over.
    static let timeout: Double = 30

    /// Bumped by every step, so a timer set earlier knows it is stale.
    private var activity = 0
    /// Numbers the questions asked, so a prompt is told apart from the one before.
    var promptID = 0
    private(set) var outcome: Result<(DeviceID, Bond?), PairingFailure>?

    init(session: SMPSession, ask: (@Sendable (PairingQuestion) -> Void)? = nil) {
        self.session = session
        self.ask = ask
    }

    /// Runs `fire` once `seconds` have passed: a queue's `asyncAfter` (`after(on:)`), or a test's hand.
    typealias After = @Sendable (_ seconds: Double, _ fire: @escaping @Sendable () -> Void) -> Void

    static func after(on queue: DispatchQueue) -> After {
        { seconds, fire in queue.asyncAfter(deadline: .now() + seconds, execute: fire) }
    }

    /// A step was taken: the timeout starts again. Should the run stay still for `timeout`
    /// seconds and still be `current()`, `expire` carries out the session's timeout, under `lock`
    /// (the lock that guards the run). Called with that lock held.
    func restartTimer(after: After, lock: any NSLocking & Sendable, timeout: Double = PairingRun.timeout,
                      current: @escaping @Sendable () -> Bool, expire: @escaping @Sendable ([SMPAction]) -> Void) {
        activity += 1
        let mark = activity
        after(timeout) { [weak self] in
            lock.lock()
            defer { lock.unlock() }
            guard let self, self.activity == mark, current() else { return }
            expire(self.session.timedOut())
        }
    }

    /// Keeps the first outcome; a later one (a timeout after a failure) changes nothing.
    func end(_ result: Result<(DeviceID, Bond?), PairingFailure>) {
        if outcome == nil { outcome = result }
    }
}
