// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import GtkKit
import Localization
import ViewModels

/// The Scanner: devices nearby, found as soon as the page opens.
@MainActor
public final class ScannerPage: Page {
    // MARK: Widgets
    private let frame: PageFrame
    private let content = Stack(transition: .crossfade, durationMs: 150)
    private let waiting: StatusPage
    private let problem: StatusPage
    /// The problem page's main button: Try Again, or Turn On when Bluetooth is off.
    private let retry: Button
    private let spinner = Spinner()
    private let toggle: Button
    private let searchToggle: ToggleButton
    private let viewMenu: MenuButton
    /// Search and View Options in one menu, for narrow windows.
    private let narrowMenu: MenuButton
    private let searchBar: SearchBar
    private let noMatches: StatusPage
    private let noNew: StatusPage
    private var failureBanner: Banner!
    private var list: KeyedListView<DeviceRowView>!
    private var controls: DeviceListControls!
    private var sortAction: Action?
    private var favoritesOnlyAction: Action?
    private var hideUnnamedAction: Action?
    private var onlyNewAction: Action?
    private var recordAction: Action?

    // MARK: Borrowed
    private weak var navigator: Navigator?
    private let model: ScannerViewModel
    private let favorites: FavoritesViewModel
    private let hidden: HiddenDevicesViewModel
    private let tryDemo: (() -> Void)?

    // MARK: Owned
    private var token: ObservationToken?
    private let rowLayout = DeviceRowLayout()
    private var shown: [String: ScannerViewModel.Row] = [:]
    private var pointerInList = false { didSet { model.reorderAllowed = !pointerInList && !focusInList } }
    private var focusInList = false { didSet { model.reorderAllowed = !pointerInList && !focusInList } }
    private var isNarrow = false

