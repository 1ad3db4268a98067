// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation

/// For the start-up benchmark: with FAVBLUE_REPORT_FIRST_FRAME set, prints when each
/// start-up phase ended (monotonic µs, the clock the benchmark reads), so the time
/// between exec and the first window can be placed.
enum StartupTrace {
    static let enabled = ProcessInfo.processInfo.environment["FAVBLUE_REPORT_FIRST_FRAME"] != nil

    /// Prints "startup-phase NAME µs" when enabled.
    static func mark(_ phase: String) {
        guard enabled else { return }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let micros = Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1_000
        FileHandle.standardError.write(Data("startup-phase \(phase) \(micros)\n".utf8))
    }
}
