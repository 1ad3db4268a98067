// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import GtkKit
import Localization
import ViewModels

/// The one application window: the splash first, then a stack of pages with
/// slide transitions, and toasts over everything.
@MainActor
public final class MainWindow: Navigator {
    // MARK: Widgets
    /// The GTK window.
    public let window: Window
    private let outer = Stack(transition: .crossfade, durationMs: 400)
    private let pageStack = Stack(transition: .slideLeftRight, durationMs: 200)
    private let body = Box(vertical: true)
    /// The pages, with the notices floating over their foot as libadwaita's toasts do: a notice
    /// that comes and goes moves nothing on the page (the chat's entry stays where it is).
    private let pageOverlay: Overlay
    let notices = NoticeBar()
    /// Tells the pages when the window is too narrow for every header control.
    private let narrowBin: NarrowBin
    /// "Connected to NAME" under Favorites and the Scanner.
    private var connectionBar: ConnectionBar?
    private var bodyBuilt = false

    // MARK: Owned
    private var pages: [(name: String, page: Page)] = []
    private var pageCounter = 0
    private var splash: SplashView?
    private var splashToken: ObservationToken?
    private var leaving: [Page] = []
    /// Per page below the top: the widget that had focus when a page was opened over it.
    private var returnFocus: [ObjectIdentifier: Widget] = [:]

    // MARK: Borrowed
    private let application: Application
    private let settings: Settings?
    private let splashModel: SplashViewModel
    let factory: PageFactory

    /// Builds the window; it appears with `present()`.
    public init(application: Application, settings: Settings?, splash: SplashViewModel, pages: PageFactory) {
        self.application = application
        self.settings = settings
        self.splashModel = splash
        self.factory = pages
        window = Window(application: application)
        pageStack.expand()
        pageOverlay = Overlay(child: pageStack)
        body.append(pageOverlay)
        window.title = L10n.tr("FavBlue")
        window.setDefaultSize(width: settings?.int("window-width") ?? 720,
                              height: settings?.int("window-height") ?? 640)
        if settings?.bool("window-maximized") == true { window.maximize() }
        // Narrow phones and tiled windows: every page must work at 360 px.
        window.setMinimumSize(width: 360, height: 294)
        outer.add(body, name: "main")
        // Below about 500 px a header bar with a full title-bar layout (minimize, maximize,
        // close) leaves the title a few letters: pages then fold secondary controls into a menu.
        narrowBin = NarrowBin(child: outer, threshold: NarrowThreshold(narrowBelow: 500, margin: 40))
        // The window's own minimum (360 px) decides how narrow it gets, not the wide layout's.
        narrowBin.setMinimumWidth(0)
        window.setContent(narrowBin)

        installActions()
        narrowBin.onNarrowChanged { [weak self] narrow in
            guard let self else { return }
            if narrow { self.narrowBin.css("narrow") } else { self.narrowBin.removeCSS("narrow") }
            for page in self.pages.map(\.page) + self.leaving { page.adapt(narrow: narrow) }
            self.connectionBar?.adapt(narrow: narrow)
        }
        // Under the splash the home page is built once the window is up: the splash is all
        // that shows, and the first window appears sooner without it.
        if !splash.isShowing { ensureHome() }

        if splash.isShowing {
            let view = SplashView(model: splash)
            self.splash = view
            outer.add(view.root, name: "splash")
            outer.show("splash", transition: .instant)
            // The window itself is blue too, so no white frame shows before the splash.
            window.css("splash")
            splashToken = splash.observe { [weak self] in self?.endSplash() }
        } else {
            outer.show("main", transition: .instant)
        }

        window.onCloseRequest { [weak self] in self?.saveWindowState() }
    }

    /// Shows the window and starts the splash countdown.
    public func present() {
        window.present()
        if splashModel.isShowing {
            // After the splash's first frame, not before it: the frame clock paints at a lower
            // priority than queued work, so a page built at once would hold the first frame.
            window.onAfterPaint { [weak self] in
                self?.ensureHome()
                return false
            }
            splashModel.start()
        } else {
            homeAppears()
        }
    }

