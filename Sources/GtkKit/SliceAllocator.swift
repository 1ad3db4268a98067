// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

internal import CGtkShim
import Foundation

/// GLib before 2.76 hands out its small blocks (D-Bus messages, variants, list nodes) from a
/// slice allocator that keeps the pages one thread's frees leave behind. The accessibility
/// bus's messages, a few for every key typed, are built on the main thread and freed on
/// GDBus's own, and in an hour of chat that grew the process by about 10 MB and kept growing.
/// GLib 2.76 and later use malloc for slices; on older ones `G_SLICE=always-malloc` does the
/// same, but GLib reads it while it loads, before `main`. The executable sets the same
/// configuration earlier still, from its `.preinit_array` (CGtkShim's SliceEarly.c), so no
/// restart is needed.
public enum SliceAllocator {
    /// Whether GLib's small blocks come from malloc in this process.
    public static var usesMalloc: Bool { cgtk_slice_uses_malloc() != 0 }

    /// When the early hook did not run (GLib older than 2.76, `G_SLICE` unset and the slice
    /// allocator in use), starts this process again (same pid, same arguments) with
    /// `G_SLICE=always-malloc`. Call first thing in `main`, before any thread is started. If the
    /// restart cannot be done, nothing changes.
    public static func useMallocOnOlderGLib() {
        guard !usesMalloc, getenv("G_SLICE") == nil else { return }
        setenv("G_SLICE", "always-malloc", 1)
        execv("/proc/self/exe", CommandLine.unsafeArgv)
        // Still here: no /proc. The slice allocator stays, and the variable with it, so the
        // processes this one starts are not restarted in turn.
    }

    /// Gives back to the system the heap pages start-up freed (building the pages, reading the
    /// store, parsing resources): malloc keeps them for reuse otherwise, about 1.3 MiB measured
    /// after 10 s idle. Call once start-up has settled; it takes a few milliseconds.
    public static func giveBackFreedMemory() { _ = cgtk_memory_trim() }

    /// Gives back the program's own code that start-up ran through (the store's opening, the
    /// pages' building, argument parsing): pages of the file that stay mapped otherwise, some
    /// 14 MiB of a statically linked Swift program (the kernel maps code around each page run).
    /// The kernel reads again from the file whatever is run later, and leaves the pages another
    /// running copy maps too (`favblue-scan` is the same program). Call once start-up has settled.
    public static func giveBackStartupCode() { _ = cgtk_page_out_program() }
}
