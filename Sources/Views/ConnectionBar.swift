// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import GtkKit
import Localization
import ViewModels

/// The bar under Favorites and the Scanner while a device is connected (or connecting):
/// "Connected to NAME", Open Chat with the unread badge, and Disconnect.
@MainActor
public final class ConnectionBar {
    // MARK: Widgets
    /// The bar; hidden while there is no connection.
    public let root = Box(vertical: false, spacing: 6)
    private let spinner = Spinner()
    private let status = Label().xalign(0)
    private let chatLabel = Label(L10n.tr("Open Chat"))
    private let badge = Label()
    private let openChat: Button
    /// Says what it does in words: an X would read as "dismiss the bar".
    private let disconnect = Button(label: L10n.tr("Disconnect"))
    private let buttons = Box(vertical: false, spacing: 6)

    // MARK: Borrowed
    private weak var navigator: Navigator?
    private let model: ConnectionViewModel

    // MARK: Owned
    private var token: ObservationToken?
    private var pageAllows = true
    private var badgeText: String?

    /// Creates the bar over the app's one connection.
    public init(navigator: Navigator, model: ConnectionViewModel) {
        self.navigator = navigator
        self.model = model
        badge.css("favblue-badge", "numeric")
        badge.accessibleHidden()
        openChat = Button(child: Box(vertical: false, spacing: 6).append(chatLabel, badge))
        openChat.css("pill", "suggested-action")
        disconnect.css("pill")
        status.wrap()
        status.expand(horizontal: true, vertical: false)
        buttons.append(openChat, disconnect)
        buttons.align(.end, .center)
        root.append(Box(vertical: false, spacing: 6).append(spinner, status).expand(horizontal: true, vertical: false), buttons)
        root.css("favblue-connection-bar", "toolbar")
        root.accessibleLabel(L10n.tr("Connection"))
        openChat.onClicked { [weak self] in self?.showChat() }
        disconnect.onClicked { [weak self] in self?.end() }
        token = model.observe { [weak self] in self?.render() }
        render()
    }

    /// In a narrow window the buttons go under the words, so the bar needs no more than the
    /// narrowest page (side by side, a German bar wanted 427 px).
    public func adapt(narrow: Bool) { root.isVertical = narrow }

    /// The page on top decides whether the bar belongs there (Favorites, Scanner).
    public func setPageAllows(_ allows: Bool) {
        pageAllows = allows
        render()
    }

    /// The badge as shown ("3", "..."), nil when hidden (for tests).
    public var shownBadge: String? { badgeText }

    /// The bar's text (for tests).
    public var statusText: String { status.text }

    private func render() {
        let state = model.state
        guard let device = state.device, pageAllows else {
            root.isVisible = false
            return
        }
        root.isVisible = true
        let name = model.name(of: device)
        let connecting: Bool
        switch state {
        case .connecting:
            connecting = true
            status.text = L10n.format("Connecting to {}…", DeviceText.isolated(name))
        case .disconnecting:
            connecting = true
            status.text = L10n.format("Disconnecting from {}…", DeviceText.isolated(name))
        default:
            connecting = false
            status.text = L10n.format("Connected to {}", DeviceText.isolated(name))
        }
        spinner.isVisible = connecting
        spinner.isSpinning = connecting
        openChat.isVisible = state.canChat
        openChat.accessibleLabel(L10n.format("Open chat with {}", name))
        badgeText = model.badge
        badge.text = badgeText ?? ""
        badge.isVisible = badgeText != nil
        openChat.accessibleDescription(model.unread == 0 ? L10n.tr("No unread messages") : model.unreadDescription)
        let endName = connecting ? L10n.format("Cancel connecting to {}", name) : L10n.format("Disconnect from {}", name)
        disconnect.setLabel(connecting ? L10n.tr("Cancel") : L10n.tr("Disconnect"))
        disconnect.accessibleLabel(endName)
    }

    private func showChat() {
        guard let device = model.state.device else { return }
        navigator?.showChat(with: device)
    }

    private func end() {
        if case .connecting = model.state { model.cancel() } else { model.disconnect() }
    }
}
