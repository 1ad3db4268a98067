// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Bluetooth
import DeviceLinks
import Domain
import Foundation
import HomeServices
import GtkKit
import Localization
import Persistence
import SecurityToolbox
import ViewModels
import Views

/// Wires the application together: options, settings, window and pages.
@MainActor
public final class FavBlueApp {
    // MARK: Owned
    /// Where no session bus exists (a bare X server, a kiosk), FavBlue runs as an instance of
    /// its own rather than have GLib start a bus only to learn that it is the only one.
    public static let hasSessionBus = SessionBus.exists()
    let application = Application(id: AppInfo.id, unique: hasSessionBus)
    var settings: Settings?
    var window: MainWindow?
    private var store: Store?
    /// Where favorites' signal and sensor history go this session (in memory in the demo).
    var history: SessionHistory?
    private var awaitingStore = false
    /// The store, being opened while GTK starts.
    var storeOpening: StoreOpening?
    var favorites: Favorites?
    private var favoritesPage: FavoritesViewModel?
    var scanner: ScannerViewModel?
    var live: LiveDevices?
    var hidden: HiddenDevices?
    private var identities: Identities?
    /// Keys of encrypted sensors, from the keyring and Key….
    private var sensorKeys: SensorKeyBook?
    /// Keeps the HCI route's keyring in step with the bonds.
    private var identityWatch: ObservationToken?
    private var policy: ScanPolicy?
    var source: ScanSource = .auto
    /// What this computer's adapter is called beside the other sources, and those sources.
    private var sourceName: String?
    private var listeners: [NamedSource] = []
    /// For the benchmarks' own build of the app (favblue-bench), which the installed program
    /// lacks: called once, with the parts they drive, when the first window is shown.
    public var onShown: ((Shown) -> Void)?
    /// The H4 link the scanner and the connector share; nil for other sources.
    var link: HCILink?
    /// The BlueZ connection the scanner, the connector and the alias writer share (`bluez`, `auto`).
    var bus: BlueZBus?
    var sessions: ChatSessions?
    /// The connected device's GATT tree and values.
    var browser: GATTBrowser?
    /// The Device Manager of the connected device's page.
    private var deviceManager: DeviceManager?
    var pairing: Pairing?
    private var pairingDialogs: PairingDialogs?
    private var presenceAlerts: PresenceAlertsWatch?
    private var readingLimits: ReadingLimitsWatch?
    var trackerGuard: TrackerGuard?
    private var nicknames: NicknameSharing?
    /// Act as a Device: what FavBlue advertises and serves.
    var peripheral: PeripheralRole?
    var shutDownDone = false
    /// Every scanner writes into it; the Scanner's Record toggle opens and closes its file.
    private let recorder = BtsnoopRecorder()

    // MARK: Options
    var splashOverride: Int?
    var storageOverride: String?
    var sourceOverride: [String] = []

    let resources: AppResources

    init(resources: AppResources) {
        self.resources = resources
        Self.declareOptions(on: application)
        application.onLocalOptions { [weak self] options in self?.handle(options) }
        // A launch that turns out second lets go of the database at once: the first may be
        // waiting for it, and answers the second's activation only after that.
        application.onRegistered { [weak self] isRemote in
            if isRemote { self?.abandonStore() }
        }
        application.onStartup { [weak self] in self?.startup() }
        application.onActivate { [weak self] in self?.activate() }
        // However the app ends (Ctrl+Q, the last window closed), a recording ends with a complete file.
        application.onShutdown { [weak self] in self?.shutDown() }
    }

    func run(arguments: [String]) -> Int32 {
        application.run(arguments: arguments)
    }

    private func startup() {
        StartupTrace.mark("gapplication-startup")
        Style.preloadIconTheme()
        loadSettings()
        if settings == nil {
            printError(L10n.tr("Settings schema not found; using defaults. Reinstall FavBlue to remember settings."))
        }
        application.addAction("quit", accels: ["<Primary>q"]) { [weak self] in self?.quit() }
        // A notification's click: the device's page, in the window brought forward.
        application.addTargetedAction("show-device") { [weak self] key in
            guard let self, let window = self.window, let id = try? DeviceID(storageKey: key) else { return }
            window.window.present()
            window.showDetail(of: id)
        }
        // A session logging out sends SIGTERM: quit as Ctrl+Q does, so nothing waiting is lost.
        for signal in [SIGTERM, SIGINT, SIGHUP] { application.onUnixSignal(signal) { [weak self] in self?.quit() } }
        MainWindow.installAccelerators(on: application)
    }

