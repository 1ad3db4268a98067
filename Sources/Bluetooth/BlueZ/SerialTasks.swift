// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation

/// Runs async work one piece at a time, in the order it was handed in: a start and a stop
/// asked for in that order reach BlueZ in that order, whatever each one waits for.
final class SerialTasks: @unchecked Sendable {
    private let lock = NSLock()
    private var tail: Task<Void, Never>?

    /// Queues `work` after everything queued before it.
    func enqueue(_ work: @escaping @Sendable () async -> Void) {
        lock.withLock {
            let previous = tail
            tail = Task {
                await previous?.value
                await work()
            }
        }
    }

    /// Waits until everything queued so far has run.
    func drain() async {
        let last = lock.withLock { tail }
        await last?.value
    }
}