    /// Creates the page; `tryDemo` switches the source to the shipped demo capture.
    public init(navigator: Navigator, model: ScannerViewModel, favorites: FavoritesViewModel,
                hidden: HiddenDevicesViewModel, tryDemo: (() -> Void)?) {
        self.navigator = navigator
        self.model = model
        self.favorites = favorites
        self.hidden = hidden
        self.tryDemo = tryDemo
        frame = PageFrame(title: L10n.tr("Scanner"), backButton: true)
        toggle = Button(icon: "media-playback-stop-symbolic", accessibleName: L10n.tr("Stop Scanning"))
        frame.header.packEnd(toggle)
        spinner.accessibleLabel(L10n.ctx("Status", "Scanning"))
        frame.header.packEnd(spinner)
        let viewSections: [(String?, [(String, String)])] = [
            (L10n.tr("Sort By"), [(L10n.tr("_Signal Strength"), "scanner.sort::signal"),
                                  (L10n.tr("_Name"), "scanner.sort::name"),
                                  (L10n.tr("_Last Seen"), "scanner.sort::last-seen")]),
            (L10n.tr("Show"), [(L10n.tr("_Favorites Only"), "scanner.favorites-only"),
                               (L10n.tr("_Hide Unnamed Devices"), "scanner.hide-unnamed"),
                               (L10n.tr("_Only New Devices"), "scanner.only-new")]),
            (nil, [(L10n.tr("_Export Devices…"), "win.export-devices"),
                   (L10n.tr("_Record"), "scanner.record")]),
            (nil, [(L10n.tr("Scanner _Preferences"), "win.preferences")]),
        ]
        viewMenu = MenuButton(icon: "view-sort-descending-symbolic", accessibleName: L10n.tr("View Options"),
                              titledSections: viewSections)
        narrowMenu = MenuButton(icon: "view-more-symbolic", accessibleName: L10n.tr("Search and View Options"),
                                titledSections: [(nil, [(L10n.tr("Sea_rch Devices"), "scanner.search")])] + viewSections)
        narrowMenu.isVisible = false
        searchToggle = ToggleButton(icon: "system-search-symbolic", accessibleName: L10n.tr("Search Devices"))
        frame.header.packStart(searchToggle)
        frame.header.packEnd(viewMenu)
        frame.header.packEnd(narrowMenu)
        searchBar = SearchBar(accessibleName: L10n.tr("Search Devices"),
                              placeholder: L10n.tr("Name, nickname, address or company"))
        searchBar.bind(toggle: searchToggle)
        frame.root.append(searchBar)
        // Scanning stopped with devices listed: keep them, and say so above them.
        failureBanner = Banner(buttonLabel: L10n.tr("_Try Again"), onDismiss: { [weak model] in model?.recover() })
        frame.root.append(failureBanner.root)
        noMatches = StatusPage(icon: "system-search-symbolic", title: L10n.tr("No Matching Devices"),
                               description: L10n.tr("Devices nearby are hidden by the search or by the filters in View Options."))
        noNew = StatusPage(icon: "starred-symbolic", title: L10n.tr("No New Devices Yet"))
        let showAll = Button(label: L10n.tr("_Show All Devices"), mnemonic: true)
        showAll.css("pill").align(.center, .center)
        showAll.onClicked { [weak model] in model?.setOnlyNewDevices(false) }
        noNew.setChild(showAll)

        waiting = StatusPage(icon: "bluetooth-acquiring-symbolic", title: L10n.tr("Looking for devices…"),
                             description: L10n.tr("Devices appear here as soon as they are heard."))
        problem = StatusPage(icon: "bluetooth-disabled-symbolic", title: L10n.tr("Scanning Is Not Possible"))
        retry = Button(label: L10n.tr("_Try Again"), mnemonic: true)
        retry.css("pill", "suggested-action")
        let demo = Button(label: L10n.tr("Try the _Demo"), mnemonic: true)
        demo.css("pill")
        let buttons = Box(vertical: true, spacing: 12).append(retry, demo)
        buttons.align(.center, .center)
        problem.setChild(buttons)

        let pool = DeviceButtonPool(onHeart: { [weak self] in self?.toggleFavorite(key: $0, fromHeart: true) },
                                    onDetails: { [weak self] in self?.showDetails(key: $0) })
        list = KeyedListView(
            accessibleName: L10n.tr("Devices nearby"),
            makeRow: { [rowLayout] in
                let row = DeviceRowView(pool: pool, layout: rowLayout)
                return (row, row.root)
            },
            bind: { [weak self] row, key in self?.bind(row, key) },
            activate: { [weak self] key in self?.toggleFavorite(key: key, fromHeart: false) })
        controls = DeviceListControls(list: list, pool: pool) { [weak self] key in
            let isFavorite = self?.shown[key]?.isFavorite ?? false
            var sections = [[(isFavorite ? L10n.tr("_Remove from Favorites…") : L10n.tr("_Add to Favorites…"), "scanner.favorite::\(key)"),
                             (L10n.tr("_Details"), "scanner.details::\(key)")]]
            // A favorite cannot be hidden, so its menu does not offer it.
            if let id = try? DeviceID(storageKey: key), self?.hidden.canHide(id) == true {
                sections.append([(L10n.tr("_Hide Device"), "scanner.hide::\(key)")])
            }
            return sections
        }
        content.add(waiting, name: "waiting")
        content.add(problem, name: "problem")
        content.add(noMatches, name: "no-matches")
        content.add(noNew, name: "no-new")
        content.add(list.root, name: "list")
        frame.setContent(content)

        // Rows must not move under the pointer or the keyboard focus: reorder only while both are elsewhere.
        list.list.onPointerInside { [weak self] inside in self?.pointerInList = inside }
        list.list.onFocusInside { [weak self] inside in self?.focusInList = inside }

        toggle.onClicked { [weak self] in
            guard let self else { return }
            if self.model.isRunning { self.model.stop() } else { self.model.start() }
        }
        retry.onClicked { [weak model] in model?.recover() }
        demo.onClicked { [weak self] in self?.tryDemo?() }
        demo.isVisible = tryDemo != nil
        frame.root.onKeyPressed { [weak self] key, modifiers in
            guard let self else { return false }
            let ctrl = modifiers.contains(.control)
            if key == .f5 || (ctrl && key.lowercased == .letter("r")) {
                self.model.start()
                return true
            }
            if ctrl && key.lowercased == .letter("f") {
                self.openSearch()
                return true
            }
            return false
        }
        searchBar.onSearchChanged { [weak model] text in model?.searchText = text }
        searchBar.onModeChanged { [weak self] open in
            guard let self, !open else { return }
            self.searchBar.text = ""
            self.model.searchText = ""
        }
        installViewActions()
        token = model.observe { [weak self] in self?.render() }
        render()
    }