    private func activate() {
        if let window {
            // A second launch lands here: bring the existing window forward.
            window.window.present()
            return
        }
        // A second launch's activation while the store is still awaited: the window comes once.
        guard !awaitingStore else { return }
        StartupTrace.mark("activate")
        awaitingStore = true
        // No window yet holds the application open while the store may be waited for.
        application.hold()
        openStore { [weak self] store in
            guard let self else { return }
            self.awaitingStore = false
            self.build(with: store)
            self.application.release()
        }
    }

    private func build(with store: Store) {
        self.store = store
        StartupTrace.mark("store")
        let (primary, listeners) = AppSources.parse(sourceOverride, setting: settings?.string("source"))
        (source, sourceName) = (primary.source, primary.name)
        self.listeners = sourceOverride.isEmpty ? AppSources.listening(AppSources.kept(settings)) : listeners
        let demo = DemoCapture.path()
        let recorder = self.recorder
        let log = Self.log
        // One toolbox for the link's database hash and the Security Manager.
        let crypto = ToolboxPairingCrypto()
        link = ScannerFactory.link(for: source, record: recorder, crypto: crypto, log: log)
        if let attributes = link?.attributes { Self.keepServedClients(of: attributes, in: store.bonds, log: log) }
        bus = ScannerFactory.bus(for: source)
        let history = SessionHistory(store: store, demo: source == .demo)
        self.history = history
        let live = LiveDevices(makeScanner: { [weak self] mode in
            // The demo goes on until the user leaves it: "Replay finished" meant nothing to someone trying it.
            AppSources.scanner(primary: ScannerFactory.make(self?.source ?? .auto, demoCapture: demo, mode: mode, record: recorder,
                                                            link: self?.link, bus: self?.bus, loopDemo: true,
                                                            sealer: SensorKeyring(), log: log),
                               name: self?.sourceName, listeners: self?.listeners ?? [], demo: self?.source == .demo, log: log)
        }, sightings: history.sightings, recorder: recorder)
        AppSources.listen(live, to: { [weak self] in (self?.listeners ?? [], self?.sourceName, self?.source == .demo) },
                          demoCapture: demo, log: log)
        // The demo shows its own favorites, kept in memory: the user's stay as they were.
        let favorites = source == .demo
            ? Favorites(useCases: Self.demoFavorites(), demo: true, live: live, sightings: history.sightings)
            : Favorites(useCases: FavoritesUseCases(repository: store.favorites), live: live, sightings: history.sightings)
        self.favorites = favorites
        favoritesPage = FavoritesViewModel(favorites: favorites, notices: store.notices)
        // Favorites' readings are kept, so their detail plot and history outlive the session.
        live.keepsSightings = { [weak favorites] id in favorites?.isFavorite(id) ?? false }
        live.readingsStore = history.readings
        self.live = live
        // Who each private address belongs to, from the keys kept: resolved as reports come in.
        let identities = Identities(hashing: AESAddressHashing(), repository: store.bonds)
        live.identities = identities
        self.identities = identities
        let sensorKeys = SensorKeyBook(vault: SensorKeyKeyring(), keys: LiveSensorKeyring(), live: live)
        sensorKeys.onFailure = { log("sensor keys: \($0)") }
        self.sensorKeys = sensorKeys
        Task { [weak self] in
            do {
                let unreadable = try await identities.load()
                guard !unreadable.isEmpty else { return }
                let text = L10n.plural("{} stored key could not be read. It is kept in the database, unused.",
                                       "{} stored keys could not be read. They are kept in the database, unused.", unreadable.count)
                self?.printError(text)
                self?.window?.toast(text, button: nil, action: nil)
            } catch {
                self?.printError(L10n.format("The stored keys could not be read: {}", "\(error)"))
            }
        }
        presenceAlerts = PresenceAlertsWatch(live: live, favorites: favorites, notifier: AppNotifier(application: application))
        let limits = ReadingLimitsWatch(live: live, favorites: favorites, notifier: AppNotifier(application: application))
        limits.describe = { $0.quantity.kind == .measurement ? ReadingText.value($0) : ReadingText.text($0) }
        limits.describeLimit = { ReadingText.limit($0, of: $1) }
        limits.name = { ReadingText.name($0) }
        readingLimits = limits
        let trackerGuard = Self.makeTrackerGuard(live: live, favorites: favorites, store: history.trackers, application: application, settings: settings)
        self.trackerGuard = trackerGuard
        // The demo's AirTag has been with the user for two hours before the demo starts.
        if source == .demo { trackerGuard.recall(DemoTracker.story(before: Date())) }
        // What the demo hides stays in the demo, as its favorites do.
        let hidden = HiddenDevices(repository: source == .demo ? InMemoryHiddenDevicesRepository() : store.hidden, favorites: favorites)
        hidden.onProblem = { [weak self] text in self?.window?.toast(text, button: nil, action: nil) }
        self.hidden = hidden
        Task { await hidden.load() }
        let policy = ScanPolicy(live: live, settings: settings.map(ScannerSettings.loadScan) ?? ScanSettings())
        self.policy = policy
        let scanner = ScannerViewModel(live: live, policy: policy, favorites: favorites, hidden: hidden)
        if let settings {
            scanner.preferences = ScannerSettings.load(settings)
            scanner.onPreferencesChange = { ScannerSettings.save($0, to: settings) }
            policy.onChange = { ScannerSettings.saveScan($0, to: settings) }
        }
        self.scanner = scanner
        let connector = ConnectorFactory.make(source, link: link, bus: bus, addresses: live.heard, log: log)
        // The demo's chats stay in the demo, as its favorites do.
        let chats: ChatRepository = source == .demo ? InMemoryChatRepository() : store.chats
        let sessions = ChatSessions(connector: connector, chats: chats)
        sessions.names = deviceName
        sessions.onEnded = { [weak self] text, unreadFrom in
            guard let self, let window = self.window else { return }
            guard let unreadFrom else {
                // Said once: the device's own page, on screen, says it under Connect.
                if let shown = (window.visiblePage as? DeviceDetailPage)?.device, shown == self.sessions?.lastEnded?.device { return }
                return window.toast(text, button: nil, action: nil)
            }
            // Left unread: the notice opens the chat, which reads disconnected.
            window.toast(text, button: L10n.tr("_Open Chat"), action: { [weak window] in window?.showChat(with: unreadFrom) })
        }
        sessions.onStoreProblem = { [weak self] text in self?.window?.toast(text, button: nil, action: nil) }
        self.sessions = sessions
        // The names given to a demo device's characteristics stay in the demo.
        let browser = GATTBrowser(sessions: sessions, labels: source == .demo ? InMemoryCharacteristicLabelsRepository() : store.labels)
        browser.onBattery = { [weak live] device, percent in live?.noteBattery(percent, of: device) }
        sessions.onSignal = { [weak live] device, rssi, time in live?.noteSignal(rssi, of: device, at: time) }
        self.browser = browser
        live.keepsListed = { [weak sessions] id in sessions?.state.device == id }
        // The HCI route's Security Manager reads the bonds Identities owns, and keeps new ones there.
        let keyring = HCIKeyring(hashing: AESAddressHashing(), local: LocalIdentity(random: crypto.random(22)))
        let identityKept = Task {
            // FavBlue's identity on the HCI route is made once, so bonded devices know it after a restart.
            if let kept = try? await store.bonds.localIdentity(orKeep: keyring.local) { keyring.setLocal(kept) }
        }
        identityWatch = identities.observe { [weak identities] in keyring.set(identities?.bonds ?? []) }
        let security = HCISecurity(crypto: crypto, keyring: keyring,
                                   keep: { bond in try await identities.keep(bond) },
                                   forget: { identity in try await identities.forget(identity) })
        let pairer = PairerFactory.make(source, bus: bus, connector: connector, security: security, log: log)
        let pairing = Pairing(pairer: pairer, mover: store.mover)
        pairing.beforeMove = { [weak sessions, weak live] _ in
            await sessions?.flush()
            await live?.pendingWrites?.value
        }
        pairing.onMoved = { [weak favorites, weak hidden, weak sessions, weak live] old, identity in
            sessions?.move(old, to: identity)
            live?.move(old, to: identity)
            await favorites?.load()
            await hidden?.load()
        }
        pairing.onNotice = { [weak self] text in self?.window?.toast(text, button: nil, action: nil) }
        self.pairing = pairing
        let peripheral = Self.makePeripheral(source: source, link: link, bus: bus, security: security, store: store, pairing: pairing,
                                             after: identityKept, log: log)
        peripheral.onStoreProblem = { [weak self] text in self?.window?.toast(text, button: nil, action: nil) }
        self.peripheral = peripheral
        let nicknames = NicknameSharing(writer: bus.map { BlueZAliasWriter(bus: $0, adapter: source.bluezAdapter) },
                                        favorites: favorites, isOn: settings?.bool("share-nicknames") ?? false)
        nicknames.onChange = { [weak settings] on in settings?.set("share-nicknames", bool: on) }
        nicknames.onProblem = { [weak self] text in self?.window?.toast(text, button: nil, action: nil) }
        self.nicknames = nicknames
        let splashMs = splashOverride ?? Int(settings?.int("splash-duration-ms") ?? 2000)
        let window = MainWindow(application: application, settings: settings,
                                splash: SplashViewModel(durationMs: splashMs),
                                pages: makePages())
        self.window = window
        pairingDialogs = PairingDialogs(model: PairingPromptViewModel(pairing: pairing, name: deviceName), navigator: window)
        StartupTrace.mark("window-built")
        if StartupTrace.enabled {
            StartupTrace.reportFirstFrame(of: window.window)
        }
        window.present()
        StartupTrace.mark("presented")
        // The demo's home shows its favorites heard, with their readings, as the README's first
        // picture does; elsewhere the Scanner starts the scan.
        if source == .demo { window.window.onAfterPaint { [weak scanner] in scanner?.start(); return false } }
        // Once start-up has settled (the first frame, the store, the first scan results).
        MainLoop.after(seconds: 3) {
            SliceAllocator.giveBackFreedMemory()
            SliceAllocator.giveBackStartupCode()
        }
        // The icon after the first frame: realizing a window draws its icon for X11, which held
        // the first frame by some 10 ms. Later windows take the default; this one is told.
        window.window.onAfterPaint { [weak window] in
            Window.setDefaultIconName(AppInfo.id)
            window?.window.setIconName(AppInfo.id)
            return false
        }
        onShown?(Shown(window: window, scanner: scanner, chats: chats, sessions: sessions, browser: browser,
                       deviceManager: deviceManager!, peripheral: peripheral, brokerMessages: { AppSources.brokerMessages }, quit: { [weak self] in self?.quit() }))
    }

