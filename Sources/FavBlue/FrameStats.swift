// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation

/// What the benchmarks print: frame intervals from paint times, and one JSON line.
enum FrameStats {
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
