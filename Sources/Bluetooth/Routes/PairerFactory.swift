// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Localization

/// Makes the pairer a source allows.
public enum PairerFactory {
    /// BlueZ's pairing for `bluez` and `auto` (through the bus the scanner shares), else a pairer
    /// that says why `source` cannot pair.
    public static func make(_ source: ScanSource, bus: BlueZBus? = nil,
                            log: @escaping @Sendable (String) -> Void = { _ in }) -> DevicePairer {
        switch source {
        case .bluez(let adapter):
            return BlueZPairer(bus: bus ?? BlueZBus(), adapter: adapter, log: log)
        case .auto:
            return BlueZPairer(bus: bus ?? BlueZBus(), log: log)
        case .h4Unix, .h4TCP, .h4Serial, .hci:
            return UnavailablePairer(reason: L10n.tr(
                "Pairing through a direct adapter link is not available yet. Use the BlueZ source (--source bluez) to pair."))
        case .btsnoop:
            return UnavailablePairer(reason: L10n.tr("A replayed capture cannot pair with devices."))
        case .demo:
            return UnavailablePairer(reason: L10n.tr("The demo’s devices cannot pair."))
        }
    }
}
