// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation

/// Where each listed device is heard now: the newest address of its row, for the threads that
/// connect and pair. A row that changes its address (folded, or resolved with a bond) is
/// reached there, never at its key nor at an address it has left.
///
/// The live model writes it as it folds, and only when a row's address changes; a connector
/// reads it while an attempt waits, and tries again when it moved.
public final class HeardAddresses: @unchecked Sendable {
    private let lock = NSLock()
    private var newest: [DeviceID: DeviceID] = [:]
    /// Reports heard at a row's newest private address since it was noted, for rows heard away
    /// from their own address.
    private var reports: [DeviceID: Int] = [:]

    public init() {}

    /// The address `row` is heard at now: its newest one, else `row` itself.
    public func current(_ row: DeviceID) -> DeviceID {
        lock.withLock { newest[row] } ?? row
    }

    /// Notes that `row` is heard at `address` now; nil, or `row` itself, means at its own address.
    public func note(_ address: DeviceID?, for row: DeviceID) {
        lock.withLock {
            newest[row] = address == row ? nil : address
            reports[row] = nil
        }
    }

    /// Counts one more report of `row` at `address`, where a key resolved it to the row.
    public func count(_ address: DeviceID, for row: DeviceID) {
        lock.withLock { if newest[row] == address { reports[row, default: 0] += 1 } }
    }

    /// How many reports `row` was heard in at `address` since it took that address.
    public func reports(at address: DeviceID, for row: DeviceID) -> Int {
        lock.withLock { newest[row] == address ? reports[row] ?? 0 : 0 }
    }

    /// Forgets `row` (dropped, or moved to its identity).
    public func forget(_ row: DeviceID) {
        lock.withLock {
            newest[row] = nil
            reports[row] = nil
        }
    }
}
