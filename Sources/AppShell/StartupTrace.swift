// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation
import GtkKit

/// For the start-up benchmark: with FAVBLUE_REPORT_FIRST_FRAME set, prints when each
/// start-up phase ended (monotonic µs, the clock the benchmark reads), so the time
/// between exec and the first window can be placed.
enum StartupTrace {
    static let enabled = getenv("FAVBLUE_REPORT_FIRST_FRAME") != nil

    /// Prints "startup-phase NAME µs" when enabled.
    static func mark(_ phase: String) {
        guard enabled else { return }
        // GLib's monotonic clock is CLOCK_MONOTONIC, the one the benchmark reads too.
        FileHandle.standardError.write(Data("startup-phase \(phase) \(MainLoop.monotonicMicroseconds)\n".utf8))
    }

    /// Prints the monotonic time (µs) of `window`'s first presented frame.
    @MainActor
    static func reportFirstFrame(of window: Window) {
        window.onAfterPaint {
            FileHandle.standardError.write(Data("first-frame \(MainLoop.monotonicMicroseconds)\n".utf8))
            return false
        }
    }
}
