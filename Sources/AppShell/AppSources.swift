// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Bluetooth
import Domain
import Foundation
import HomeServices
import GtkKit
import Localization
import SecurityToolbox
import ViewModels

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

    /// This computer's radio: `primary` alone, or, beside other sources, as a source whose
    /// reports say it heard them.
    static func scanner(primary: DeviceScanner, name: String?, listeners: [NamedSource], demo: Bool = false,
                        log: @escaping @Sendable (String) -> Void) -> DeviceScanner {
        guard !listeners.isEmpty || demo else { return primary }
        let own = MultiScanner([MultiScanner.Part(name: name ?? L10n.tr("This Computer"), scanner: primary)], log: log)
        current = own
        return own
    }

    /// Makes `live` listen to the other sources `current` names (with this computer's source's
    /// name), now and whenever it restarts.
    /// The demo has a second room, its kitchen's gateway (`DemoGateway`).
    static func listen(_ live: LiveDevices, to current: @escaping () -> (listeners: [NamedSource], own: String?, demo: Bool),
                       demoCapture: String?, log: @escaping @Sendable (String) -> Void) {
        live.makeListener = { [weak live] in
            let (listeners, own, demo) = current()
            live?.ownSource = listeners.isEmpty && !demo ? nil : own ?? L10n.tr("This Computer")
            return listener(listeners, demo: demo, demoCapture: demoCapture, log: log)
        }
        live.listen()
    }

    /// The other sources as one scanner whose reports say which heard them: they listen for as
    /// long as the app is open, apart from this computer's scans (`LiveDevices.listen`).
    static func listener(_ listeners: [NamedSource], demo: Bool = false, demoCapture: String?,
                         log: @escaping @Sendable (String) -> Void) -> DeviceScanner? {
        guard !listeners.isEmpty || demo else { return nil }
        var parts = listeners.map { listener in
            MultiScanner.Part(name: listener.name ?? listener.source.description,
                              scanner: ScannerFactory.make(listener.source, demoCapture: demoCapture, sealer: SensorKeyring(), log: log))
        }
        // Translators: the room of the demo's gateway, a name as the user could give one.
        if demo { parts.append(MultiScanner.Part(name: L10n.ctx("demo room", "Kitchen"), scanner: DemoGateway(sealer: SensorKeyring()))) }
        let several = MultiScanner(parts, ignoring: sharing.map { [$0.gateway] } ?? [], log: log)
        others = several
        return several
    }
}

extension AppSources {
    /// This computer's source and the others, for Preferences to say how each is doing.
    private static weak var current: MultiScanner?
    private static weak var others: MultiScanner?

    /// How each source is doing: this computer's first, then the others.
    static var statuses: [SourceStatus] { (current?.sourceStatuses ?? []) + (others?.sourceStatuses ?? []) }

    /// Messages the brokers took in this run so far.
    static var brokerMessages: Int { statuses.reduce(0) { $0 + $1.messages } }

    /// The other sources kept in settings, on or off.
    static func kept(_ settings: Settings?) -> [SourcesViewModel.Entry] {
        settings?.strings("other-sources").compactMap(SourcesViewModel.Entry.init(stored:)) ?? []
    }

    /// The kept sources switched on, as the scanner takes them.
    static func listening(_ entries: [SourcesViewModel.Entry]) -> [NamedSource] {
        entries.filter(\.isOn).compactMap(\.source)
    }

    /// Preferences → Sources. A change is kept in settings and, unless the command line named
    /// the sources, `apply` restarts the scan with them. Share with the House starts and
    /// stops publishing to the first broker switched on.
    static func model(settings: Settings?, primary: ScanSource, fromCommandLine: Bool, live: LiveDevices, favorites: Favorites,
                      own: String?, apply: @escaping ([NamedSource]) -> Void) -> SourcesViewModel {
        let model = SourcesViewModel(entries: kept(settings), primary: primary, fromCommandLine: fromCommandLine,
                                     statuses: { statuses },
                                     keepPassword: { broker, password in try BrokerKeyring.store(password, for: broker) },
                                     isSharing: settings?.bool("share-with-broker") ?? false, gatewayName: gatewayName(settings),
                                     roomNames: SourcesViewModel.roomNames(stored: settings?.strings("room-names") ?? []))
        live.roomNames = model.roomNames
        model.heardRooms = { [weak live] in live?.heardRooms ?? [] }
        model.onRoomNamesChange = { [weak settings, weak live] names in
            settings?.set("room-names", strings: SourcesViewModel.stored(roomNames: names))
            live?.roomNames = names
        }
        let reshare = { [weak model] in
            sharing?.stop()
            sharing = nil
            guard let model, model.isSharing, let broker = model.sharingBroker else { return }
            sharing = BusSharing(broker: broker, gateway: model.gatewayName, live: live, favorites: favorites,
                                 own: own ?? L10n.tr("This Computer"), log: FavBlueApp.log)
        }
        model.onChange = { [weak settings] entries in
            settings?.set("other-sources", strings: entries.map(\.stored))
            if !fromCommandLine { apply(listening(entries)) }
            reshare()
        }
        model.onSharingChange = { [weak settings] on in
            settings?.set("share-with-broker", bool: on)
            reshare()
            // The scan starts again, so that the reports this computer publishes are not read back.
            if !fromCommandLine { apply(listening(kept(settings))) }
        }
        reshare()
        return model
    }

    /// Publishing to the house's broker, while Share with the House is on.
    private static var sharing: BusSharing?

    /// The name this computer publishes under: the setting, else its host name.
    static func gatewayName(_ settings: Settings?) -> String {
        let chosen = settings?.string("gateway-name") ?? ""
        if !chosen.isEmpty { return chosen }
        return ProcessInfo.processInfo.hostName.split(separator: ".").first.map(String.init) ?? "favblue"
    }
}
