// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Bluetooth
import Domain
import Foundation
import Localization

/// The sources the app scans from: the first (`--source`, else the setting) is this
/// computer's and connects; each further `--source` (a board in another room, a broker's
/// gateways) only listens, and its reports name it.
@MainActor
enum AppSources {
    /// The scanner and connector's source, and the listeners beside it. A source that cannot be
    /// read is said and left out; with none left, `auto`.
    static func parse(_ texts: [String], setting: String?) -> (primary: NamedSource, listeners: [NamedSource]) {
        var named: [NamedSource] = []
        for text in texts.isEmpty ? [setting ?? "auto"] : texts {
            do { named.append(try NamedSource(parsing: text)) } catch {
                FileHandle.standardError.write(Data("favblue: \(error.message)\n".utf8))
            }
        }
        return (named.first ?? NamedSource(name: nil, source: .auto), Array(named.dropFirst()))
    }

    /// `primary` alone, or all of them as one scanner whose reports say which heard them.
    static func scanner(primary: DeviceScanner, name: String?, listeners: [NamedSource], demoCapture: String?,
                        log: @escaping @Sendable (String) -> Void) -> DeviceScanner {
        guard !listeners.isEmpty else { return primary }
        let own = MultiScanner.Part(name: name ?? L10n.tr("This Computer"), scanner: primary)
        let others = listeners.map { listener in
            MultiScanner.Part(name: listener.name ?? listener.source.description,
                              scanner: ScannerFactory.make(listener.source, demoCapture: demoCapture, log: log))
        }
        return MultiScanner([own] + others, log: log)
    }
}
