// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import GtkKit
import Localization
import ViewModels

/// The chat with one device: its history in a virtualized list, newest at the bottom, read a
/// page at a time as the reader scrolls up, and an entry to write to it (sent while connected).
@MainActor
public final class ChatPage: Page {
    /// How many messages stay listed while the page follows the newest.
    public static let shownWhileFollowing = 1000

    // MARK: Widgets
    private let frame: PageFrame
    private let content = Stack(transition: .crossfade, durationMs: 150)
    private var list: KeyedListView<ChatRowView>!
    private let empty: StatusPage
    private let connect = Button(label: L10n.tr("Connect"))
    private let reason = Label().xalign(0).wrap()
    private let entry = Entry(accessibleName: L10n.tr("Message"))
    /// The entry, Send and the reason a message cannot be sent.
    private let bottom = Box(vertical: true, spacing: 6)
    public var footer: Widget? { bottom }
    private let send = Button(label: L10n.tr("Send"))

    // MARK: Borrowed
    private weak var navigator: Navigator?
    private let model: ChatViewModel

    // MARK: Owned
    private var token: ObservationToken?
    private var scrolledOnce = false

    /// The device this chat is with.
    public var device: DeviceID { model.device }

    /// Creates the page over `model` and starts loading its history.
    public init(navigator: Navigator, model: ChatViewModel) {
        self.navigator = navigator
        self.model = model
        frame = PageFrame(title: model.title, backButton: true)
        connect.css("suggested-action")
        frame.header.packEnd(PrimaryMenu.make())
        frame.header.packEnd(connect)

        let loading = Spinner()
        loading.isSpinning = true
        loading.accessibleLabel(L10n.tr("Loading messages")).align(.center, .center).sizeRequest(width: 32, height: 32)
        empty = StatusPage(icon: "mail-send-symbolic", title: L10n.tr("No Messages Yet"),
                           description: L10n.tr("Messages you exchange with this device are kept here."))

        list = KeyedListView(
            accessibleName: L10n.tr("Messages"),
            makeRow: { [weak model] in
                let row = ChatRowView(onRetry: { id in model?.retry(id) })
                return (row, row.root)
            },
            bind: { [weak self] row, key in self?.bind(row, key) },
            // Enter on a message that was not sent sends it again, as its Retry does.
            activate: { [weak model] key in
                guard let model, case .message(let message)? = model.item(key), message.delivery == .notSent else { return }
                model.retry(message.id)
            },
            // A click on a message is for reading it (or selecting), never for sending it again.
            singleClick: false)
        list.list.css("favblue-chat")
        // One Tab stop, with the arrows inside, each message named: a long chat is not a
        // hundred stops, and the day lines are read, not stopped at.
        list.list.tabLeavesAtOnce()
        // Older messages come in a page at a time as the reader nears the top.
        list.keepsStartInView = false
        list.followEnd()
        list.onNearStart(within: 600) { [weak self] in self?.loadOlder() }

        content.add(loading, name: "loading")
        content.add(empty, name: "empty")
        content.add(list.root, name: "messages")
        content.expand()

        reason.css("caption", "dim-text")
        entry.placeholder(L10n.tr("Message"))
        entry.expand(horizontal: true, vertical: false)
        send.css("suggested-action")
        send.accessibleLabel(L10n.tr("Send"))
        let composer = Box(vertical: false, spacing: 6).append(entry, send)
        bottom.append(reason, composer)
        bottom.margins(12)
        bottom.css("favblue-composer")
        frame.setContent(Box(vertical: true).append(content, bottom))

        entry.onActivate { [weak self] in self?.sendEntry() }
        entry.onChanged { [weak self] _ in self?.renderSend() }
        send.onClicked { [weak self] in self?.sendEntry() }
        entry.onKeyPressed(beforeChildren: true) { [weak self] key, modifiers in
            guard let self, key == .up, modifiers.isDisjoint(with: [.shift, .control, .alt]), self.entry.text.isEmpty, let last = self.model.lastSent else { return false }
            self.entry.text = last
            self.entry.moveCursorToEnd()
            return true
        }
        connect.onClicked { [weak self] in self?.model.connect() }
        token = model.observe { [weak self] in self?.render() }
        render()
        Task { [weak model] in await model?.load() }
    }

    public var root: Widget { frame.root }

    public func pageDidAppear() {
        model.appear()
        entry.grabFocus()
        if !model.isLoading { list.scrollToEnd() }
    }

    public func pageWillDisappear() { model.disappear() }

    /// Whether the history has loaded and is listed (for the benchmark).
    public var hasLoaded: Bool { !model.isLoading }

    /// Scrolls the history by `delta` pixels (for the benchmark).
    public func scroll(by delta: Double) { list.scroll(by: delta) }

    /// The keys shown, for tests.
    public var shownKeys: [String] { list.currentKeys }

    /// The entry as a user finds it: open to typing, holding the focus, and what it holds; for tests.
    public var composer: (editable: Bool, focused: Bool, text: String) { (entry.isSensitive, entry.holdsFocus, entry.text) }

    /// Types `text` into the entry and presses Enter, for tests.
    public func typeAndEnter(_ text: String) {
        entry.text = text
        sendEntry()
    }

    /// Whether the newest message's row is on screen at the bottom of the view, for tests.
    public var showsNewest: Bool {
        guard let last = list.currentKeys.last else { return true }
        return list.row(showing: last) != nil && list.isAtEnd(slack: 1)
    }

    private func render() {
        frame.header.titleLabel.title = model.title
        frame.header.titleLabel.subtitle = model.subtitle
        let name = model.title
        connect.isVisible = model.canConnect
        connect.accessibleLabel(L10n.format("Connect to {}", name))
        let canSend = model.canSend
        entry.isSensitive = model.canCompose
        renderSend()
        reason.text = model.sendBlockedReason ?? ""
        reason.isVisible = model.sendBlockedReason != nil || model.loadProblem != nil
        if let problem = model.loadProblem { reason.text = problem + (reason.text.isEmpty ? "" : "\n" + reason.text) }
        if model.isLoading {
            content.show("loading")
            return
        }
        content.show(model.keys.isEmpty ? "empty" : "messages")
        let follow = !scrolledOnce || list.isFollowingEnd
        // Following the newest: the oldest rows go, and come back as older pages when scrolled to.
        if follow { model.keepNewest(Self.shownWhileFollowing) }
        let grew = model.keys.count != list.count
        let changed = model.changedKeys
        list.update(model.keys, isChanged: { changed.contains($0) })
        if follow && (grew || !scrolledOnce) {
            scrolledOnce = true
            list.scrollToEnd()
        }
        if canSend, navigator?.parentWindow.focusedWidget == nil { entry.grabFocus() }
    }

    /// Send is only as active as it looks: connected, and with something to send.
    private func renderSend() {
        send.isSensitive = model.canSend && !entry.text.isEmpty
    }

    private func bind(_ row: ChatRowView, _ key: String) {
        switch model.item(key) {
        case .day(let day): row.showDay(model.dayTitle(day))
        case .message(let message): row.show(message, sender: model.title, failure: model.failure(of: message.id))
        case nil: break
        }
    }

    private func loadOlder() {
        guard model.hasOlder, !model.isLoading else { return }
        Task { [weak model] in await model?.loadOlder() }
    }

    private func sendEntry() {
        if model.send(entry.text) {
            entry.text = ""
        } else if !model.canSend {
            // Not connected: the words stay for when it is, and the line under the entry says why.
            entry.errorBell()
        }
    }
}