    public var root: Widget { frame.root }

    public func pageDidAppear() { model.start() }

    /// What the page shows: "waiting", "list", "no-matches" or "problem" (for tests).
    public var visibleContent: String? { content.visibleName }

    /// The explanation on the problem page, for tests.
    public var problemText: String { "\(problem.title)\n\(problem.details)" }

    public func pageWillDisappear() { model.leave() }

    public func adapt(narrow: Bool) {
        isNarrow = narrow
        rowLayout.isNarrow = narrow
        updateHeader()
    }

    /// Whether the header shows the narrow menu in place of Search and View Options (for tests).
    public var showsNarrowMenu: Bool { narrowMenu.isVisible }

    /// Opens the search bar with the keyboard in it; nothing to search while scanning is impossible.
    private func openSearch() {
        guard content.visibleName != "problem" else { return }
        searchBar.isSearching = true
        searchBar.entry.grabFocus()
    }

    public func consumeBack() -> Bool {
        guard searchBar.isSearching else { return false }
        searchBar.isSearching = false
        return true
    }

    /// Sorting and filters as menu actions, so the menu shows radio items and checks.
    private func installViewActions() {
        let group = ActionGroup(on: frame.root, prefix: "scanner")
        group.add("search") { [weak self] in
            // The menu gives focus back to its button as it closes; take it afterwards.
            Task { @MainActor [weak self] in self?.openSearch() }
        }
        let p = model.preferences
        sortAction = group.addChoice("sort", initial: p.sortOrder.rawValue) { [weak model] value in
            model?.sortOrder = ScannerViewModel.SortOrder(rawValue: value) ?? .signal
        }
        favoritesOnlyAction = group.addToggle("favorites-only", initial: p.favoritesOnly) { [weak model] in
            model?.favoritesOnly = $0
        }
        hideUnnamedAction = group.addToggle("hide-unnamed", initial: p.hideUnnamed) { [weak model] in
            model?.hideUnnamed = $0
        }
        recordAction = group.addToggle("record", initial: false) { [weak self] on in self?.record(on) }
        group.addTargeted("favorite") { [weak self] in self?.toggleFavorite(key: $0, fromHeart: false) }
        group.addTargeted("details") { [weak self] in self?.showDetails(key: $0) }
        group.addTargeted("hide") { [weak self] in self?.hideDevice(key: $0) }
        onlyNewAction = group.addToggle("only-new", initial: model.onlyNewSince != nil) { [weak model] in
            model?.setOnlyNewDevices($0)
        }
    }

    // MARK: Rendering

