// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain

/// Drives the start-up splash: shown for a configurable time, skippable, then done.
@MainActor
public final class SplashViewModel {
    /// Whether the splash is still on screen.
    public private(set) var isShowing: Bool
    /// How long the splash stays, in milliseconds; 0 means no splash.
    public let durationMs: Int

    private let sleep: @Sendable (Int) async -> Void
    private let observers = ChangeObservers()
    private var timer: Task<Void, Never>?

    /// Creates the model; `sleep` waits a number of milliseconds (replaceable in tests).
    public init(durationMs: Int,
                sleep: @escaping @Sendable (Int) async -> Void = { ms in
                    try? await Task.sleep(nanoseconds: UInt64(ms) * 1_000_000)
                }) {
        self.durationMs = max(0, durationMs)
        self.isShowing = durationMs > 0
        self.sleep = sleep
    }

    /// Calls `handler` when the splash ends.
    public func observe(_ handler: @escaping @MainActor () -> Void) -> ObservationToken {
        observers.observe(handler)
    }

    /// Starts the countdown.
    public func start() {
        guard isShowing, timer == nil else { return }
        let duration = durationMs
        let sleep = self.sleep
        timer = Task { [weak self] in
            await sleep(duration)
            self?.finish()
        }
    }

    /// Ends the splash now (a click or Esc).
    public func skip() {
        timer?.cancel()
        finish()
    }

    private func finish() {
        guard isShowing else { return }
        isShowing = false
        timer = nil
        observers.notify()
    }
}
