// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation
import GtkKit

/// What the benchmarks measure and print: clocks, frame intervals from paint times, and one JSON line.
enum FrameStats {
    /// CPU time of the calling (main) thread, in seconds.
    static func threadCPUSeconds() -> Double { cpuSeconds(CLOCK_THREAD_CPUTIME_ID) }

    /// CPU time of the whole process, all threads, in seconds.
    static func processCPUSeconds() -> Double { cpuSeconds(CLOCK_PROCESS_CPUTIME_ID) }

    /// The main loop's monotonic clock, in seconds.
    static func monotonicSeconds() -> Double { Double(MainLoop.monotonicMicroseconds) / 1e6 }

    private static func cpuSeconds(_ clock: clockid_t) -> Double {
        var ts = timespec()
        clock_gettime(clock, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// The interval (ms) below which a share `p` of the frames fell, from paint times in µs.
    static func intervalPercentiles(_ paints: [Int64], _ shares: [Double]) -> [Double] {
        let intervals = zip(paints.dropFirst(), paints).map { Double($0 - $1) / 1000 }.sorted()
        return shares.map { p in intervals.isEmpty ? 0 : intervals[min(intervals.count - 1, Int(Double(intervals.count) * p))] }
    }

    /// Prints "`label` {json}" to stderr, keys sorted.
    static func report(_ label: String, _ result: [String: Any]) {
        let json = (try? JSONSerialization.data(withJSONObject: result, options: [.sortedKeys]))
            .map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        FileHandle.standardError.write(Data("\(label) \(json)\n".utf8))
    }
}

/// The window's paint times, in µs of the main loop's clock, kept from `follow(_:)` on.
@MainActor
final class PaintLog {
    private(set) var times: [Int64] = []

    func follow(_ window: Window) {
        window.onAfterPaint { [weak self] in
            self?.times.append(MainLoop.monotonicMicroseconds)
            return self != nil
        }
    }

    func restart() { times = [] }

    /// How many frames since the restart, and their intervals' median, 95th percentile and longest (ms).
    var figures: [String: Double] {
        let frames = FrameStats.intervalPercentiles(times, [0.5, 0.95, 1.0])
        return ["frames": Double(times.count), "frame_interval_p50_ms": frames[0], "frame_interval_p95_ms": frames[1],
                "frame_interval_max_ms": frames[2]]
    }
}
