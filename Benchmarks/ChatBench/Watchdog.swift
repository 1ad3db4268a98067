// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation

/// Ends the run with a message when a wait outlasts its deadline, since a stream that
/// never yields would otherwise hang the benchmark.
final class Watchdog: @unchecked Sendable {
    private let lock = NSLock()
    private var deadline = Date.distantFuture
    private var waitingFor = ""

    init(onExpiry: @escaping @Sendable (String) -> Void) {
        let thread = Thread { [self] in
            while true {
                Thread.sleep(forTimeInterval: 0.5)
                let (late, what) = lock.withLock { (Date() > deadline, waitingFor) }
                if late { onExpiry(what) }
            }
        }
        thread.start()
    }

    /// From now on, `what` must be done within `seconds`.
    func arm(_ what: String, seconds: Double) {
        lock.withLock {
            waitingFor = what
            deadline = Date().addingTimeInterval(seconds)
        }
    }

    func disarm() { lock.withLock { deadline = .distantFuture } }
}
