// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation

/// The date models read as "now" (their `now:` closures), moved on by hand: ages, fading and
/// "last seen" follow it, while timers run on a test clock of their own.
public final class WallClock: @unchecked Sendable {
    private let lock = NSLock()
    private var time: Date

    public init(_ start: Date = Date(timeIntervalSince1970: 1_000)) { time = start }

    /// The time now, as the model under test sees it.
    public var now: Date {
        get { lock.withLock { time } }
        set { lock.withLock { time = newValue } }
    }

    /// Moves the time on by `seconds`.
    public func advance(_ seconds: Double) { lock.withLock { time += seconds } }
}
