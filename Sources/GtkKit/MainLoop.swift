// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

internal import CGtkShim

/// Bridges libdispatch's main queue into the GLib main loop.
///
/// GTK owns the main thread; without this, `@MainActor` tasks and
/// `DispatchQueue.main` blocks would never run while `g_application_run` runs.
public enum MainLoop {
    /// Installs the bridge once; later calls do nothing.
    public static func install() {
        _ = cgtk_main_queue_attach()
    }

    /// How often the bridge has woken up since start (for tests and diagnostics).
    public static var wakeups: UInt64 { UInt64(cgtk_main_queue_wakeups()) }

    /// GLib's monotonic clock, in microseconds (the clock frame times use).
    public static var monotonicMicroseconds: Int64 { Int64(g_get_monotonic_time()) }

    /// Runs GLib's default context until `condition` holds or `timeout` seconds pass.
    /// For tests and start-up measurements; the app itself uses `g_application_run`.
    @discardableResult
    public static func iterate(until condition: () -> Bool, timeout: Double) -> Bool {
        let deadline = g_get_monotonic_time() + Int(timeout * 1_000_000)
        while !condition() {
            if g_get_monotonic_time() > deadline { return false }
            if g_main_context_pending(nil) != 0 {
                g_main_context_iteration(nil, 0)
            } else {
                g_usleep(2_000)
            }
        }
        return true
    }

    /// Runs `handler` once on the main loop after `seconds`, even while nothing else is
    /// queued; a safety net for tests. Cancel the returned timeout to drop it.
    @MainActor
    @discardableResult
    public static func after(seconds: Double, _ handler: @escaping () -> Void) -> Timeout {
        Timeout(seconds: seconds, handler)
    }
}
