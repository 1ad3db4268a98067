// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import GtkKit
import Localization
import ViewModels

/// Act as a Device: the advertisements FavBlue sends, the GATT server it runs, and what each
/// central did. Rows are updated in place, so a switch or an entry keeps the focus while events arrive.
@MainActor
public final class PeripheralPage: Page {
    // MARK: Widgets
    let frame: PageFrame
    private let content = Stack(transition: .crossfade, durationMs: 150)
    private let unavailable: StatusPage
    private let summary = Label().xalign(0).wrap()
    /// Opens Preferences on the adapter's facts, which say more than the summary.
    private let adapterDetails = Button(label: L10n.tr("_Adapter Details"), mnemonic: true)
    private let advertisementList = BoxedList(accessibleName: L10n.tr("Advertisements"))
    private let emptyAdvertisements = Label(L10n.tr("No advertisement yet. Add one, or start from a preset.")).xalign(0).wrap()
    let addMenu: MenuButton
    /// What the adapter's loss stopped, at the top, with Try Again.
    private var lostBanner: Banner!
    private let server: PeripheralServerSection
    private let centrals: PeripheralCentralsSection
    private let menu: MenuButton

    // MARK: Borrowed
    private weak var navigator: Navigator?
    let model: PeripheralViewModel
    private let openAdvertisement: (String) -> Void

    // MARK: Owned
    private var token: ObservationToken?
    private var advertisementRows: [String: (row: ActionRow, toggle: Switch)] = [:]
    private var shownOrder: [String] = []
    /// The switches follow the model; a change made here is not the user's.
    private var settingSwitches = false
    /// The advertisement whose page was opened last, and where its row stood, so the focus has a
    /// place to go back to when that advertisement was removed there.
    private var opened: (id: String, index: Int)?

    /// The page over `model`; `openAdvertisement` opens one advertisement's own page.
    public init(navigator: Navigator, model: PeripheralViewModel, openAdvertisement: @escaping (String) -> Void) {
        self.navigator = navigator
        self.model = model
        self.openAdvertisement = openAdvertisement
        frame = PageFrame(title: L10n.tr("Act as a Device"), backButton: true)
        var presets: [(String, String)] = []
        for (i, preset) in PeripheralViewModel.presets.enumerated() {
            presets.append((PeripheralViewModel.presetTitle(preset), "peripheral.add::\(i)"))
        }
        addMenu = MenuButton(icon: "list-add-symbolic", accessibleName: L10n.tr("Add Advertisement"), titledSections: [(nil, presets)])
        // Import… and Export… in the main menu: a narrow window's title ("Als Gerät auftreten") then fits.
        menu = PrimaryMenu.make(page: [(L10n.tr("_Import…"), "peripheral.import"), (L10n.tr("_Export…"), "peripheral.export")])
        frame.header.packStart(addMenu)
        frame.header.packEnd(menu)
        unavailable = StatusPage(icon: "bluetooth-disabled-symbolic", title: L10n.tr("This Source Cannot Act as a Device"))
        // The way out: a source with a radio, chosen where the sources are.
        let chooseSource = Button(label: L10n.tr("_Choose Another Source…"), mnemonic: true)
        chooseSource.css("pill", "suggested-action")
        chooseSource.action("win.source-preferences")
        _ = chooseSource.align(.center, .center)
        unavailable.setChild(chooseSource)
        server = PeripheralServerSection(model: model, openEditor: { [weak navigator] in navigator?.showServer() })
        centrals = PeripheralCentralsSection()

        let heading = Label(L10n.tr("Advertisements")).xalign(0)
        heading.css("heading")
        summary.css("dim-text")
        summary.expand(horizontal: true, vertical: false)
        adapterDetails.css("flat")
        adapterDetails.action("win.adapter-preferences")
        _ = adapterDetails.align(.end, .center)
        let summaryLine = Box(vertical: false, spacing: 6).append(summary, adapterDetails)
        emptyAdvertisements.css("dim-text")
        let column = Box(vertical: true, spacing: 12)
        column.append(heading, summaryLine, emptyAdvertisements, advertisementList, server.root, centrals.root)
        column.margins(18)
        content.add(unavailable, name: "unavailable")
        content.add(ScrolledWindow(child: Clamp(maximumSize: 640, child: column)), name: "page")
        lostBanner = Banner(buttonLabel: L10n.tr("_Try Again")) { [weak self] in
            guard let self else { return }
            Task { await self.model.tryAgain() }
        }
        frame.root.append(lostBanner.root)
        frame.setContent(content)

        let actions = ActionGroup(on: frame.root, prefix: "peripheral")
        actions.addTargeted("add") { [weak self] index in
            guard let self, let i = Int(index), PeripheralViewModel.presets.indices.contains(i) else { return }
            let id = self.model.add(PeripheralViewModel.presets[i])
            // A custom advertisement is made to be edited; a preset goes on the list, ready.
            if PeripheralViewModel.presets[i] == nil { self.open(id) } else { self.focusRow(id) }
        }
        actions.add("import") { [weak self] in self?.importFile() }
        actions.add("export") { [weak self] in self?.exportFile() }
        token = model.observe { [weak self] in self?.renderSoon() }
        render()
    }

