// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import GtkKit
import Localization
import ViewModels

/// The detail page's connection controls: Connect; while connecting Cancel, with a spinner by the note;
/// once connected Open Chat and Disconnect; Chat History for a device
/// with messages while it is not connected. The line under them says where the connection
/// stands ("Connected", "Disconnected: …"), or why not where it cannot. The keyboard focus
/// stays on the controls as they change.
@MainActor
final class DeviceConnectionSection {
    let root = Box(vertical: true, spacing: 8)
    private let spinner = Spinner()
    private let connect = Button(label: L10n.tr("Connect"))
    private let cancel = Button(label: L10n.tr("Cancel"))
    private let openChat = Button(label: L10n.tr("Open Chat"))
    private let disconnect = Button(label: L10n.tr("Disconnect"))
    private let history = Button(label: L10n.tr("Chat History"))
    private let note = Label().wrap().justifyCenter()
    /// What a note means in Bluetooth's words, smaller, for those who build devices.
    private let why = Label().wrap().justifyCenter()

    private let device: DeviceID
    private let model: ConnectionViewModel
    private weak var navigator: Navigator?
    private var token: ObservationToken?
    /// The page's title and whether the device takes connections, set by the page.
    private var name = ""
    private var connectable: Bool?
    /// Why only other rooms' sources hear it, if so: then this computer cannot connect.
    private var elsewhere: String?
    /// Whether there are messages to read with this device (stored, or of this session).
    private var hasHistory = false

    init(device: DeviceID, model: ConnectionViewModel, navigator: Navigator) {
        self.device = device
        self.model = model
        self.navigator = navigator
        connect.css("pill")
        openChat.css("pill", "suggested-action")
        cancel.css("pill")
        // Ending a link destroys nothing: a plain button.
        disconnect.css("pill")
        history.css("pill")
        let buttons = Box(vertical: false, spacing: 12).append(connect, cancel, openChat, disconnect, history)
        buttons.align(.center, .center)
        note.css("dim-text")
        why.css("caption", "dim-text")
        // The spinner by the words it qualifies ("Connecting to …"), not beside Cancel, where it
        // read as a second control.
        let status = Box(vertical: false, spacing: 6).append(spinner, note)
        status.align(.center, .center)
        root.append(buttons, status, why)
        connect.onClicked { [weak self] in self?.startConnecting() }
        cancel.onClicked { [weak self] in self?.model.cancel() }
        disconnect.onClicked { [weak self] in self?.model.disconnect() }
        for button in [openChat, history] {
            button.onClicked { [weak self] in
                guard let self else { return }
                self.navigator?.showChat(with: self.device)
            }
        }
        token = model.observe { [weak self] in self?.render() }
        Task { [weak self, model, device] in
            let found = await model.hasHistory(with: device)
            guard let self, found, !self.hasHistory else { return }
            self.hasHistory = true
            self.render()
        }
    }

    /// Updates the name in the controls' accessible names and whether the device takes connections.
    func update(name: String, connectable: Bool?, heardOnlyElsewhere: String? = nil) {
        guard name != self.name || connectable != self.connectable || heardOnlyElsewhere != elsewhere else { return }
        self.name = name
        self.connectable = connectable
        elsewhere = heardOnlyElsewhere
        render()
    }

    /// The note under the buttons (for tests).
    var noteText: String { note.text }

    private func startConnecting() {
        model.connect(to: device)
    }

    private func render() {
        // Which control had the focus, before any of them hides.
        let controls = [connect, cancel, openChat, disconnect, history]
        let focusWasHere = controls.contains { $0.hasFocus }
        let state = model.state
        let mine = state.device == device
        let connecting: Bool
        if case .connecting = state, mine { connecting = true } else { connecting = false }
        var connected = false
        if case .connected = state, mine { connected = true }
        // The real reason first: a device only gateways hear is out of this computer's reach,
        // whatever the connector would say of it.
        let unavailable = elsewhere ?? model.unavailableReason(for: device)
        let refused = connectable == false
        // Replayed captures and devices that do not take connections still show Connect, insensitive, with why,
        // and not in the accent colour of a next step.
        connect.isVisible = !mine
        connect.isSensitive = unavailable == nil && !refused
        if connect.isSensitive { connect.css("suggested-action") } else { connect.removeCSS("suggested-action") }
        connect.accessibleLabel(L10n.format("Connect to {}", name))
        spinner.isVisible = connecting
        spinner.isSpinning = connecting
        cancel.isVisible = connecting
        cancel.accessibleLabel(L10n.format("Cancel connecting to {}", name))
        openChat.isVisible = connected && state.canChat
        openChat.accessibleLabel(L10n.format("Open chat with {}", name))
        disconnect.isVisible = connected
        disconnect.accessibleLabel(L10n.format("Disconnect from {}", name))
        if model.hasMessagesThisSession(with: device) { hasHistory = true }
        history.isVisible = hasHistory && !(connected && state.canChat) && !connecting
        let unread = model.unread(of: device)
        // The label first: setting it names the button again.
        history.setLabel(unread == 0 ? L10n.tr("Chat History")
                         : L10n.plural("Chat History ({} unread)", "Chat History ({} unread)", unread))
        history.accessibleLabel(L10n.format("Chat history with {}", name))
        history.accessibleDescription(unread == 0 ? "" : L10n.plural("{} unread message", "{} unread messages", unread))

        var text: String?
        var reason: String?
        if let unavailable, !mine {
            text = unavailable
        } else if refused, !mine {
            text = device.kind.transport == .le ? L10n.tr("This device does not accept connections.")
                : L10n.tr("Only Bluetooth LE devices can be connected.")
        } else if connected, !state.canChat, model.hasDeviceManager {
            text = L10n.tr("Connected")
        } else if connected, !state.canChat {
            text = L10n.tr("Connected. This device has no chat.")
            reason = L10n.tr("It offers neither the FavBlue chat service nor the Nordic UART Service.")
        } else if connected {
            text = L10n.tr("Connected")
        } else if connecting {
            text = model.connectingNote ?? L10n.format("Connecting to {}…", DeviceText.isolated(name))
        } else if !mine, let ended = model.lastEnded, ended.device == device {
            text = ended.reason
        } else if !mine, let other = state.device {
            text = L10n.format("Connecting here ends the connection to {}.", DeviceText.isolated(model.name(of: other)))
        }
        note.text = text ?? ""
        note.isVisible = text != nil
        why.text = reason ?? ""
        why.isVisible = reason != nil
        if focusWasHere, !controls.contains(where: { $0.hasFocus && $0.isVisible }) {
            // The control in use went away: the focus goes to the next step, never to the page.
            let next = [openChat, disconnect, cancel, connect, history].first { $0.isVisible && $0.isSensitive }
            next?.grabFocus()
        }

    }
}
