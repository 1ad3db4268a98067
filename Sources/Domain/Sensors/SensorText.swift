// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation

/// Readings as machine text: a point for the decimals, as many places as the format resolves.
public enum SensorText {
    /// "25.06", "48", "-7.5".
    public static func number(_ reading: SensorReading) -> String {
        String(format: "%.\(max(0, min(reading.decimals, 9)))f", locale: Locale(identifier: "en_US_POSIX"), reading.value)
    }
}
