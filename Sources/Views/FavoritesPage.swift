// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import GtkKit
import Localization
import ViewModels

/// The home page: the user's favorite devices, or a placeholder when there are none.
@MainActor
public final class FavoritesPage: Page {
    // MARK: Widgets
    private let frame: PageFrame
    private let content = Stack(transition: .crossfade, durationMs: 150)
    private let empty: StatusPage
    private let emptyAdd = Button(label: L10n.tr("Add New Devices"))
    private let banner: Banner
    private let demoNote = Label()
    private var list: KeyedListView<DeviceRowView>!
    private var controls: DeviceListControls!
    private var presenceTicker: Task<Void, Never>?

    // MARK: Borrowed
    private weak var navigator: Navigator?
    /// Pair and Forget in a row's menu.
    private let pairingActions: PairingActionsViewModel?
    private let model: FavoritesViewModel

    // MARK: Owned
    private var token: ObservationToken?
    private let rowLayout = DeviceRowLayout()

    /// Creates the page over `model`.
    public init(navigator: Navigator, model: FavoritesViewModel, pairing: PairingActionsViewModel? = nil) {
        pairingActions = pairing
        self.navigator = navigator
        self.model = model
        frame = PageFrame(title: L10n.tr("FavBlue"), backButton: false)
        // Icon-only, so the header fits a 360 px window in every language.
        let add = Button(icon: "list-add-symbolic", accessibleName: L10n.tr("Add New Devices"))
        add.action("win.add-devices")
        frame.header.packStart(add)
        frame.header.packEnd(PrimaryMenu.make(export: L10n.tr("_Export Favorites…")))

        empty = StatusPage(icon: "favblue-heart-outline-symbolic", title: L10n.tr("No Favorites Yet"),
                           description: L10n.tr("Devices you add from the scanner appear here under the names you give them."))
        emptyAdd.css("pill", "suggested-action").align(.center, .center)
        emptyAdd.action("win.add-devices")
        empty.setChild(emptyAdd)

        // It turns only for a wait one notices: the favorites are read in a few milliseconds, and a
        // spinner shown for one frame is noise that also holds the first frame while its icon loads.
        let loading = Spinner()
        loading.accessibleLabel(L10n.tr("Loading favorites")).align(.center, .center).sizeRequest(width: 32, height: 32)

        banner = Banner(onDismiss: { [weak model] in model?.dismissMessages() })
        let pool = DeviceButtonPool(onHeart: { [weak self] in self?.confirmRemoval(key: $0, from: .heart) },
                                    onDetails: { [weak self] in self?.showDetails(key: $0) })
        list = KeyedListView(
            accessibleName: L10n.tr("Favorites"),
            makeRow: { [rowLayout] in
                let row = DeviceRowView(pool: pool, layout: rowLayout)
                return (row, row.root)
            },
            bind: { [weak self] row, key in self?.bind(row, key) },
            // As on the Scanner: a row opens its device's page. Rename is F2 and the row's menu.
            activate: { [weak self] key in self?.showDetails(key: key) })
        list.list.onKeyPressed { [weak self] key, _ in self?.handleKey(key) ?? false }
        controls = DeviceListControls(list: list, pool: pool) { [weak self] key in
            var sections = [[(L10n.tr("_Rename…"), "favorites.rename::\(key)"), (L10n.tr("_Details"), "favorites.details::\(key)")]]
            if let id = try? DeviceID(storageKey: key), let label = self?.pairingActions?.menuLabel(for: id) {
                sections.append([(label, "favorites.pair::\(key)")])
            }
            sections.append([(L10n.tr("_Remove…"), "favorites.remove::\(key)")])
            return sections
        }
        let actions = ActionGroup(on: frame.root, prefix: "favorites")
        actions.addTargeted("rename") { [weak self] in self?.rename(key: $0) }
        actions.addTargeted("details") { [weak self] in self?.showDetails(key: $0) }
        actions.addTargeted("remove") { [weak self] in self?.confirmRemoval(key: $0, from: .row) }
        actions.addTargeted("pair") { [weak self] key in
            guard let self, let id = try? DeviceID(storageKey: key), let pairing = self.pairingActions,
                  let navigator = self.navigator else { return }
            PairingRowActions.run(id, key: key, pairing: pairing, navigator: navigator) { [weak self] in self?.controls.focusRow(key) }
        }

        content.add(loading, name: "loading")
        content.add(empty, name: "empty")
        content.add(list.root, name: "list")
        demoNote.xalign(0).wrap().margins(12)
        let column = Box(vertical: true).append(banner.root, demoNote, content)
        content.expand()
        frame.setContent(column)

        model.onToast = { [weak self] toast in
            guard let self else { return }
            if toast.undoable {
                self.navigator?.toast(toast.text, undo: { [weak self] in
                    guard let model = self?.model else { return }
                    // The keyboard goes to the row that came back, not to where the toast was.
                    Task { [weak self] in
                        guard let id = await model.undoRemove() else { return }
                        self?.controls.focusRow(id.storageKey)
                    }
                })
            } else {
                self.navigator?.toast(toast.text, button: nil, action: nil)
            }
        }
        token = model.observe { [weak self] in self?.render() }
        render()
        Task { [weak model] in await model?.load() }
        Task { [weak model, loading] in
            try? await Task.sleep(for: .milliseconds(500))
            if model?.isLoading == true { loading.isSpinning = true }
        }
    }

