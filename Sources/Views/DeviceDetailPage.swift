// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import GtkKit
import Localization
import ViewModels

/// Everything one device says about itself.
@MainActor
public final class DeviceDetailPage: Page {
    // MARK: Widgets
    private let frame: PageFrame
    private let content = Stack(transition: .crossfade, durationMs: 150)
    private let fullName = Label()
    private let signalValue = Label()
    private let signalAge = Label()
    private let properties = PropertyList(accessibleName: L10n.tr("Properties"))
    private let addressRow = PropertyRow(title: L10n.tr("Address"))
    private let advertisedNameRow = PropertyRow(title: L10n.tr("Advertised Name"))
    private let manufacturerRow = PropertyRow(title: L10n.tr("Manufacturer"))
    private let servicesRow = PropertyRow(title: L10n.tr("Advertised Services"))
    private let txPowerRow = PropertyRow(title: L10n.tr("TX Power"))
    private let heardAsRow = PropertyRow(title: L10n.tr("Private Address"))
    private let earlierRow = PropertyRow(title: L10n.tr("Earlier Addresses"))
    private let copyAddress = Button(icon: "edit-copy-symbolic", accessibleName: L10n.tr("Copy Address"))
    private let keywordBox = FlowBox(maxPerLine: 20, columnSpacing: 6, rowSpacing: 6)
    private let seen = Label()
    private let plot = SignalPlot()
    private let heardBy = HeardBySection()
    private let readingsSection: DeviceReadingsSection
    private let heart: Button
    private let rename: Button
    private let hide = Button(icon: "view-conceal-symbolic", accessibleName: "")

    // MARK: Borrowed
    private weak var navigator: Navigator?
    private let model: DeviceDetailViewModel
    private let favorites: FavoritesViewModel
    private let hidden: HiddenDevicesViewModel?
    private var hiddenToken: ObservationToken?
    /// Connect, Open Chat, Disconnect; nil when the app cannot connect at all.
    private let connection: DeviceConnectionSection?
    private let connectionModel: ConnectionViewModel?
    /// The connected device's services, characteristics and values; nil when the app cannot connect.
    private let servicesSection: DeviceServicesSection?
    /// The connected device's Device Manager (MCUmgr), where it has one.
    private let managerSection: DeviceManagerSection?

    // MARK: Owned
    private var token: ObservationToken?
    private var shownKeywords: [String] = []
    /// The address type's technical name in the address row's tooltip.
    private var addressTerm = ""
    /// A favorite's Identity Resolving Key.
    private let keySection: DeviceKeySection
    /// A favorite's notifications.
    private let alertsSection: DeviceAlertsSection
    private let trackerSection: DeviceTrackerSection?
    /// Paired or not, Pair and Forget.
    private let pairingSection: DevicePairingSection?
    private let pairing: DevicePairingViewModel?
    private var pairingToken: ObservationToken?
    private var connectionToken: ObservationToken?
    /// Brings "Last heard 40 s ago" up to date every second, and dims a figure that got old.
    private var ageTicker: Task<Void, Never>?

