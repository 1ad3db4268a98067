// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation
import GtkKit
import ViewModels
import Views

/// For the scanner benchmark (FAVBLUE_BENCHMARK_SECONDS=N): opens the Scanner,
/// measures the main thread, the frame clock and memory for N seconds, prints
/// one "scanner-benchmark {json}" line to stderr and quits.
@MainActor
final class ScannerBenchmark {
    private let seconds: Double
    private let window: MainWindow
    private let scanner: ScannerViewModel
    private let quit: () -> Void
    private var paints: [Int64] = []
    private var startCPU = 0.0
    private var startWall = 0.0
    private var startRefreshes = 0

    init?(environment: [String: String], window: MainWindow, scanner: ScannerViewModel, quit: @escaping () -> Void) {
        guard let text = environment["FAVBLUE_BENCHMARK_SECONDS"], let seconds = Double(text), seconds > 0 else { return nil }
        self.seconds = seconds
        self.window = window
        self.scanner = scanner
        self.quit = quit
    }

    func start() {
        window.showScanner()
        startCPU = Self.threadCPUSeconds()
        startWall = Self.monotonicSeconds()
        startRefreshes = scanner.refreshCount
        window.window.onAfterPaint { [weak self] in
            guard let self else { return false }
            self.paints.append(MainLoop.monotonicMicroseconds)
            return true
        }
        Task { @MainActor [weak self] in
            guard let self else { return }
            try? await Task.sleep(nanoseconds: UInt64(self.seconds * 1_000_000_000))
            self.finish()
        }
    }

    private func finish() {
        let wall = Self.monotonicSeconds() - startWall
        let busy = (Self.threadCPUSeconds() - startCPU) / wall
        let frames = FrameStats.intervalPercentiles(paints, [0.5, 0.95])
        let result: [String: Any] = [
            "seconds": wall,
            "main_thread_busy": busy,
            "frames": paints.count,
            "frame_interval_p50_ms": frames[0],
            "frame_interval_p95_ms": frames[1],
            "peak_rss_mib": Double(Self.statusKB("VmHWM")) / 1024,
            "refreshes_per_second": Double(scanner.refreshCount - startRefreshes) / wall,
            "rows": scanner.rows.count,
        ]
        FrameStats.report("scanner-benchmark", result)
        quit()
    }

    /// CPU time of the calling (main) thread.
    private static func threadCPUSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    private static func monotonicSeconds() -> Double { Double(MainLoop.monotonicMicroseconds) / 1e6 }

    private static func statusKB(_ field: String) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix(field + ":") {
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
        }
        return 0
    }
}
