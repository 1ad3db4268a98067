// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain

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
}