    private func render() {
        let running = model.isRunning
        // Between two auto scans nothing is heard: no spinner, the subtitle says it waits.
        let busy = running && model.state != .waiting
        spinner.isVisible = busy
        spinner.isSpinning = busy
        toggle.setIcon(running ? "media-playback-stop-symbolic" : "media-playback-start-symbolic")
        let toggleName = running ? L10n.tr("Stop Scanning") : L10n.tr("Start Scanning")
        toggle.accessibleLabel(toggleName).tooltip(toggleName)
        let status = statusText()
        frame.header.titleLabel.subtitle = model.recordingPath == nil ? status : L10n.format("{} · Recording", status)
        renderRecording()
        // Preferences may change elsewhere (the Preferences window); keep the menu's marks true.
        let p = model.preferences
        sortAction?.setState(p.sortOrder.rawValue)
        favoritesOnlyAction?.setState(p.favoritesOnly)
        hideUnnamedAction?.setState(p.hideUnnamed)
        onlyNewAction?.setState(model.onlyNewSince != nil)

        let recovery = model.canTurnOn ? L10n.tr("Turn _On") : L10n.tr("_Try Again")
        if case .failed(let failure) = model.state, !model.rows.isEmpty {
            failureBanner.show([failure.message + " " + failure.suggestion], button: recovery)
        } else {
            failureBanner.show([])
        }
        if case .failed(let failure) = model.state, model.rows.isEmpty {
            switch failure {
            case .adapterOff:
                problem.title = L10n.tr("Bluetooth Is Off")
                problem.details = failure.suggestion
                problem.setIcon("bluetooth-disabled-symbolic")
            case .adapterBlocked:
                problem.title = L10n.tr("Bluetooth Is Blocked")
                problem.details = failure.suggestion
                problem.setIcon("airplane-mode-symbolic")
            default:
                problem.title = L10n.tr("Scanning Is Not Possible")
                problem.details = failure.message + "\n\n" + failure.suggestion
                problem.setIcon("bluetooth-disabled-symbolic")
            }
            retry.setLabel(recovery)
            content.show("problem")
        } else if model.rows.isEmpty, let since = model.onlyNewSince {
            noNew.details = L10n.format("Only devices heard for the first time after {} are shown here.", Self.moment(since))
            content.show("no-new")
        } else if model.rows.isEmpty && model.hiddenCount > 0 {
            content.show("no-matches")
        } else if model.rows.isEmpty {
            content.show("waiting")
        } else {
            content.show("list")
        }
        updateHeader()
        let rows = model.rows
        let previous = shown
        shown = Dictionary(uniqueKeysWithValues: rows.map { ($0.key, $0) })
        list.update(rows.map(\.key), isChanged: { [shown] in previous[$0] != shown[$0] })
    }

    /// Shows only the header controls that work now: nothing to search, sort or start while the
    /// problem page offers Try Again; in a narrow window Search and View Options share one menu.
    private func updateHeader() {
        let problem = content.visibleName == "problem"
        if problem && searchBar.isSearching { searchBar.isSearching = false }
        searchBar.captureKeys(from: problem ? nil : frame.root)
        toggle.isVisible = !problem
        searchToggle.isVisible = !problem && !isNarrow
        viewMenu.isVisible = !problem && !isNarrow
        narrowMenu.isVisible = !problem && isNarrow
    }

    private func statusText() -> String {
        let status: String
        switch model.state {
        case .idle, .paused: status = L10n.tr("Paused")
        case .waiting: status = L10n.plural("{} device · waiting for the next scan", "{} devices · waiting for the next scan", model.rows.count)
        case .starting: return L10n.tr("Starting…")
        case .scanning: status = L10n.plural("{} device", "{} devices", model.rows.count)
        case .finished: status = L10n.tr("Replay finished")
        case .failed(.adapterOff): return L10n.tr("Bluetooth off")
        case .failed(.adapterBlocked): return L10n.tr("Bluetooth blocked")
        case .failed: return L10n.tr("Failed")
        }
        guard model.hiddenByUserCount > 0 else { return status }
        return L10n.format("{} · {}", status, L10n.plural("{} hidden", "{} hidden", model.hiddenByUserCount))
    }

    private func bind(_ row: DeviceRowView, _ key: String) {
        guard let data = shown[key] else { return }
        row.show(DeviceRowContent(title: data.title, titleIsPlaceholder: data.isUnnamed, subtitle: data.subtitle,
                                  identifier: DeviceRowContent.Identifier(data.id),
                                  signal: data.rssi.map { Self.dBm($0) }, signalIcon: Self.levelIcons[data.level],
                                  signalDescription: Self.levelNames[data.level], isFavorite: data.isFavorite,
                                  age: data.age), key: key)
        if data.isStale { row.root.css("dim-label") } else { row.root.removeCSS("dim-label") }
    }

