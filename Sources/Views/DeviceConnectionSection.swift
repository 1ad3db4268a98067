// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import GtkKit
import Localization
import ViewModels

/// The detail page's connection controls: Connect; while connecting a spinner and Cancel;
/// once connected Open Chat, Disconnect and the GATT services found. Says why not where it cannot.
@MainActor
final class DeviceConnectionSection {
    let root = Box(vertical: true, spacing: 8)
    private let spinner = Spinner()
    private let connect = Button(label: L10n.tr("Connect"))
    private let cancel = Button(label: L10n.tr("Cancel"))
    private let openChat = Button(label: L10n.tr("Open Chat"))
    private let disconnect = Button(label: L10n.tr("Disconnect"))
    private let note = Label().wrap().justifyCenter()
    private let servicesHeading = Label(L10n.tr("Services on the Device")).xalign(0)
    private let servicesBox = Box(vertical: true, spacing: 2)
    private var serviceLabels: [Label] = []
    private var shownServices: [ServiceID] = []

    private let device: DeviceID
    private let model: ConnectionViewModel
    private weak var navigator: Navigator?
    private var token: ObservationToken?
    /// The page's title and whether the device takes connections, set by the page.
    private var name = ""
    private var connectable: Bool?

    init(device: DeviceID, model: ConnectionViewModel, navigator: Navigator) {
        self.device = device
        self.model = model
        self.navigator = navigator
        connect.css("pill", "suggested-action")
        openChat.css("pill", "suggested-action")
        cancel.css("pill")
        disconnect.css("pill", "destructive-action")
        let buttons = Box(vertical: false, spacing: 12).append(spinner, connect, cancel, openChat, disconnect)
        buttons.align(.center, .center)
        note.css("dim-text")
        servicesHeading.css("heading")
        servicesBox.accessibleLabel(L10n.tr("Services on the Device"))
        root.append(buttons, note, servicesHeading, servicesBox)
        connect.onClicked { [weak self] in self?.startConnecting() }
        cancel.onClicked { [weak self] in self?.model.cancel() }
        disconnect.onClicked { [weak self] in self?.model.disconnect() }
        openChat.onClicked { [weak self] in
            guard let self else { return }
            self.navigator?.showChat(with: self.device)
        }
        token = model.observe { [weak self] in self?.render() }
    }

    /// Updates the name in the controls' accessible names and whether the device takes connections.
    func update(name: String, connectable: Bool?) {
        guard name != self.name || connectable != self.connectable else { return }
        self.name = name
        self.connectable = connectable
        render()
    }

    /// The note under the buttons (for tests).
    var noteText: String { note.text }

    private func startConnecting() {
        model.connect(to: device)
    }

    private func render() {
        let state = model.state
        let mine = state.device == device
        let connecting: Bool
        if case .connecting = state, mine { connecting = true } else { connecting = false }
        var connected = false
        if case .connected = state, mine { connected = true }
        let unavailable = model.unavailableReason
        let refused = connectable == false
        // Replayed captures and devices that do not take connections still show Connect, insensitive, with why.
        connect.isVisible = !mine
        connect.isSensitive = unavailable == nil && !refused
        connect.accessibleLabel(L10n.format("Connect to {}", name))
        spinner.isVisible = connecting
        spinner.isSpinning = connecting
        cancel.isVisible = connecting
        cancel.accessibleLabel(L10n.format("Cancel connecting to {}", name))
        openChat.isVisible = connected && state.canChat
        openChat.accessibleLabel(L10n.format("Open chat with {}", name))
        disconnect.isVisible = connected
        disconnect.accessibleLabel(L10n.format("Disconnect from {}", name))

        var text: String?
        if let unavailable, !mine {
            text = unavailable
        } else if refused, !mine {
            text = device.kind.transport == .le ? L10n.tr("This device does not accept connections.")
                : L10n.tr("Only Bluetooth LE devices can be connected.")
        } else if connected, !state.canChat {
            text = L10n.tr("Connected, but this device offers neither the FavBlue chat service nor the Nordic UART Service, so there is no chat.")
        } else if connecting {
            text = L10n.format("Connecting to {}…", DeviceText.isolated(name))
        } else if !mine, let ended = model.lastEnded, ended.device == device {
            text = ended.reason
        } else if !mine, let other = state.device {
            text = L10n.format("Connecting here ends the connection to {}.", DeviceText.isolated(model.name(of: other)))
        }
        note.text = text ?? ""
        note.isVisible = text != nil

        let services = connected ? model.services : []
        servicesHeading.isVisible = !services.isEmpty
        servicesBox.isVisible = !services.isEmpty
        if services != shownServices {
            shownServices = services
            for label in serviceLabels { servicesBox.remove(label) }
            serviceLabels = services.map { service in
                let title = ChatService.allCases.first { $0.uuid == service.uuid.uppercased() }?.displayName ?? ServiceText.name(service)
                let label = Label(title == service.uuid ? title : L10n.format("{} ({})", title, service.uuid)).xalign(0).wrap()
                return label
            }
            for label in serviceLabels { _ = servicesBox.append(label) }
        }
    }
}