    /// When the page last drew, and whether a drawing waits: a Send pressed thousands of times a
    /// second logs each one, and the page draws at most ten times a second, not once a press.
    private var lastRender = ContinuousClock.now
    private var renderPending = false
    private static let renderInterval: Duration = .milliseconds(100)

    private func renderSoon() {
        guard !renderPending else { return }
        let since = lastRender.duration(to: .now)
        guard since < Self.renderInterval else { return render() }
        renderPending = true
        Task { @MainActor [weak self] in
            try? await Task.sleep(for: Self.renderInterval - since)
            guard let self else { return }
            renderPending = false
            render()
        }
    }

    public var root: Widget { frame.root }

    public func pageDidAppear() { render() }

    public func adapt(narrow: Bool) { lostBanner.adapt(narrow: narrow) }

    private func render() {
        lastRender = .now
        if let reason = model.unavailable {
            unavailable.details = reason
            content.show("unavailable")
            addMenu.isVisible = false
            return
        }
        content.show("page")
        addMenu.isVisible = true
        lostBanner.show(model.lost.map { [$0] } ?? [])
        summary.text = model.adapterSummary
        summary.isVisible = !summary.text.isEmpty
        renderAdvertisements()
        server.render()
        centrals.render(model.centrals)
    }

    private func renderAdvertisements() {
        let rows = model.advertisements
        emptyAdvertisements.isVisible = rows.isEmpty
        advertisementList.isVisible = !rows.isEmpty
        settingSwitches = true
        defer { settingSwitches = false }
        for data in rows {
            let (row, toggle) = advertisementRows[data.id] ?? makeRow(data.id)
            row.title = data.title
            row.subtitle = data.problem ?? data.subtitle
            if data.problem != nil { row.css("warning") } else { row.removeCSS("warning") }
            toggle.isOn = data.isOn
            toggle.accessibleLabel(L10n.format("Send {}", data.title))
        }
        let order = rows.map(\.id)
        guard order != shownOrder else { return }
        // Only when advertisements came or went: rows that stay keep their widgets, and the focus.
        for id in shownOrder where !order.contains(id) {
            if let gone = advertisementRows.removeValue(forKey: id) { advertisementList.remove(gone.row) }
        }
        for id in order where !shownOrder.contains(id) { advertisementList.append(advertisementRows[id]!.row) }
        shownOrder = order
    }

