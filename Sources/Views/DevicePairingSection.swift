// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import GtkKit
import Localization
import ViewModels

/// The detail page's pairing row: "Paired" or "Not paired", and one button that reads Pair,
/// Cancel Pairing while pairing runs, then Forget (which asks first). One button, so the
/// keyboard focus stays on it as it changes. What went wrong, or why this source cannot pair,
/// is said under the row.
@MainActor
final class DevicePairingSection {
    let root = Box(vertical: true, spacing: 6)
    private let list = PropertyList(accessibleName: L10n.tr("Pairing"))
    private let row = PropertyRow(title: L10n.tr("Pairing"))
    private let spinner = Spinner()
    private let action = Button(label: L10n.tr("Pair"))
    private let message = Label()

    private let model: DevicePairingViewModel
    private weak var navigator: Navigator?
    private var token: ObservationToken?

    init(model: DevicePairingViewModel, navigator: Navigator) {
        self.model = model
        self.navigator = navigator
        action.align(.center, .center)
        action.css("flat")
        row.addSuffix(spinner)
        row.addSuffix(action)
        list.append(row)
        message.xalign(0).wrap()
        message.css("dim-text")
        root.append(list, message)
        action.onClicked { [weak self] in self?.act() }
        token = model.observe { [weak self] in self?.render() }
        render()
    }

    /// Whether Pair is the next step (the device refused the connection until paired): it is
    /// then drawn as the suggested action.
    var suggested = false {
        didSet { if suggested != oldValue { render() } }
    }

    /// Heard only by other rooms' gateways: Pair cannot reach it either, and the connection's
    /// note already says why, so no other reason (the demo's) is said here.
    var outOfReach = false {
        didSet { if outOfReach != oldValue { render() } }
    }

    /// Whether the row's button has the keyboard focus.
    var hasFocus: Bool { action.hasFocus }

    /// Puts the focus on the row's button (after the page followed a device to its identity).
    func focus() {
        if action.isSensitive { action.grabFocus() }
    }

    func render() {
        let state = model.state
        row.value = model.stateText
        switch state {
        case .notPaired, .pairedWithoutCode:
            action.setLabel(state == .notPaired ? L10n.tr("Pair") : L10n.tr("Pair Again"))
            action.accessibleLabel(model.pairLabel)
            action.isSensitive = model.canPair && !outOfReach
        case .pairing:
            action.setLabel(L10n.tr("Cancel Pairing"))
            action.accessibleLabel(model.cancelLabel)
            action.isSensitive = true
        case .paired, .forgetting:
            action.setLabel(L10n.tr("Forget"))
            action.accessibleLabel(model.forgetLabel)
            // Stays sensitive while the bond goes, so the focus stays; a second press does nothing.
            action.isSensitive = true
        }
        if (suggested || state == .pairedWithoutCode) && model.canPair {
            action.removeCSS("flat")
            action.css("suggested-action")
        } else {
            action.removeCSS("suggested-action")
            action.css("flat")
        }
        let busy = state == .pairing || state == .forgetting
        spinner.isVisible = busy
        spinner.isSpinning = busy
        let text = outOfReach ? nil : model.message
        message.text = text ?? ""
        message.isVisible = text != nil
    }

    private func act() {
        switch model.state {
        case .notPaired, .pairedWithoutCode: model.pair()
        case .pairing: model.cancel()
        case .paired: askForget()
        case .forgetting: break
        }
    }

    private func askForget() {
        guard let navigator else { return }
        PairingDialogs.confirmForget(parent: navigator.parentWindow, question: model.forgetQuestion,
                                     forget: { [weak self] in self?.model.forget() }, closed: {})
    }
}
