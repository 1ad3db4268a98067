// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation

/// Readings as machine text: a point for the decimals, as many places as the format resolves.
public enum SensorText {
    /// "25.06", "48", "-7.5". Written from the scaled integer: a locale's number formatter costs
    /// more than the decoding, and an export writes thousands.
    public static func number(_ reading: SensorReading) -> String {
        let places = max(0, min(reading.decimals, 9))
        var scale: UInt64 = 1
        for _ in 0..<places { scale *= 10 }
        let scaled = (reading.value * Double(scale)).rounded()
        guard scaled.isFinite, scaled.magnitude < 9e15 else {
            return String(format: "%.\(places)f", locale: Locale(identifier: "en_US_POSIX"), reading.value)
        }
        let magnitude = UInt64(scaled.magnitude)
        var text = scaled < 0 && magnitude != 0 ? "-" : ""
        text += String(magnitude / scale)
        if places > 0 {
            let fraction = String(magnitude % scale)
            text += "." + String(repeating: "0", count: places - fraction.count) + fraction
        }
        return text
    }
}
