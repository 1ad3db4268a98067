// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import Localization

/// The span a small plot draws: never narrower than its quantity's own scale of change, so a
/// steady value draws a flat line and a few dB of noise stay small, not full-height zigzags.
public enum PlotAxis {
    /// A signal plot spans at least this many dB.
    public static let signalSpan = 20.0

    /// From `low` to `high`, widened about its middle to `minimumSpan`, moved inside `limits`
    /// where it fits there, and never cutting off a figure.
    public static func range(low: Double, high: Double, minimumSpan: Double,
                             within limits: ClosedRange<Double>? = nil) -> ClosedRange<Double> {
        let span = max(high - low, minimumSpan)
        var bottom = (low + high) / 2 - span / 2
        var top = bottom + span
        if let limits {
            if bottom < limits.lowerBound { top += limits.lowerBound - bottom; bottom = limits.lowerBound }
            if top > limits.upperBound { bottom -= top - limits.upperBound; top = limits.upperBound }
            // Shifting by a difference leaves a rounding error, which must not show as "−1 %".
            bottom = max(bottom, limits.lowerBound)
        }
        return min(bottom, low)...max(top, high)
    }

    /// A sensor reading's span: a percentage from 0 to 100 %, others by the size of change that
    /// means something for their unit (2 °C, 10 hPa, 200 ppm), else a tenth of the figure.
    public static func range(low: Double, high: Double, of quantity: Quantity) -> ClosedRange<Double> {
        let axis = unsnapped(low: low, high: high, of: quantity)
        // Whole numbers at the edges where the span allows: "23 °C" over "20 °C", not "22.40 °C".
        guard axis.upperBound - axis.lowerBound >= 2 else { return axis }
        return axis.lowerBound.rounded(.down)...axis.upperBound.rounded(.up)
    }

    private static func unsnapped(low: Double, high: Double, of quantity: Quantity) -> ClosedRange<Double> {
        switch quantity.unit {
        case "%": return range(low: low, high: high, minimumSpan: 100, within: 0...100)
        case "°C": return range(low: low, high: high, minimumSpan: 2)
        case "hPa": return range(low: low, high: high, minimumSpan: 10)
        case "ppm": return range(low: low, high: high, minimumSpan: 200)
        case "V": return range(low: low, high: high, minimumSpan: 0.2)
        case "dBm": return signal(low: low, high: high)
        default: return range(low: low, high: high, minimumSpan: max(abs(high + low) / 2 * 0.1, 1))
        }
    }

    /// A signal's span, dBm.
    public static func signal(low: Double, high: Double) -> ClosedRange<Double> {
        range(low: low, high: high, minimumSpan: signalSpan)
    }

    // MARK: Time

    /// A history plot's time axis: the moments at its left edge, its middle and its right edge
    /// (now), and how each is written.
    public struct TimeAxis: Equatable, Sendable {
        public let start: Date
        public let end: Date
        public let labels: [String]

        /// Where `time` falls across the plot, 0 at the left edge and 1 at now.
        public func position(of time: Date) -> Double {
            let span = end.timeIntervalSince(start)
            return span > 0 ? min(max(time.timeIntervalSince(start) / span, 0), 1) : 1
        }
    }

    /// The spans a history plot may cover: each half a whole number of minutes, so the middle
    /// is a moment the locale's time can say, up to a week.
    static let timeSpans: [TimeInterval] = [120, 240, 600, 1200, 1800, 3600, 7200, 14_400, 21_600, 43_200, 86_400,
                                            172_800, 345_600, 518_400, 604_800]

    /// The axis of a plot ending `now` whose readings go back `covering` seconds: the shortest
    /// span that holds them, never beyond `period`. Moments within a day read as times of day
    /// ("14:09"), a day's as the weekday and time ("Mo., 14:09"), longer spans' as the date
    /// ("22. Nov."), each true to what it says.
    public static func time(now: Date, covering: TimeInterval, period: TimeInterval) -> TimeAxis {
        let span = timeSpans.first { $0 >= covering && $0 <= period } ?? period
        let start = now.addingTimeInterval(-span)
        let moments = [start, now.addingTimeInterval(-span / 2), now]
        let labels = moments.map { moment in
            span > 86_400 ? Formats.dayAndMonth(moment) : span == 86_400 ? Formats.weekdayTime(moment) : Formats.time(moment)
        }
        return TimeAxis(start: start, end: now, labels: labels)
    }
}