    private func makeRow(_ id: String) -> (ActionRow, Switch) {
        let toggle = Switch(accessibleName: "")
        let row = ActionRow(title: "", subtitle: "", control: toggle)
        let next = Image()
        next.iconName = "go-next-symbolic"
        next.accessibleHidden()
        row.addSuffix(next)
        row.onActivated { [weak self] in self?.open(id) }
        toggle.onToggled { [weak self] on in
            guard let self, !self.settingSwitches else { return }
            Task { await self.model.setOn(id, on) }
        }
        advertisementRows[id] = (row, toggle)
        return (row, toggle)
    }

    private func open(_ id: String) {
        render()
        opened = (id, shownOrder.firstIndex(of: id) ?? 0)
        openAdvertisement(id)
    }

    /// Back from an advertisement's page: where it was removed there, the focus goes to the row
    /// that took its place, else the one before, else Add Advertisement; never nowhere.
    public func restoreFocus() -> Bool {
        guard let (id, index) = opened else { return false }
        opened = nil
        render()
        guard advertisementRows[id] == nil else { return false }
        if !shownOrder.isEmpty, let row = advertisementRows[shownOrder[min(index, shownOrder.count - 1)]]?.row {
            row.grabFocus()
        } else {
            addMenu.grabFocus()
        }
        return true
    }

    /// Puts the keyboard on an advertisement's row (one just added).
    private func focusRow(_ id: String) {
        render()
        advertisementRows[id]?.row.grabFocus()
    }

    private func importFile() {
        guard let navigator else { return }
        let dialog = SaveFileDialog(parent: navigator.parentWindow, title: L10n.tr("Import Advertisements and Server"),
                                    acceptLabel: L10n.tr("_Import"), cancelLabel: L10n.tr("_Cancel"), suggestedName: "",
                                    filters: [.init(name: L10n.tr("JSON (*.json)"), pattern: "*.json")], opening: true)
        dialog.present { [weak self] path, _ in
            guard let self, let path else { return }
            guard let data = FileManager.default.contents(atPath: path) else {
                return navigator.toast(L10n.format("“{}” could not be read.", DeviceText.isolated(path)), button: nil, action: nil)
            }
            let name = (path as NSString).lastPathComponent
            switch self.model.readImport(String(decoding: data, as: UTF8.self), fileName: name) {
            case .problem(let problem):
                Self.tell(navigator, L10n.tr("Nothing Was Imported"), L10n.format("{} — {}", DeviceText.isolated(name), problem))
            case .ready(let setup):
                PendingSetupFlow.run(setup, navigator: navigator) { [weak navigator] text in navigator?.toast(text, button: nil, action: nil) }
            }
        }
    }

    private func exportFile() {
        guard let navigator else { return }
        let text = model.exportText
        let dialog = SaveFileDialog(parent: navigator.parentWindow, title: L10n.tr("Export Advertisements and Server"),
                                    acceptLabel: L10n.tr("_Save"), cancelLabel: L10n.tr("_Cancel"),
                                    suggestedName: L10n.tr("FavBlue device") + ".json",
                                    filters: [.init(name: L10n.tr("JSON (*.json)"), pattern: "*.json")])
        dialog.present { path, _ in
            guard let path else { return }
            do {
                try text.write(toFile: path, atomically: true, encoding: .utf8)
                navigator.toast(L10n.format("Exported to “{}”", DeviceText.isolated((path as NSString).lastPathComponent)), button: nil, action: nil)
            } catch {
                Self.tell(navigator, L10n.tr("Not Exported"),
                          L10n.format("“{}” could not be written: {}", DeviceText.isolated(path), error.localizedDescription))
            }
        }
    }

    /// A dialog with one Close button, for what went wrong and what to do.
    static func tell(_ navigator: Navigator, _ heading: String, _ body: String) {
        let dialog = MessageDialog(parent: navigator.parentWindow, heading: heading, body: body)
        dialog.addResponse("close", label: L10n.tr("_Close"))
        dialog.setDefault("close", close: "close")
        dialog.present()
    }
}
