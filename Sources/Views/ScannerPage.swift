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
    let frame: PageFrame
    let content = Stack(transition: .crossfade, durationMs: 150)
    let waiting: StatusPage
    let problem: StatusPage
    /// "Details" on the problem page: what exactly failed, closed at first.
    let problemExpander = Expander(label: L10n.ctx("technical detail", "_Details"))
    let problemDetail = Label()
    /// The problem page's main button: Try Again, or Turn On when Bluetooth is off.
    let retry: Button
    let spinner = Spinner()
    let toggle: Button
    let searchToggle: ToggleButton
    let viewMenu: MenuButton
    /// Search and View Options in one menu, for narrow windows.
    let narrowMenu: MenuButton
    let primaryMenu = PrimaryMenu.make()
    let searchBar: SearchBar
    let noMatches: StatusPage
    let noNew: StatusPage
    var failureBanner: Banner!
    /// The one-time offer of tracker alerts, while a tracker is listed and they are off.
    var trackerBanner: Banner!
    let trackerAlerts: TrackerAlertsSetting?
    var list: KeyedListView<DeviceRowView>!
    /// "Sort Again", over the foot of the list while the order shown is not the chosen one.
    let sortAgain = Button(label: L10n.tr("_Sort Again"), mnemonic: true)
    var controls: DeviceListControls!
    var sortAction: Action?
    var favoritesOnlyAction: Action?
    var trackersOnlyAction: Action?
    var hideUnnamedAction: Action?
    var onlyNewAction: Action?
    var recordAction: Action?

    // MARK: Borrowed
    weak var navigator: Navigator?
    let model: ScannerViewModel
    let favorites: FavoritesViewModel
    let hidden: HiddenDevicesViewModel
    let tryDemo: (() -> Void)?

    // MARK: Owned
    var token: ObservationToken?
    let rowLayout = DeviceRowLayout()
    var shown: [String: ScannerViewModel.Row] = [:]
    /// Whether the pointer is over the list: Sort Again does not appear under it.
    var pointerInList = false { didSet { if !pointerInList { renderSortAgain() } } }
    /// The row whose device page was opened from it (Enter, a click), to focus again on coming back.
    private var openedFromRow: String?
    var isNarrow = false
    /// Pair and Forget in a row's menu.
    let pairingActions: PairingActionsViewModel?

    /// Creates the page; `tryDemo` switches the source to the shipped demo capture.
    public init(navigator: Navigator, model: ScannerViewModel, favorites: FavoritesViewModel,
                hidden: HiddenDevicesViewModel, pairing: PairingActionsViewModel? = nil,
                trackerAlerts: TrackerAlertsSetting? = nil, tryDemo: (() -> Void)?) {
        self.trackerAlerts = trackerAlerts
        self.navigator = navigator
        pairingActions = pairing
        self.model = model
        self.favorites = favorites
        self.hidden = hidden
        self.tryDemo = tryDemo
        frame = PageFrame(title: L10n.tr("Scanner"), backButton: true)
        toggle = Button(icon: "media-playback-stop-symbolic", accessibleName: L10n.tr("Stop Scanning"))
        frame.header.packEnd(primaryMenu)
        frame.header.packEnd(toggle)
        spinner.accessibleLabel(L10n.ctx("Status", "Scanning"))
        frame.header.packEnd(spinner)
        let viewSections: [(String?, [(String, String)])] = [
            (L10n.tr("Sort By"), [(L10n.tr("_Signal Strength"), "scanner.sort::signal"),
                                  (L10n.tr("_Name"), "scanner.sort::name"),
                                  (L10n.tr("_Last Seen"), "scanner.sort::last-seen")]),
            // Translators: a menu section of filters; in German not "Anzeigen", which names the advertisements.
            (L10n.ctx("Scanner menu section: which devices are listed", "Show"), [(L10n.tr("_Favorites Only"), "scanner.favorites-only"),
                               (L10n.tr("_Hide Unnamed Devices"), "scanner.hide-unnamed"),
                               (L10n.tr("_Trackers Only"), "scanner.trackers-only"),
                               (L10n.tr("_Only New Devices"), "scanner.only-new")]),
            (nil, [(L10n.tr("_Export Devices…"), "win.export-devices"),
                   (L10n.tr("_Record"), "scanner.record")]),
        ]
        viewMenu = MenuButton(icon: "view-sort-descending-symbolic", accessibleName: L10n.tr("View Options"),
                              titledSections: viewSections)
        narrowMenu = MenuButton(icon: "view-more-symbolic", accessibleName: L10n.tr("Search and View Options"),
                                titledSections: [(nil, [(L10n.tr("Sea_rch Devices"), "scanner.search")])] + viewSections
                                    + [(nil, PrimaryMenu.common)])
        // In a narrow window this one menu is the main menu too (F10), so the header fits 360 px.
        narrowMenu.makePrimary()
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
        // The page is not whole yet: its answer is wired below, once it is.
        let offer = OfferAnswer()
        trackerBanner = Banner(buttonLabel: L10n.tr("_Not Now"), secondLabel: L10n.tr("_Turn On…"),
                               onSecond: { offer.answer(true) }, onDismiss: { offer.answer(false) })
        frame.root.append(trackerBanner.root)
        noMatches = StatusPage(icon: "system-search-symbolic", title: L10n.tr("No Matching Devices"),
                               description: L10n.tr("Devices nearby are hidden by the search or by the filters in View Options."))
        noNew = StatusPage(icon: "starred-symbolic", title: L10n.tr("No New Devices Yet"))
        // Both empty lists offer the way out, and it clears every filter, not only the one named.
        let showAllButtons = [noMatches, noNew].map { status in
            let showAll = Button(label: L10n.tr("_Show All Devices"), mnemonic: true)
            showAll.css("pill").align(.center, .center)
            status.setChild(showAll)
            return showAll
        }

        waiting = StatusPage(icon: "favblue-searching-symbolic", title: L10n.tr("Looking for devices…"),
                             description: L10n.tr("Devices appear here as soon as they are heard."))
        problem = StatusPage(icon: "bluetooth-disabled-symbolic", title: L10n.tr("Scanning Is Not Possible"))
        retry = Button(label: L10n.tr("_Try Again"), mnemonic: true)
        retry.css("pill", "suggested-action")
        let demo = Button(label: L10n.tr("Try the _Demo"), mnemonic: true)
        demo.css("pill")
        let buttons = Box(vertical: true, spacing: 12).append(retry, demo)
        buttons.align(.center, .center)
        // The technical cause, for whoever wants it, under the plain sentence.
        problemDetail.wrap().xalign(0)
        problemDetail.isSelectable = true
        problemExpander.setChild(problemDetail)
        problemExpander.accessibleLabel(L10n.ctx("technical detail", "Details"))
        // As wide when open as when closed: a title that jumps from the middle to the left when
        // pressed moves what the pointer is on.
        problemExpander.align(.fill, .start)
        problemExpander.margins(12)
        problem.setChild(Box(vertical: true, spacing: 12).append(buttons, problemExpander))

        // The list is one Tab stop, with the arrows inside it: 25 devices are not 50 stops. A row's
        // heart and Details are for the pointer and assistive technology; the keyboard has
        // Enter (the device's page) and the row menu (Add to Favorites…), and focus comes back to the row.
        let pool = DeviceButtonPool(focusable: false,
                                    onHeart: { [weak self] in self?.toggleFavorite(key: $0) },
                                    onDetails: { [weak self] in
            self?.openedFromRow = $0
            self?.showDetails(key: $0)
        })
        list = KeyedListView(
            accessibleName: L10n.tr("Devices nearby"),
            makeRow: { [rowLayout] in
                let row = DeviceRowView(pool: pool, layout: rowLayout)
                return (row, row.root)
            },
            bind: { [weak self] row, key in self?.bind(row, key) },
            // A row opens its device (Enter, a click); the heart, or the row menu, adds or removes the favorite.
            activate: { [weak self] key in
                self?.openedFromRow = key
                self?.showDetails(key: key)
            })
        controls = DeviceListControls(list: list, pool: pool) { [weak self] key in
            let isFavorite = self?.shown[key]?.isFavorite ?? false
            var sections = [[(isFavorite ? L10n.tr("_Remove from Favorites…") : L10n.tr("_Add to Favorites…"), "scanner.favorite::\(key)"),
                             (L10n.tr("_Details"), "scanner.details::\(key)")]]
            // A favorite cannot be hidden, so its menu does not offer it.
            if let id = try? DeviceID(storageKey: key), self?.hidden.canHide(id) == true {
                sections.append([(L10n.tr("_Hide Device"), "scanner.hide::\(key)")])
            }
            if let id = try? DeviceID(storageKey: key), let label = self?.pairingActions?.menuLabel(for: id) {
                sections.append([(label, "scanner.pair::\(key)")])
            }
            return sections
        }
        content.add(waiting, name: "waiting")
        content.add(problem, name: "problem")
        content.add(noMatches, name: "no-matches")
        content.add(noNew, name: "no-new")
        // Rows move only when the user asks: the pill offers the new order, and never appears
        // under the pointer, which may be on its way to the row drawn there.
        sortAgain.css("pill", "suggested-action").align(.center, .end)
        sortAgain.margins(12)
        sortAgain.isVisible = false
        sortAgain.onClicked { [weak self] in self?.sortAgainNow() }
        // GTK 4.8 passes over the list going back from an overlay on it.
        sortAgain.shiftTabFocuses(list.list)
        let listOverlay = Overlay(child: list.root)
        listOverlay.add(sortAgain)
        content.add(listOverlay, name: "list")
        frame.setContent(content)

        list.list.onPointerInside { [weak self] inside in self?.pointerInList = inside }
        // A row whose device went stays only where the user may be aiming: under the pointer
        // (anywhere in the list), or above and at the row the keyboard is on.
        model.aim = { [weak self] in
            guard let self else { return .everywhere }
            if self.pointerInList { return .everywhere }
            guard let key = self.list.focusedKey, let row = self.model.rows.first(where: { $0.key == key }) else { return .nowhere }
            return .row(row.id)
        }
        list.list.tabLeavesAtOnce()
        // Reordered while the keyboard was away: it comes back to its device, not to its place.
        list.keepFocusWithItsKey(unless: { [weak self] in self?.pointerInList ?? true }) { [weak self] key in
            self?.controls.focusRow(key)
        }

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
        offer.answer = { [weak self] turnOn in
            guard let self else { return }
            // The banner goes with its buttons: the focus moves to the list first, not into nothing.
            self.list.list.grabFocus()
            self.trackerAlerts?.answerOffer()
            self.render()
            if turnOn { _ = self.root.activateAction("win.tracker-preferences") }
        }
        for showAll in showAllButtons { showAll.onClicked { [weak self] in self?.showAllDevices() } }
        installViewActions()
        token = model.observe { [weak self] in self?.render() }
        render()
    }

    public var root: Widget { frame.root }

    public func pageDidAppear() { model.start() }

    public func restoreFocus() -> Bool {
        guard let key = openedFromRow else { return false }
        openedFromRow = nil
        guard list.currentKeys.contains(key) else { return false }
        controls.focusRow(key)
        return true
    }

    /// What the page shows: "waiting", "list", "no-matches" or "problem" (for tests).
    public var visibleContent: String? { content.visibleName }

    /// Whether the header's spinner is shown turning (for tests).
    public var spinnerTurns: Bool { spinner.isVisible && spinner.isSpinning }

    /// The explanation on the problem page, for tests.
    public var problemText: String { "\(problem.title)\n\(problem.details)\n\(problemDetail.text)" }

    public func pageWillDisappear() { model.leave() }

    /// A device's details over the list keep the Scanner's scan: "where is my device?" needs
    /// the reading live, and the list is as it was on coming back.
    public func pageWillBeCovered(by page: Page) {
        if !(page is DeviceDetailPage) { model.leave() }
    }

    public func adapt(narrow: Bool) {
        isNarrow = narrow
        rowLayout.isNarrow = narrow
        failureBanner.adapt(narrow: narrow)
        trackerBanner.adapt(narrow: narrow)
        updateHeader()
    }

    /// Whether the header shows the narrow menu in place of Search and View Options (for tests).
    public var showsNarrowMenu: Bool { narrowMenu.isVisible }

    /// Show All Devices: the search closes with every filter, and the keyboard goes to the list
    /// that takes the place of the button pressed.
    func showAllDevices() {
        if searchBar.isSearching { searchBar.isSearching = false }
        model.showAllDevices()
        list.list.grabFocus()
    }

    /// Opens the search bar with the keyboard in it; nothing to search while scanning is impossible.
    func openSearch() {
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
        trackersOnlyAction = group.addToggle("trackers-only", initial: p.trackersOnly) { [weak model] in
            model?.trackersOnly = $0
        }
        recordAction = group.addToggle("record", initial: false) { [weak self] on in self?.record(on) }
        group.addTargeted("favorite") { [weak self] in self?.toggleFavorite(key: $0) }
        group.addTargeted("details") { [weak self] in self?.showDetails(key: $0) }
        group.addTargeted("hide") { [weak self] in self?.hideDevice(key: $0) }
        group.addTargeted("pair") { [weak self] in self?.pairOrForget(key: $0) }
        onlyNewAction = group.addToggle("only-new", initial: model.onlyNewSince != nil) { [weak model] in
            model?.setOnlyNewDevices($0)
        }
    }
}

/// What the tracker offer's buttons do, set once the page is whole.
@MainActor
private final class OfferAnswer {
    var answer: (Bool) -> Void = { _ in }
}
