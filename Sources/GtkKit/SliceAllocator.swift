// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

internal import CGtkShim
import Foundation

/// GLib before 2.76 hands out its small blocks (D-Bus messages, variants, list nodes) from a
/// slice allocator that keeps the pages one thread's frees leave behind. The accessibility
/// bus's messages, a few for every key typed, are built on the main thread and freed on
/// GDBus's own, and in an hour of chat that grew the process by about 10 MB and kept growing.
/// GLib 2.76 and later use malloc for slices; on older ones `G_SLICE=always-malloc` does the
/// same, but GLib reads it while it loads, before `main`.
public enum SliceAllocator {
    /// On GLib older than 2.76, unless the user set `G_SLICE`, starts this process again (same
    /// pid, same arguments) with `G_SLICE=always-malloc`. Call first thing in `main`, before any
    /// thread is started. If the restart cannot be done, nothing changes.
    public static func useMallocOnOlderGLib() {
        guard glib_check_version(2, 76, 0) != nil, getenv("G_SLICE") == nil else { return }
        setenv("G_SLICE", "always-malloc", 1)
        execv("/proc/self/exe", CommandLine.unsafeArgv)
        // Still here: no /proc. The slice allocator stays, and the variable with it, so the
        // processes this one starts are not restarted in turn.
    }
}
