// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation
import GtkKit
import ViewModels
import Views

/// For the scanner benchmark (FAVBLUE_BENCHMARK_SECONDS=N): opens the Scanner,
/// measures the main thread, the D-Bus thread, the whole process, the frame clock
/// and memory for N seconds, prints one "scanner-benchmark {json}" line to stderr
/// and quits.
@MainActor
final class ScannerBenchmark {
    private let seconds: Double
    private let window: MainWindow
    private let scanner: ScannerViewModel
    private let quit: () -> Void
    private var paints: [Int64] = []
    private var startCPU = 0.0
    private var startProcessCPU = 0.0
    /// CPU seconds per thread id of FavBlue's D-Bus thread and GLib's D-Bus I/O thread when measuring began.
    private var startBusCPU: [Int: Double] = [:]
    private var startIOCPU: [Int: Double] = [:]
    private var startWall = 0.0
    private var startRefreshes = 0

    /// Messages the sources took in (a broker's), to compare with what was sent.
    var sourceMessages: () -> Int = { 0 }

    init?(environment: [String: String], window: MainWindow, scanner: ScannerViewModel, quit: @escaping () -> Void) {
        guard let text = environment["FAVBLUE_BENCHMARK_SECONDS"], let seconds = Double(text), seconds > 0 else { return nil }
        self.seconds = seconds
        self.window = window
        self.scanner = scanner
        self.quit = quit
    }

    func start() {
        window.showScanner()
        startCPU = FrameStats.threadCPUSeconds()
        startProcessCPU = FrameStats.processCPUSeconds()
        startBusCPU = Self.threadCPUSeconds(named: "favblue-dbus")
        startIOCPU = Self.threadCPUSeconds(named: "gdbus")
        startWall = FrameStats.monotonicSeconds()
        startRefreshes = scanner.refreshCount
        // A frame every refresh, whether or not anything changed, as while the user scrolls:
        // the intervals then show how long the main thread keeps a frame waiting.
        window.window.keepFrameClockRunning(true)
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
        window.window.keepFrameClockRunning(false)
        let wall = FrameStats.monotonicSeconds() - startWall
        let busy = (FrameStats.threadCPUSeconds() - startCPU) / wall
        let process = (FrameStats.processCPUSeconds() - startProcessCPU) / wall
        let bus = Self.share(of: "favblue-dbus", since: startBusCPU, over: wall)
        let io = Self.share(of: "gdbus", since: startIOCPU, over: wall)
        let frames = FrameStats.intervalPercentiles(paints, [0.5, 0.95])
        let result: [String: Any] = [
            "seconds": wall,
            "main_thread_busy": busy,
            "dbus_thread_busy": bus,
            "gdbus_io_thread_busy": io,
            "process_cpu": process,
            "frames": paints.count,
            "frame_interval_p50_ms": frames[0],
            "frame_interval_p95_ms": frames[1],
            "peak_rss_mib": Double(Self.statusKB("VmHWM")) / 1024,
            "refreshes_per_second": Double(scanner.refreshCount - startRefreshes) / wall,
            "rows": scanner.rows.count,
            "source_messages": sourceMessages(),
        ]
        FrameStats.report("scanner-benchmark", result)
        quit()
    }

    /// The CPU share of the threads named `name` over `wall` seconds; null, not 0, when there is
    /// none, so an idle thread and a missing one read differently. A thread started during the
    /// window counts from zero; one that ended is lost.
    private static func share(of name: String, since start: [Int: Double], over wall: Double) -> Any {
        let threads = threadCPUSeconds(named: name)
        guard !threads.isEmpty else { return NSNull() }
        return threads.reduce(0.0) { sum, thread in sum + thread.value - (start[thread.key] ?? 0) } / wall
    }

    /// CPU seconds (user + system) of each thread named `name`, by thread id.
    /// Another thread's CPU clock is out of reach, so this reads /proc, in clock ticks.
    private static func threadCPUSeconds(named name: String) -> [Int: Double] {
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        guard ticks > 0, let tasks = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task") else { return [:] }
        var result: [Int: Double] = [:]
        for task in tasks {
            guard let tid = Int(task),
                  let comm = try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8),
                  comm.trimmingCharacters(in: .whitespacesAndNewlines) == name,
                  let stat = try? String(contentsOfFile: "/proc/self/task/\(task)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { continue }
            // After the name in parentheses: state is field 3, utime and stime are fields 14 and 15.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { continue }
            result[tid] = (user + system) / ticks
        }
        return result
    }


    private static func statusKB(_ field: String) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix(field + ":") {
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
        }
        return 0
    }
}
