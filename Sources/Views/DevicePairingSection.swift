// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import GtkKit
import Localization
import ViewModels

/// The detail page's pairing row: "Paired" or "Not paired", Pair, and Forget after asking.
/// What went wrong, or why this source cannot pair, is said under it. The focus stays on the
/// row's controls as Pair turns into Forget and back.
@MainActor
final class DevicePairingSection {
    let root = Box(vertical: true, spacing: 6)
    private let list = PropertyList(accessibleName: L10n.tr("Pairing"))
    private let row = PropertyRow(title: L10n.tr("Pairing"))
    private let spinner = Spinner()
    private let pair = Button(label: L10n.tr("Pair"))
    private let forget = Button(label: L10n.tr("Forget"))
    private let cancel = Button(label: L10n.tr("Cancel Pairing"))
    private let message = Label()

    private let model: DevicePairingViewModel
    private weak var navigator: Navigator?
    private var token: ObservationToken?
    /// The focus was on a control that went while pairing or forgetting ran: it goes to the next one shown.
    private var keepFocus = false

    init(model: DevicePairingViewModel, navigator: Navigator) {
        self.model = model
        self.navigator = navigator
        for button in [pair, forget, cancel] {
            button.align(.center, .center)
            button.css("flat")
        }
        row.addSuffix(spinner)
        row.addSuffix(pair)
        row.addSuffix(forget)
        row.addSuffix(cancel)
        list.append(row)
        message.xalign(0).wrap()
        message.css("dim-text")
        root.append(list, message)
        pair.onClicked { [weak self] in
            // The focus stays with the row while pairing runs, whatever the dialog does with it.
            self?.keepFocus = true
            self?.model.pair()
        }
        forget.onClicked { [weak self] in self?.askForget() }
        cancel.onClicked { [weak self] in self?.model.cancel() }
        token = model.observe { [weak self] in self?.render() }
        render()
    }

    /// Puts the focus on the row's control (after the page followed a device to its identity).
    func focus() {
        [forget, cancel, pair].first { $0.isVisible && $0.isSensitive }?.grabFocus()
    }

    func render() {
        let controls = [pair, forget, cancel]
        let focusWasHere = controls.contains { $0.isWindowFocus }
        let state = model.state
        row.value = model.stateText
        pair.isVisible = state == .notPaired
        pair.isSensitive = model.canPair
        pair.accessibleLabel(model.pairLabel)
        forget.isVisible = state == .paired
        forget.accessibleLabel(model.forgetLabel)
        cancel.isVisible = state == .pairing
        cancel.accessibleLabel(model.cancelLabel)
        let busy = state == .pairing || state == .forgetting
        spinner.isVisible = busy
        spinner.isSpinning = busy
        let text = model.message
        message.text = text ?? ""
        message.isVisible = text != nil
        // The control in use turned into another (Pair → Cancel Pairing → Forget): the focus follows.
        if focusWasHere || keepFocus, !controls.contains(where: { $0.isWindowFocus && $0.isVisible }) {
            let next = [forget, cancel, pair].first { $0.isVisible && $0.isSensitive }
            next?.grabFocus()
            keepFocus = next == nil
        }
    }

    private func askForget() {
        guard let navigator else { return }
        PairingDialogs.confirmForget(parent: navigator.parentWindow, question: model.forgetQuestion,
                                     forget: { [weak self] in self?.model.forget() },
                                     closed: { [weak self] in
                                         self?.keepFocus = true
                                         self?.render()
                                     })
    }
}