    private static let levelIcons = ["network-cellular-signal-none-symbolic", "network-cellular-signal-weak-symbolic",
                                     "network-cellular-signal-ok-symbolic", "network-cellular-signal-good-symbolic",
                                     "network-cellular-signal-excellent-symbolic"]
    /// Made on first use, after the translations are bound.
    private static let levelNames = [L10n.tr("Signal strength: none"), L10n.tr("Signal strength: weak"),
                                     L10n.tr("Signal strength: fair"), L10n.tr("Signal strength: good"),
                                     L10n.tr("Signal strength: excellent")]

    /// "−58 dBm" with a real minus sign, localized.
    static func dBm(_ value: Int) -> String { SignalText.dBm(value) }

    // MARK: Recording

    /// The Record check follows the model, and a recording that ended says where it went.
    private func renderRecording() {
        recordAction?.setState(model.recordingPath != nil)
        recordAction?.isEnabled = model.canRecord
        guard let end = model.takeRecordingEnd(), let navigator else { return }
        if let failure = end.failure {
            ExportDialogs.showFailure(heading: L10n.tr("Recording Stopped"), message: failure.message, parent: navigator.parentWindow)
        } else {
            navigator.toast(L10n.format("Recording saved to “{}”", (end.path as NSString).lastPathComponent), button: nil, action: nil)
        }
    }

    /// Record on asks for a file first; cancelling leaves it off.
    private func record(_ on: Bool) {
        guard let navigator else { return }
        guard on else {
            model.stopRecording()
            return
        }
        // Unchecked until a file is chosen.
        recordAction?.setState(false)
        ExportDialogs.chooseRecording(navigator: navigator) { [weak self] path in
            guard let self, let path, let navigator = self.navigator else { return }
            if let failure = self.model.startRecording(to: path) {
                ExportDialogs.showFailure(heading: L10n.tr("Recording Failed"), message: failure.message,
                                          parent: navigator.parentWindow)
            }
            self.render()
        }
    }

    // MARK: Actions

    /// Adds or removes `key`; focus then goes back to its heart or its row, whichever opened the dialog.
    private func toggleFavorite(key: String, fromHeart: Bool) {
        guard let id = try? DeviceID(storageKey: key), let navigator else { return }
        let name = shown[key]?.title ?? id.address
        let dialog: MessageDialog
        if favorites.isFavorite(id) {
            dialog = FavoriteDialogs.remove(id, name: name, parent: navigator.parentWindow, favorites: favorites)
        } else {
            dialog = FavoriteDialogs.add(id, title: name, advertisedName: model.name(of: id), parent: navigator.parentWindow,
                                         favorites: favorites)
        }
        dialog.onClosed { [weak self] in
            if fromHeart { self?.controls.returnFocusToHeart(of: key) } else { self?.controls.focusRow(key) }
        }
    }

    /// Hides `key` at once, with Undo on the toast.
    private func hideDevice(key: String) {
        guard let id = try? DeviceID(storageKey: key), let row = shown[key] else { return }
        guard hidden.hide(id, name: row.isUnnamed ? nil : row.title, title: row.title,
                          toast: { [weak navigator] in navigator?.toast($0, button: $1, action: $2) }) else { return }
        list.list.grabFocus()
    }

    /// A time today ("14:09"), else a date and time.
    static func moment(_ date: Date) -> String {
        Calendar.current.isDateInToday(date) ? Formats.time(date) : Formats.dateTime(date)
    }

    private func showDetails(key: String) {
        guard let id = try? DeviceID(storageKey: key) else { return }
        navigator?.showDetail(of: id)
    }
}
