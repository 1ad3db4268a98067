// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import Localization

/// What the HCI route needs to pair: the cryptography, the bonds as its threads read them, and
/// where a new bond is kept and an old one deleted (the owner of the bonds).
public struct HCISecurity: Sendable {
    public let crypto: any PairingCrypto
    public let keyring: HCIKeyring
    public let keep: @Sendable (Bond) async throws -> Void
    public let forget: @Sendable (DeviceID) async throws -> Void

    public init(crypto: any PairingCrypto, keyring: HCIKeyring, keep: @escaping @Sendable (Bond) async throws -> Void,
                forget: @escaping @Sendable (DeviceID) async throws -> Void) {
        self.crypto = crypto
        self.keyring = keyring
        self.keep = keep
        self.forget = forget
    }
}

/// Pairs through FavBlue's own Security Manager on an H4 link: connects if needed, pairs on
/// the connection, and keeps the bond in the store, so later links to the device are encrypted.
public final class HCIPairer: DevicePairer, @unchecked Sendable {
    public let prompts = Feed<PairingPromptEvent>()
    public let unavailableReason: String? = nil
    private let connector: HCILinkConnector
    private let security: HCISecurity
    private let lock = NSLock()
    private var nextID = 0
    /// The prompt on screen: its id and whether it is a display, which later key presses update.
    private var shown: (id: Int, display: Bool)?

    public init(connector: HCILinkConnector, security: HCISecurity) {
        self.connector = connector
        self.security = security
        connector.keyring = security.keyring
        let prompts = prompts
        security.keyring.onLost = { identity in prompts.yield(.keyLost(identity)) }
        security.keyring.onCodeWanted = { identity in prompts.yield(.codeWanted(identity)) }
        connector.onPairingRequest = { device in prompts.yield(.requested(device)) }
    }

    deinit { prompts.finish() }

    public func isPaired(_ device: DeviceID) -> Bool { security.keyring.bond(for: device) != nil }

    public func wantsCode(_ device: DeviceID) -> Bool {
        security.keyring.bond(for: device).map { security.keyring.wantsCode($0.identity) } ?? false
    }

    public func pairedTheOlderWay(_ device: DeviceID) -> Bool {
        security.keyring.bond(for: device).map { !$0.secureConnections } ?? false
    }

    public func declineRequest(_ device: DeviceID) async { connector.declinePairingRequest(from: device) }

    public func pair(_ device: DeviceID) async throws(PairingFailure) -> DeviceID {
        // Already bonded, unless the device wants a code the bond was made without: that pairs again.
        if let bond = security.keyring.bond(for: device), !security.keyring.wantsCode(bond.identity) { return bond.identity }
        let context = PairingContext(crypto: security.crypto, localIRK: security.keyring.local.irk) { [weak self] question in
            self?.ask(question, about: device)
        }
        let result = await connector.pair(device, context)
        withdraw(reason: nil)
        let (identity, bond) = try result.get()
        if let bond {
            do {
                try await security.keep(bond)
            } catch {
                throw .other(L10n.format("the keys could not be saved: {}", "\(error)"))
            }
        }
        prompts.yield(.changed)
        return identity
    }

    public func forget(_ device: DeviceID) async throws(PairingFailure) {
        guard let bond = security.keyring.storedBond(for: device) else { return }
        do {
            try await security.forget(bond.identity)
        } catch {
            throw .other(L10n.format("the keys could not be deleted: {}", "\(error)"))
        }
        prompts.yield(.changed)
    }

    public func cancelPairing(_ device: DeviceID) async { connector.cancelPairing() }

    private func ask(_ question: PairingQuestion, about device: DeviceID) {
        let isDisplay = if case .displayPasskey = question { true } else { false }
        let id: Int = lock.withLock {
            // A key typed on the device updates the code on screen; anything else is a new question.
            if let shown, shown.display, isDisplay { return shown.id }
            nextID += 1
            shown = (nextID, isDisplay)
            return nextID
        }
        let connector = connector
        prompts.yield(.ask(PairingPrompt(id: id, device: device, question: question) { answer in
            connector.answerPairing(answer)
        }))
    }

    private func withdraw(reason: String?) {
        guard let id = lock.withLock({ () -> Int? in defer { shown = nil }; return shown?.id }) else { return }
        prompts.yield(.withdrawn(id: id, reason: reason))
    }
}
