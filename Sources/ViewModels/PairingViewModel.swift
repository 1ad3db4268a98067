// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import Localization

/// One device's pairing, for its detail page: the state in words, Pair and Forget.
@MainActor
public final class DevicePairingViewModel {
    public let device: DeviceID
    private let pairing: Pairing
    private let name: @MainActor (DeviceID) -> String
    private let observers = ChangeObservers()
    private var token: ObservationToken?

    public init(device: DeviceID, pairing: Pairing, name: @escaping @MainActor (DeviceID) -> String) {
        self.device = device
        self.pairing = pairing
        self.name = name
        token = pairing.observe { [weak self] in self?.observers.notify() }
    }

    public func observe(_ handler: @escaping @MainActor () -> Void) -> ObservationToken { observers.observe(handler) }

    public var state: Pairing.State { pairing.state(of: device) }

    /// "Paired", "Not paired", "Pairing…", "Removing the bond…".
    public var stateText: String {
        switch state {
        case .paired where pairing.isPairedTheOlderWay(device): return L10n.tr("Paired the older way")
        case .paired: return L10n.tr("Paired")
        case .notPaired: return L10n.tr("Not paired")
        case .pairedWithoutCode: return L10n.tr("Paired without a code")
        case .pairing: return L10n.tr("Pairing…")
        case .forgetting: return L10n.tr("Removing the bond…")
        }
    }

    /// Why this route cannot pair, said once under the buttons; nil when it can.
    public var unavailableReason: String? { pairing.unavailableReason }
    public var canPair: Bool { unavailableReason == nil && (state == .notPaired || state == .pairedWithoutCode) }
    /// The last failure, what a weaker bond means, or why pairing cannot work here.
    public var message: String? { pairing.failures[device] ?? olderWayNote ?? unavailableReason }

    /// Said under a bond made by LE legacy pairing.
    private var olderWayNote: String? {
        guard pairing.isPairedTheOlderWay(device) else { return nil }
        return L10n.tr("This bond was made with LE legacy pairing, which is weaker: someone who recorded the pairing could read what passes between you. Forget it and pair again if the device offers more.")
    }
    /// The identity pairing moved this device to, once it did.
    public var movedTo: DeviceID? {
        let current = pairing.current(device)
        return current == device ? nil : current
    }

    // Accessible names: a screen reader reads the name, so no isolates around it.
    public var pairLabel: String {
        state == .pairedWithoutCode ? L10n.format("Pair again with {}", DeviceText.shown(name(device)))
            : L10n.format("Pair with {}", DeviceText.shown(name(device)))
    }
    public var forgetLabel: String { L10n.format("Forget {}", DeviceText.shown(name(device))) }

    /// The question Forget asks first, and what it says goes.
    public var forgetQuestion: (heading: String, body: String) { Self.forgetQuestion(name: name(device)) }

    static func forgetQuestion(name: String) -> (heading: String, body: String) {
        (L10n.format("Forget {}?", DeviceText.isolated(name)),
         L10n.tr("The keys shared with this device are removed, here and in the system’s Bluetooth settings. Its favorite, nickname and chat stay. To recognise it when its address changes, pair again."))
    }

    public func pair() {
        Task { await pairing.pair(device) }
    }

    public func forget() {
        Task { await pairing.forget(device) }
    }

    public func cancel() { pairing.cancel(device) }

    public var cancelLabel: String { L10n.format("Cancel pairing with {}", DeviceText.shown(name(device))) }
}

/// The one pairing question on screen, in words and with its checks.
@MainActor
public final class PairingPromptViewModel {
    /// What the dialog shows.
    public struct Dialog: Equatable, Sendable {
        public enum Kind: Equatable, Sendable {
            /// Confirm or Cancel.
            case confirm
            /// An entry for six digits.
            case passkey
            /// An entry for a PIN.
            case pin
            /// Shows a code; only Cancel.
            case display
            /// The device asks to pair: Pair or Not Now.
            case request
        }
        /// Changes only for a new question, not for an update of the one shown.
        public let id: Int
        public let kind: Kind
        public let heading: String
        public let body: String
        /// "5 of 6 digits typed", for a display that counts.
        public let progress: String?
    }

    private let pairing: Pairing
    private let name: @MainActor (DeviceID) -> String
    private let observers = ChangeObservers()
    private var token: ObservationToken?

    public init(pairing: Pairing, name: @escaping @MainActor (DeviceID) -> String) {
        self.pairing = pairing
        self.name = name
        token = pairing.observe { [weak self] in self?.observers.notify() }
    }

    public func observe(_ handler: @escaping @MainActor () -> Void) -> ObservationToken { observers.observe(handler) }

    /// Six digits, zero-padded, with a thin gap in the middle: "012 345".
    public static func code(_ passkey: UInt32) -> String {
        let digits = String(format: "%06u", passkey % 1_000_000)
        return String(digits.prefix(3)) + " " + String(digits.suffix(3))
    }