    /// The home page comes into view. GTK focuses the first control by itself, unseen, so the
    /// first Tab went to the second (Main Menu before +): nothing has focus until Tab.
    private func homeAppears() {
        window.clearFocus()
        pages.last?.page.pageDidAppear()
    }

    /// Whether the splash is on screen.
    public var isShowingSplash: Bool { outer.visibleName == "splash" }

    /// The name of the visible page's kind ("favorites", "scanner", "detail"), for tests.
    public var visiblePageKind: String? {
        pages.last.map { String($0.name.prefix { $0 != "-" }) }
    }

    /// The page on top, for tests.
    public var visiblePage: Page? { pages.last?.page }

    /// Whether the pages are in their narrow layout (for tests).
    public var isNarrow: Bool { narrowBin.isNarrow }

    /// How many pages are stacked.
    public var depth: Int { pages.count }

    private func endSplash() {
        ensureHome()
        outer.show("main")
        window.removeCSS("splash")
        splashToken = nil
        homeAppears()
        // Drop the splash widgets once the cross-fade has finished.
        Task { @MainActor [weak self] in
            try? await Task.sleep(nanoseconds: 600_000_000)
            guard let self, let view = self.splash else { return }
            self.outer.remove(view.root)
            self.splash = nil
        }
    }

    // MARK: Navigation

    private func push(_ page: Page, animated: Bool = true) {
        buildBody()
        pages.last?.page.pageWillBeCovered(by: page)
        if let focus = window.focusedWidget, let below = pages.last?.page { returnFocus[ObjectIdentifier(below)] = focus }
        pageCounter += 1
        let kind: String
        switch page {
        case is FavoritesPage: kind = "favorites"
        case is ScannerPage: kind = "scanner"
        case is ChatPage: kind = "chat"
        case is PeripheralPage: kind = "peripheral"
        case is AdvertisementPage: kind = "advertisement"
        case is ServerPage: kind = "server"
        default: kind = "detail"
        }
        let name = "\(kind)-\(pageCounter)"
        if narrowBin.isNarrow { page.adapt(narrow: true) }
        pages.append((name, page))
        let hadFocus = window.focusedWidget != nil
        pageStack.add(page.root, name: name)
        pageStack.show(name, transition: animated ? .slideLeft : .instant)
        updateConnectionBar()
        if !isShowingSplash && animated {
            // The stack moves a focus it had into the new page; with none yet (the home page opens
            // unfocused, and assistive technology presses without focusing) the page gets it too,
            // or its keys (Ctrl+F, Esc) would reach nothing.
            if !hadFocus { page.root.focusFirst() }
            page.pageDidAppear()
        }
    }

    /// Builds the home page if the splash has kept it waiting.
    private func ensureHome() {
        buildBody()
        if pages.isEmpty { push(factory.favorites(self), animated: false) }
    }

    /// The connection bar under the pages and the notices over their foot, made with the first page: under the
    /// splash they would only be styled for nothing before the first frame.
    private func buildBody() {
        guard !bodyBuilt else { return }
        bodyBuilt = true
        if let bar = factory.connectionBar?(self) {
            connectionBar = bar
            bar.adapt(narrow: narrowBin.isNarrow)
            body.append(bar.root)
        }
        pageOverlay.add(notices.root)
    }

    public func showScanner() {
        ensureHome()
        if let index = pages.firstIndex(where: { $0.page is ScannerPage }) {
            // Already open below: go back to it rather than stacking a second scanner.
            while pages.count > index + 1 { goBack() }
            return
        }
        push(factory.scanner(self))
    }

    public func showDetail(of device: DeviceID) {
        ensureHome()
        push(factory.detail(self, device))
    }