    private func makePages() -> PageFactory {
        let favorites = self.favorites!
        let favoritesPage = self.favoritesPage!
        let scanner = self.scanner!
        let live = self.live!
        let identities = self.identities
        let sensorKeys = self.sensorKeys
        let hidden = HiddenDevicesViewModel(devices: self.hidden!)
        let policy = self.policy!
        let scanning = ScanSettingsViewModel(policy: policy)
        let sightings = history?.sightings
        let sessions = self.sessions!
        let pairing = self.pairing!
        let deviceName = self.deviceName
        let trackers = self.trackerGuard
        let pairingActions = PairingActionsViewModel(pairing: pairing, name: deviceName)
        let connection = ConnectionViewModel(sessions: sessions)
        let services = DeviceServicesViewModel(browser: browser!)
        let deviceManager = DeviceManager(sessions: sessions, browser: browser!)
        self.deviceManager = deviceManager
        let sound = TrackerSoundPlayer(sessions: sessions, browser: browser!)
        services.companyName = CompanyNames.name
        let nicknames = self.nicknames
        let settings = self.settings
        let role = self.peripheral!
        let acting = PeripheralViewModel(role: role, names: Self.attributeName, company: CompanyNames.name)
        let clone = DeviceCloneViewModel(browser: browser!, role: role, live: live, name: deviceName)
        let trackerAlerts = trackers.map { Self.trackerAlertsSetting($0, settings: settings) }
        let sources = AppSources.model(settings: settings, primary: source, fromCommandLine: !sourceOverride.isEmpty,
                                       live: live, favorites: favorites, own: sourceName) { [weak self] listening in
            self?.listeners = listening
            self?.live?.restart()
        }
        services.showsIdentifiers = settings?.bool("show-identifiers") ?? false
        services.onShowsIdentifiersChange = { [weak settings] on in settings?.set("show-identifiers", bool: on) }
        let chatSetting = settings.map { settings in
            ChatRetentionSetting(load: { [weak self] in self?.loadChatRetention() ?? .standard }, save: { retention in
                settings.set("chat-retention-days", uint: UInt32(retention.days ?? 0))
                settings.set("chat-messages-per-device", uint: UInt32(retention.maxPerDevice))
            })
        }
        return PageFactory(
            favorites: { navigator in FavoritesPage(navigator: navigator, model: favoritesPage, pairing: pairingActions) },
            scanner: { [weak self] navigator in
                ScannerPage(navigator: navigator, model: scanner, favorites: favoritesPage, hidden: hidden, pairing: pairingActions,
                            trackerAlerts: trackerAlerts,
                            tryDemo: { [weak self] in self?.tryTheDemo(sources: sources) })
            },
            detail: { navigator, device in
                DeviceDetailPage(navigator: navigator,
                                 model: DeviceDetailViewModel(id: device, favorites: favorites, live: live, sightings: sightings,
                                                              policy: policy, identities: identities, pairing: pairing,
                                                              sensorKeys: sensorKeys),
                                 favorites: favoritesPage, hidden: hidden, connection: connection,
                                 pairing: DevicePairingViewModel(device: device, pairing: pairing, name: deviceName),
                                 services: services, tracker: trackers.map { TrackerViewModel(device: device, trackers: $0, sound: sound) },
                                 clone: clone, manager: DeviceManagerViewModel(device: device, manager: deviceManager, pair: { device in
                                     if case .success = await pairing.pair(device) { return true } else { return false }
                                 }, inflate: Inflate.raw) { [weak self] in
                                     self?.source == .demo ? DemoCapture.firmwareFolder() : nil
                                 })
            },
            preferences: { parent, area in PreferencesWindow.present(parent: parent, scanSettings: scanning, scanner: scanner, hidden: hidden, chat: chatSetting,
                                                                         nicknames: nicknames, services: services,
                                                                         trackers: trackerAlerts, sources: sources, adapter: acting, showing: area) },
            exportDevices: { navigator, scope in
                ExportDialogs.exportDevices(navigator: navigator, scope: scope, scanner: scanner, favorites: favoritesPage)
            },
            chat: { navigator, device in ChatPage(navigator: navigator, model: ChatViewModel(device: device, sessions: sessions)) },
            connectionBar: { navigator in ConnectionBar(navigator: navigator, model: connection) },
            peripheral: { navigator in
                PeripheralPage(navigator: navigator, model: acting, openAdvertisement: { [weak navigator] id in navigator?.showAdvertisement(id) })
            },
            advertisement: { navigator, id in
                AdvertisementPage(navigator: navigator, model: AdvertisementEditorViewModel(role: role, id: id, company: CompanyNames.name,
                                                                                           companies: CompanyNames.all))
            },
            server: { navigator in ServerPage(navigator: navigator, model: ServerEditorViewModel(role: role, names: Self.attributeName)) },
            networkDevice: { navigator, target, typed in
                NetworkDevicePage(navigator: navigator, model: DeviceManagerViewModel(device: nil, manager: DeviceManager(name: typed) { () throws(SMPProblem) -> SMPTransport in
                    if let baud = target.baud { return try SerialSMPTransport(path: target.host, baud: baud) }
                    return try UDPSMPTransport(host: target.host, port: target.port)
                }, inflate: Inflate.raw))
            })
    }

    /// The one name rule (nickname, advertised name, address) for the owners and models that name a device.
    private var deviceName: @MainActor (DeviceID) -> String {
        let favorites = self.favorites
        return { [weak favorites] id in favorites?.name(of: id) ?? id.address }
    }
}
