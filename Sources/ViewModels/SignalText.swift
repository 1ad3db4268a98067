// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Localization

/// Signal figures as users read them.
public enum SignalText {
    /// "−58 dBm" with a real minus sign, localized.
    public static func dBm(_ value: Int) -> String {
        L10n.format("{} dBm", Formats.number(value))
    }
}