    public var root: Widget { frame.root }

    public func pageDidAppear() {
        Task { [weak model] in await model?.load() }
        // "Last seen 2 min ago" must not stay "2 min" while the page is open.
        if presenceTicker == nil {
            presenceTicker = Task { [weak self] in
                while !Task.isCancelled {
                    try? await Task.sleep(nanoseconds: 15_000_000_000)
                    guard let self else { return }
                    self.model.refreshPresence()
                }
            }
        }
    }

    isolated deinit { presenceTicker?.cancel() }

    public func adapt(narrow: Bool) {
        rowLayout.isNarrow = narrow
        banner.adapt(narrow: narrow)
    }

    // MARK: Rendering

    private var shownRows: [String: FavoritesViewModel.Row] = [:]

    private func render() {
        banner.show(model.messages)
        demoNote.text = model.demoNote ?? ""
        demoNote.isVisible = model.demoNote != nil
        if model.isLoading {
            content.show("loading")
            return
        }
        let rows = model.rows
        let keys = rows.map(\.id.storageKey)
        // A focused row that goes (removed) hands the focus to the row that takes its place,
        // never to a button inside it: a second Enter must not remove another favorite.
        let focused = list.focusedKey
        let focusedAt = focused.flatMap { list.currentKeys.firstIndex(of: $0) }
        content.show(model.isEmpty ? "empty" : "list")
        let changed = Set(rows.filter { shownRows[$0.id.storageKey] != $0 }.map(\.id.storageKey))
        shownRows = Dictionary(uniqueKeysWithValues: rows.map { ($0.id.storageKey, $0) })
        list.update(keys, changed: changed)
        if let focused, let focusedAt, !keys.contains(focused) { focusInstead(at: focusedAt, of: keys) }
    }

    /// Focuses the row now at `index` (or the last one), or Add New Devices when none is left.
    private func focusInstead(at index: Int, of keys: [String]) {
        if keys.isEmpty {
            emptyAdd.grabFocus()
        } else {
            controls.focusRow(keys[min(index, keys.count - 1)])
        }
    }

    private func bind(_ row: DeviceRowView, _ key: String) {
        guard let data = shownRows[key] else { return }
        row.show(DeviceRowContent(title: data.title, titleIsPlaceholder: data.isUnnamed, subtitle: data.subtitle,
                                  identifier: DeviceRowContent.Identifier(data.id, ownName: data.ownName), isFavorite: true, note: data.presence,
                                  briefNote: data.narrowPresence, battery: data.battery, batteryIcon: data.batteryIcon), key: key)
    }

    // MARK: Actions

    private func device(_ key: String) -> DeviceID? { try? DeviceID(storageKey: key) }

    private func rename(key: String) {
        guard let id = device(key), let navigator else { return }
        let name = model.favorite(id)?.displayName ?? id.address
        FavoriteDialogs.rename(id, name: name, parent: navigator.parentWindow, favorites: model)
            .onClosed { [weak self] in self?.controls.focusRow(key) }
    }

    /// Where focus goes back to after the removal dialog: what opened it.
    private enum Opener { case row, heart }

    private func confirmRemoval(key: String, from opener: Opener) {
        guard let id = device(key), let navigator else { return }
        let index = list.currentKeys.firstIndex(of: key) ?? 0
        FavoriteDialogs.remove(id, parent: navigator.parentWindow, favorites: model)
            .onClosed { [weak self] in
                guard let self else { return }
                // Removed already: the row that took its place.
                guard self.list.currentKeys.contains(key) else { return self.focusInstead(at: index, of: self.list.currentKeys) }
                switch opener {
                case .heart: self.controls.returnFocusToHeart(of: key)
                case .row: self.controls.focusRow(key)
                }
            }
    }

    private func showDetails(key: String) {
        guard let id = device(key) else { return }
        navigator?.showDetail(of: id)
    }

    private func handleKey(_ pressed: Key) -> Bool {
        switch pressed {
        case .delete, .keypadDelete:
            guard let key = list.focusedKey else { return false }
            confirmRemoval(key: key, from: .row)
            return true
        case .f2:
            guard let key = list.focusedKey else { return false }
            rename(key: key)
            return true
        default:
            return false
        }
    }
}