    public func showDetail(of device: DeviceID, replacing old: DeviceID) {
        guard let index = pages.firstIndex(where: { ($0.page as? DeviceDetailPage)?.device == old }) else { return }
        let (_, page) = pages[index]
        let replacement = factory.detail(self, device)
        pageCounter += 1
        let name = "detail-\(pageCounter)"
        if narrowBin.isNarrow { replacement.adapt(narrow: true) }
        pages[index] = (name, replacement)
        pageStack.add(replacement.root, name: name)
        if index == pages.count - 1 {
            page.pageWillDisappear()
            pageStack.show(name, transition: .instant)
            replacement.pageDidAppear()
            (replacement as? DeviceDetailPage)?.focusPairing()
        }
        pageStack.remove(page.root)
    }

    public func showChat(with device: DeviceID) {
        ensureHome()
        if let index = pages.firstIndex(where: { ($0.page as? ChatPage)?.device == device }) {
            while pages.count > index + 1 { goBack() }
            return
        }
        guard let chat = factory.chat?(self, device) else { return }
        push(chat)
    }

    public func showPeripheral() {
        ensureHome()
        if let index = pages.firstIndex(where: { $0.page is PeripheralPage }) {
            while pages.count > index + 1 { goBack() }
            return
        }
        guard let page = factory.peripheral?(self) else { return }
        push(page)
    }

    public func showAdvertisement(_ id: String) {
        guard let page = factory.advertisement?(self, id) else { return }
        push(page)
    }

    /// Asks for a network device's address, then opens its Device Manager.
    func showNetworkDevice() {
        guard let make = factory.networkDevice else { return }
        NetworkDevicePage.ask(navigator: self) { [weak self] target, typed in
            guard let self else { return }
            push(make(self, target, typed))
        }
    }

    public func showServer() {
        guard let page = factory.server?(self) else { return }
        push(page)
    }

    /// What Export exports: the list page in view, or under the detail or chat page on top.
    var exportScope: ExportScope {
        let list = pages.reversed().first { $0.page is ScannerPage || $0.page is FavoritesPage }?.page
        return list is ScannerPage ? .scanner : .favorites
    }

    /// The connection bar belongs under Favorites and the Scanner only.
    private func updateConnectionBar() {
        let top = pages.last?.page
        connectionBar?.setPageAllows(top is FavoritesPage || top is ScannerPage)
    }

    /// The connection bar, for tests.
    public var connectionBarView: ConnectionBar? { connectionBar }

    public func goBack() {
        if isShowingSplash {
            splashModel.skip()
            return
        }
        if pages.last?.page.consumeBack() == true { return }
        guard pages.count > 1 else { return }
        let (_, top) = pages.removeLast()
        top.pageWillDisappear()
        pageStack.show(pages.last!.name, transition: .slideRight)
        updateConnectionBar()
        pages.last?.page.pageDidAppear()
        // Focus goes back to what opened the page (a row, a Details button), if it is still shown.
        if let below = pages.last?.page, let focus = returnFocus.removeValue(forKey: ObjectIdentifier(below)),
           !below.restoreFocus(), focus.isShownInWindow {
            focus.grabFocus()
        }
        // Keep the old page alive until the slide has finished, then drop it.
        leaving.append(top)
        Task { @MainActor [weak self] in
            try? await Task.sleep(nanoseconds: 400_000_000)
            guard let self, let index = self.leaving.firstIndex(where: { $0 === top }) else { return }
            self.pageStack.remove(top.root)
            self.leaving.remove(at: index)
        }
    }

    public func toast(_ text: String, button: String?, action: (() -> Void)?) {
        notices.show(text, buttonLabel: button, action: action, above: visiblePage?.footer?.allocatedHeight ?? 0)
    }

    public func toast(_ text: String, undo: @escaping () -> Void) {
        notices.show(text, buttonLabel: L10n.tr("_Undo"), action: undo, undoable: true,
                     above: visiblePage?.footer?.allocatedHeight ?? 0)
    }

    public var parentWindow: Window { window }

    private func saveWindowState() {
        guard let settings else { return }
        let maximized = window.isMaximized
        settings.set("window-maximized", bool: maximized)
        if !maximized {
            let size = window.defaultSize
            settings.set("window-width", int: size.width)
            settings.set("window-height", int: size.height)
        }
    }
}
