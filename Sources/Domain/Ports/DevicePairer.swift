// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation
import Localization

/// What a device asks of the user while pairing.
public enum PairingQuestion: Equatable, Sendable {
    /// Both show a number: does the device show `passkey`?
    case confirm(passkey: UInt32)
    /// The device shows six digits for the user to type here.
    case enterPasskey
    /// A classic device wants its PIN typed.
    case enterPin
    /// Type `passkey` on the device; `typed` keys pressed there so far, where it says.
    case displayPasskey(passkey: UInt32, typed: Int?)
    /// Type `pin` on the device.
    case displayPin(String)
    /// The device asks to be paired (a Security Request): pair, or not now.
    case pairingRequested

    /// Whether the user's answer is awaited; a display only waits for the device.
    public var wantsAnswer: Bool {
        switch self {
        case .confirm, .enterPasskey, .enterPin, .pairingRequested: return true
        case .displayPasskey, .displayPin: return false
        }
    }
}

/// The user's answer to a `PairingQuestion`.
public enum PairingAnswer: Equatable, Sendable {
    case confirmed
    case passkey(UInt32)
    case pin(String)
    case declined
}

/// One question from one device; `answer` may be called once, from any thread.
public struct PairingPrompt: Sendable, Identifiable {
    /// Tells a repeated display (a key typed on the device) from a new question.
    public let id: Int
    public let device: DeviceID
    public let question: PairingQuestion
    public let answer: @Sendable (PairingAnswer) -> Void

    public init(id: Int, device: DeviceID, question: PairingQuestion, answer: @escaping @Sendable (PairingAnswer) -> Void) {
        self.id = id
        self.device = device
        self.question = question
        self.answer = answer
    }
}

/// What a pairer tells while it pairs.
public enum PairingPromptEvent: Sendable {
    /// Show `prompt`; one with the id of the one shown updates it in place.
    case ask(PairingPrompt)
    /// The question was taken back (the device or the system cancelled); `reason` says why.
    case withdrawn(id: Int, reason: String?)
    /// Something the pages show changed outside a pairing: a device paired or removed in the
    /// system's Bluetooth settings, or the route's service came or went.
    case changed
    /// `device` no longer has the key it shared (it was reset, or paired elsewhere): it reads
    /// Not paired, and the page says why and offers Pair again.
    case keyLost(DeviceID)
    /// `device`, not bonded, asks to be paired (once per connection); the page asks the user.
    case requested(DeviceID)
    /// `device` refused a request that needs a pairing protected by a code, and its bond was
    /// made without one (Just Works): the page offers to pair again.
    case codeWanted(DeviceID)
}

/// Why pairing did not happen, in the user's words.
public enum PairingFailure: Error, Equatable, Sendable {
    /// The user said no, or closed the dialog.
    case declined
    /// Nobody answered within the time allowed.
    case timedOut
    /// The device refused.
    case rejected
    /// The codes did not match, or a key check failed.
    case authenticationFailed
    /// The device went away mid-pairing.
    case connectionLost
    /// Already paired; nothing to do.
    case alreadyPaired
    /// The route cannot pair, with the reason.
    case unavailable(String)
    /// Anything else, in the system's words.
    case other(String)

    /// One sentence, after "Pairing failed: ".
    public var message: String {
        switch self {
        case .declined: return L10n.tr("pairing was cancelled.")
        case .timedOut: return L10n.tr("no answer came within 30 seconds.")
        case .rejected: return L10n.tr("the device refused to pair.")
        case .authenticationFailed: return L10n.tr("the codes did not match. Try again and compare them carefully.")
        case .connectionLost: return L10n.tr("the device went out of reach. Bring it closer and try again.")
        case .alreadyPaired: return L10n.tr("the device is already paired.")
        case .unavailable(let reason): return reason
        case .other(let detail): return detail
        }
    }
}

/// Pairs and forgets devices through one route. Pages never learn which.
public protocol DevicePairer: AnyObject, Sendable {
    /// Questions for the user, while a pairing runs.
    var prompts: Feed<PairingPromptEvent> { get }
    /// Why this route cannot pair at all (a replay, the demo), for the page to say; nil when it can.
    var unavailableReason: String? { get }
    /// Whether `device` is paired now.
    func isPaired(_ device: DeviceID) -> Bool
    /// Pairs with `device`. On success, returns the identity the device revealed (its public or
    /// static address), which is `device` itself when it already used it.
    func pair(_ device: DeviceID) async throws(PairingFailure) -> DeviceID
    /// Removes the bond with `device`.
    func forget(_ device: DeviceID) async throws(PairingFailure)
    /// Calls off a pairing with `device` under way; its `pair` then fails with `.declined`.
    func cancelPairing(_ device: DeviceID) async
    /// Answers `device`'s own request to pair with no, so it is not left waiting.
    func declineRequest(_ device: DeviceID) async
    /// Whether `device` is bonded without the protection of a code, and refused something for it.
    func wantsCode(_ device: DeviceID) -> Bool
    /// Whether the bond with `device` was made by LE legacy pairing, which a listener who
    /// recorded the pairing can break (Core v5.4, Vol 3, Part H, §2.3.5.5); false where the route cannot tell.
    func pairedTheOlderWay(_ device: DeviceID) -> Bool
}

extension DevicePairer {
    /// Routes whose system answers a device's own requests (BlueZ) have nothing to send.
    public func declineRequest(_ device: DeviceID) async {}
    public func wantsCode(_ device: DeviceID) -> Bool { false }
    public func pairedTheOlderWay(_ device: DeviceID) -> Bool { false }
}

/// A route with no pairing: says why, once.
public final class UnavailablePairer: DevicePairer {
    public let unavailableReason: String?
    public let prompts = Feed<PairingPromptEvent>.finished

    public init(reason: String) { unavailableReason = reason }

    public func isPaired(_ device: DeviceID) -> Bool { false }
    public func pair(_ device: DeviceID) async throws(PairingFailure) -> DeviceID {
        throw .unavailable(unavailableReason ?? "")
    }
    public func forget(_ device: DeviceID) async throws(PairingFailure) {
        throw .unavailable(unavailableReason ?? "")
    }
    public func cancelPairing(_ device: DeviceID) async {}
}
