// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation

/// Every event a peripheral reported, kept, and waited for.
public final class PeripheralEventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var seen: [PeripheralEvent] = []
    private var task: Task<Void, Never>?

    public init(_ feed: Feed<PeripheralEvent>) {
        task = Task.detached { [weak self] in
            for await event in feed { self?.lock.withLock { self?.seen.append(event) } }
        }
    }

    deinit { task?.cancel() }

    public var all: [PeripheralEvent] { lock.withLock { seen } }

    /// Waits up to `timeout` seconds for an event matching `match`, polling what was kept;
    /// false when none came.
    public func waitFor(timeout: Double = 10, _ match: (PeripheralEvent) -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if all.contains(where: match) { return true }
            try? await Task.sleep(nanoseconds: 20_000_000)
        }
        return false
    }
}