    /// Creates the page over `model`.
    public init(navigator: Navigator, model: DeviceDetailViewModel, favorites: FavoritesViewModel,
                hidden: HiddenDevicesViewModel? = nil, connection: ConnectionViewModel? = nil,
                pairing: DevicePairingViewModel? = nil, services: DeviceServicesViewModel? = nil,
                tracker: TrackerViewModel? = nil, clone: DeviceCloneViewModel? = nil, manager: DeviceManagerViewModel? = nil) {
        self.navigator = navigator
        self.model = model
        self.favorites = favorites
        self.hidden = hidden
        self.connection = connection.map { DeviceConnectionSection(device: model.id, model: $0, navigator: navigator) }
        connectionModel = connection
        servicesSection = services.map { DeviceServicesSection(device: model.id, model: $0, connection: connection, navigator: navigator,
                                                                      clone: clone) }
        managerSection = manager.map { DeviceManagerSection(model: $0, navigator: navigator) }
        keySection = DeviceKeySection(model: model)
        readingsSection = DeviceReadingsSection(page: model, navigator: navigator)
        alertsSection = DeviceAlertsSection(model: model)
        // A reading's notifications belong with the other notifications.
        alertsSection.root.append(readingsSection.notifications)
        trackerSection = tracker.map(DeviceTrackerSection.init)
        pairingSection = pairing.map { DevicePairingSection(model: $0, navigator: navigator) }
        self.pairing = pairing
        frame = PageFrame(title: model.title, backButton: true)
        heart = Button(icon: "favblue-heart-outline-symbolic", accessibleName: "")
        rename = Button(icon: "document-edit-symbolic", accessibleName: L10n.tr("Rename"))
        frame.header.packEnd(PrimaryMenu.make())
        frame.header.packEnd(heart)
        frame.header.packEnd(rename)
        frame.header.packEnd(hide)
        hide.tooltip(L10n.tr("Hide Device"))

        let loading = Spinner()
        loading.isSpinning = true
        loading.accessibleLabel(L10n.tr("Loading details")).align(.center, .center).sizeRequest(width: 32, height: 32)

        // The whole name, wrapped: a narrow header bar cuts the title.
        fullName.wrap().justifyCenter()
        fullName.css("title-2")

        // Signal: a small caption over a large figure, near the centre, and how old it is.
        let caption = Label(L10n.tr("Signal"))
        caption.css("signal-caption", "dim-text")
        signalValue.css("signal-value", "numeric")
        signalValue.wrap().justifyCenter()
        signalAge.css("caption", "dim-text")
        let signal = Box(vertical: true, spacing: 4).append(caption, signalValue, signalAge)
        signal.align(.center, .start)
        signal.margins(12)

        copyAddress.css("flat")
        copyAddress.align(.center, .center)
        copyAddress.tooltip(L10n.tr("Copy Address"))
        addressRow.addSuffix(copyAddress)
        for row in [addressRow, heardAsRow, earlierRow, advertisedNameRow, manufacturerRow, servicesRow, txPowerRow] {
            properties.append(row)
        }

        let heading = Label(L10n.tr("Keywords")).xalign(0)
        heading.css("heading")
        keywordBox.accessibleLabel(L10n.tr("Keywords"))
        // Tags to read, not controls: each one a Tab stop made Tab crawl through them unseen.
        keywordBox.canFocus = false
        seen.xalign(0).wrap()
        seen.css("dim-text")

        // Where it is, beside how strong: the sources that hear it follow the signal.
        let column = Box(vertical: true, spacing: 12).append(fullName, signal, readingsSection.root, heardBy.root)
        if let trackerSection { column.append(trackerSection.root) }
        if let connection = self.connection { column.append(connection.root) }
        if let pairingSection { column.append(pairingSection.root) }
        // Recognising a device on private addresses is pairing's business: its key follows Pairing.
        column.append(keySection.root)
        if let managerSection { column.append(managerSection.root) }
        if let servicesSection { column.append(servicesSection.root) }
        column.append(properties)
        column.append(alertsSection.root)
        column.append(heading, keywordBox, plot.root, seen)
        column.margins(18)
        let scroller = ScrolledWindow(child: Clamp(maximumSize: 600, child: column))
        content.add(loading, name: "loading")
        content.add(scroller, name: "details")
        frame.setContent(content)

        let plotActions = ActionGroup(on: plot.root, prefix: "plot")
        plotActions.add("export-history") { [weak self] in
            guard let self, let navigator = self.navigator else { return }
            ExportDialogs.exportSignalHistory(navigator: navigator, model: self.model)
        }
        heart.onClicked { [weak self] in self?.toggleFavorite() }
        rename.onClicked { [weak self] in self?.renameFavorite() }
        hide.onClicked { [weak self] in self?.hideDevice() }
        hiddenToken = hidden?.observe { [weak self] in self?.render() }
        copyAddress.onClicked { [weak self] in
            guard let self else { return }
            self.copyAddress.copyToClipboard(self.model.id.address)
        }
        token = model.observe { [weak self] in self?.render() }
        servicesSection?.canPair = { [weak pairing] in pairing?.canPair ?? false }
        trackerSection?.isFavorite = { [weak model] in model?.isFavorite ?? false }
        trackerSection?.trustWanted = { [weak self] in self?.toggleFavorite() }
        trackerSection?.toast = { [weak navigator] text in navigator?.toast(text, button: nil, action: nil) }
        servicesSection?.pair = { [weak self] in
            guard let self else { return }
            self.pairing?.pair()
            self.pairingSection?.focus()
        }
        // A device that refused the connection until paired: Pair becomes the suggested next step.
        connectionToken = connection?.observe { [weak self, weak connection] in
            guard let self, let connection, let section = self.pairingSection else { return }
            let wants = connection.wantsPairing(self.model.id)
            let now = wants && !section.suggested
            section.suggested = wants
            // The next step is Pair: the keyboard goes there, so Enter pairs.
            if now { section.focus() }
        }
        // Pairing showed this address to be a device's identity: the page follows it there.
        pairingToken = pairing?.observe { [weak self] in
            guard let self, let identity = self.pairing?.movedTo else { return }
            self.pairingToken = nil
            self.navigator?.showDetail(of: identity, replacing: self.device)
        }
        render()
        Task { [weak model] in await model?.load() }
        ageTicker = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(nanoseconds: 1_000_000_000)
                guard let self else { return }
                self.renderAge()
            }
        }
    }

    isolated deinit { ageTicker?.cancel() }

    public var root: Widget { frame.root }

    /// The device the page is about.
    public var device: DeviceID { model.id }

    /// Live while shown: the Scanner's scan when it lies under this page, else one of its own.
    public func pageDidAppear() { model.appear() }

    /// Opens the service that holds the characteristic at `handle` (the GATT benchmark shows its log).
    public func revealCharacteristic(_ handle: UInt16) { servicesSection?.reveal(handle) }

    /// Scrolls the log and plot of the characteristic at `handle` into view.
    public func showLog(of handle: UInt16) { servicesSection?.showLog(handle) }

    /// Puts the focus on the pairing row's control.
    func focusPairing() { pairingSection?.focus() }

    public func pageWillDisappear() { model.disappear() }

    public func adapt(narrow: Bool) { managerSection?.adapt(narrow: narrow) }

    /// "loading" while the stored data is on its way, then "details" (for tests).
    public var visibleContent: String? { content.visibleName }

    /// The first/last seen line, for tests.
    public var seenText: String { seen.text }

    /// The plot's summary (also its accessible description), for tests.
    public var signalSummary: String { plot.summaryText }

    /// The age line under the signal, for tests.
    public var ageText: String { signalAge.text }

    /// The connection note ("A replayed capture cannot connect to devices."), for tests.
    public var connectionNote: String? { connection?.noteText }

    /// Whether Pair (or Forget) has the keyboard focus (for tests).
    public var pairingHasFocus: Bool { pairingSection?.hasFocus ?? false }

    /// The labelled properties shown, title → value, for tests.
    public var shownProperties: [String: String] {
        var shown: [String: String] = [:]
        for row in [addressRow, heardAsRow, earlierRow, advertisedNameRow, manufacturerRow, servicesRow, txPowerRow] where row.isVisible {
            shown[row.title] = row.value
        }
        return shown
    }

    private func render() {
        content.show(model.isLoading ? "loading" : "details")
        frame.header.titleLabel.title = model.title
        fullName.text = model.title
        let elsewhere = model.heardOnlyElsewhere
        connection?.update(name: model.title, connectable: model.isConnectable, heardOnlyElsewhere: elsewhere)
        pairingSection?.outOfReach = elsewhere != nil
        // Whose figure it is, where several sources hear the device ("−46 dBm · Kitchen").
        signalValue.text = model.rssi.map { rssi in
            model.rssiSource.map { L10n.format("{} · {}", ScannerPage.dBm(rssi), DeviceText.isolated($0)) } ?? ScannerPage.dBm(rssi)
        } ?? L10n.tr("Not heard")
        plot.show(model.signalHistory())
        heardBy.show(model.heardBy())
        readingsSection.show(model.readings)
        let p = model.properties
        addressRow.value = L10n.format("{} · {}", p.address, p.addressKind) + (p.addressNote.map { "\n" + $0 } ?? "")
        if p.addressTerm != addressTerm {
            addressTerm = p.addressTerm
            addressRow.tooltip(p.addressTerm)
        }
        show(heardAsRow, p.heardAs)
        show(earlierRow, p.earlierAddresses)
        keySection.render()
        alertsSection.render()
        trackerSection?.render()
        // The name is the page's title; the name as sent is said again only under a nickname.
        show(advertisedNameRow, p.advertisedName == model.title ? nil : p.advertisedName)
        show(manufacturerRow, p.manufacturer)
        show(servicesRow, p.services)
        show(txPowerRow, p.txPower)
        renderAge()
        if model.keywords != shownKeywords {
            shownKeywords = model.keywords
            keywordBox.removeAll()
            for keyword in model.keywords {
                keywordBox.append(Label(keyword).css("favblue-tag"))
            }
        }
        if let summary = model.summary {
            seen.text = L10n.format("First seen {}, last seen {}", Formats.dateTime(summary.firstSeen), Formats.dateTime(summary.lastSeen))
                + "\n" + L10n.plural("{} stored sighting", "{} stored sightings", summary.count)
        } else if model.isFavorite {
            seen.text = L10n.tr("No sightings stored yet.")
        } else {
            seen.text = L10n.tr("FavBlue keeps when and how well it heard a device once it is a favorite.")
        }
        let favorite = model.isFavorite
        heart.setIcon(favorite ? "favblue-heart-filled-symbolic" : "favblue-heart-outline-symbolic")
        if favorite { heart.css("favorite-heart") } else { heart.removeCSS("favorite-heart") }
        let heartName = favorite ? L10n.format("Remove {} from favorites", model.title) : L10n.format("Add {} to favorites", model.title)
        heart.accessibleLabel(heartName).tooltip(heartName)
        rename.isSensitive = favorite
        // A favorite cannot be hidden: the button is offered only where hiding is possible.
        hide.isVisible = hidden?.canHide(model.id) == true
        hide.accessibleLabel(L10n.format("Hide {}", model.title))
    }

    /// Hides the device, says so with Undo, and goes back to the list it has left.
    private func hideDevice() {
        guard let hidden, let navigator else { return }
        let title = model.title
        let name = title == model.id.address ? nil : title
        guard hidden.hide(model.id, name: name, title: title, toast: { navigator.toast($0, undo: $1) }) else { return }
        navigator.goBack()
    }

    private func show(_ row: PropertyRow, _ value: String?) {
        row.isVisible = value != nil
        if let value { row.value = value }
    }

    /// The figure's age, and a dimmed figure once the device has not been heard for the fade time.
    private func renderAge() {
        let age = model.lastHeardText()
        // A connected device stops advertising; where the route reads no signal from the link, say why it stands still.
        if let connection = connectionModel, connection.isConnected(to: model.id), !connection.readsSignalWhileConnected {
            signalAge.text = L10n.format("{} · The system’s Bluetooth service gives no signal while connected", age)
        } else {
            signalAge.text = age
        }
        if model.isStale() { signalValue.css("dim-text") } else { signalValue.removeCSS("dim-text") }
    }

    private func toggleFavorite() {
        guard let navigator else { return }
        let id = model.id
        if model.isFavorite {
            FavoriteDialogs.remove(id, name: model.title, parent: navigator.parentWindow, favorites: favorites)
        } else {
            let name = model.title == id.address ? nil : model.title
            FavoriteDialogs.add(id, title: model.title, advertisedName: name, parent: navigator.parentWindow, favorites: favorites)
        }
    }

    private func renameFavorite() {
        guard let navigator, model.isFavorite else { return }
        FavoriteDialogs.rename(model.id, name: model.title, parent: navigator.parentWindow, favorites: favorites)
    }
}