    public var dialog: Dialog? {
        guard let prompt = pairing.prompt else { return nil }
        let device = DeviceText.isolated(name(prompt.device))
        let heading = L10n.format("Pair with {}", device)
        switch prompt.question {
        case .confirm(let passkey):
            return Dialog(id: prompt.id, kind: .confirm, heading: heading,
                          body: L10n.format("Does {} show {}? Confirm only if the numbers match.", device, Self.code(passkey)),
                          progress: nil)
        case .enterPasskey:
            return Dialog(id: prompt.id, kind: .passkey, heading: heading,
                          body: L10n.format("Type the six digits that {} shows.", device), progress: nil)
        case .enterPin:
            return Dialog(id: prompt.id, kind: .pin, heading: heading,
                          body: L10n.format("Type the PIN of {}. Its manual gives it; many devices use 0000.", device),
                          progress: nil)
        case .displayPasskey(let passkey, let typed):
            let progress = typed.map { min($0, 6) }.map {
                L10n.plural("{} of 6 digits typed", "{} of 6 digits typed", $0)
            }
            return Dialog(id: prompt.id, kind: .display, heading: heading,
                          body: L10n.format("Type {} on {}, then press Enter on it.", Self.code(passkey), device),
                          progress: progress)
        case .displayPin(let pin):
            return Dialog(id: prompt.id, kind: .display, heading: heading,
                          body: L10n.format("Type {} on {}, then press Enter on it.", DeviceText.shown(pin), device),
                          progress: nil)
        case .pairingRequested:
            return Dialog(id: prompt.id, kind: .request, heading: L10n.format("{} asks to pair", device),
                          body: L10n.tr("Pairing lets FavBlue recognise the device whatever address it uses, and protects the connection. Pair only if you expect this device to ask."),
                          progress: nil)
        }
    }

    /// What is wrong with `text` as typed so far, or nil when it can be sent.
    public func problem(_ text: String, kind: Dialog.Kind) -> String? {
        switch kind {
        case .passkey:
            if text.contains(where: { !("0"..."9").contains($0) }) { return L10n.tr("Only digits, 0 to 9.") }
            if text.count != 6 { return L10n.tr("Six digits, as the device shows them.") }
            return nil
        case .pin:
            // BlueZ's rule for a classic PIN: 1 to 16 letters or digits.
            if text.isEmpty { return L10n.tr("Type the PIN.") }
            if text.count > 16 || text.contains(where: { !($0.isASCII && ($0.isLetter || $0.isNumber)) }) {
                return L10n.tr("A PIN has up to 16 letters or digits.")
            }
            return nil
        case .confirm, .display, .request:
            return nil
        }
    }

    public func confirm(_ id: Int) { pairing.answer(.confirmed, to: id) }
    public func decline(_ id: Int) { pairing.answer(.declined, to: id) }


    /// Sends what was typed, if it passes the check; false (nothing sent) when it does not.
    @discardableResult
    public func submit(_ text: String, kind: Dialog.Kind, to id: Int) -> Bool {
        guard problem(text, kind: kind) == nil else { return false }
        switch kind {
        case .passkey:
            guard let value = UInt32(text) else { return false }
            pairing.answer(.passkey(value), to: id)
        case .pin:
            pairing.answer(.pin(text), to: id)
        case .confirm, .request:
            pairing.answer(.confirmed, to: id)
        case .display:
            return false
        }
        return true
    }
}

/// Pair and Forget for any row of a device list: the menu item a device gets, and the intents.
@MainActor
public final class PairingActionsViewModel {
    private let pairing: Pairing
    private let name: @MainActor (DeviceID) -> String

    public init(pairing: Pairing, name: @escaping @MainActor (DeviceID) -> String) {
        self.pairing = pairing
        self.name = name
    }

    /// "Pair" or "Forget…" for `device`; nil where this source cannot pair, or while it pairs.
    public func menuLabel(for device: DeviceID) -> String? {
        guard pairing.unavailableReason == nil else { return nil }
        switch pairing.state(of: device) {
        case .notPaired: return L10n.tr("_Pair")
        case .pairedWithoutCode: return L10n.tr("_Pair Again")
        case .paired: return L10n.tr("_Forget…")
        case .pairing, .forgetting: return nil
        }
    }

    public func isPaired(_ device: DeviceID) -> Bool { pairing.state(of: device) == .paired }

    /// Pairs with `device`; `onFailure` gets the reason in a sentence.
    public func pair(_ device: DeviceID, onFailure: @escaping @MainActor (String) -> Void) {
        Task {
            if case .failure = await pairing.pair(device), let text = pairing.failures[device] {
                onFailure(L10n.format("{}: {}", DeviceText.isolated(name(device)), text))
            }
        }
    }

    /// The question Forget asks first.
    public func forgetQuestion(for device: DeviceID) -> (heading: String, body: String) {
        DevicePairingViewModel.forgetQuestion(name: name(device))
    }

    public func forget(_ device: DeviceID) {
        Task { await pairing.forget(device) }
    }
}
