// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation
import Localization

/// The owner of pairing: which device is pairing, the one question on screen, and what a
/// finished pairing moves. A private address that pairing shows to be an identity hands its
/// favorite, nickname, sightings, hidden mark and chat to that identity.
@MainActor
public final class Pairing {
    /// Where a device stands, in the words the page shows.
    public enum State: Equatable, Sendable {
        case notPaired
        case pairing
        case paired
        /// Paired without a code (Just Works), and the device wants one: pair again.
        case pairedWithoutCode
        case forgetting
    }

    /// How long a question waits for the user before pairing gives up.
    public static let answerTime: Duration = .seconds(30)

    private var pairer: DevicePairer
    private let mover: RecordsMover?
    private let clock: any Clock<Duration>
    private let observers = ChangeObservers()
    private var listening: Task<Void, Never>?
    private var busy: [DeviceID: State] = [:]
    private var expiry: Task<Void, Never>?

    /// The question shown now, if any. Only one at a time.
    public private(set) var prompt: PairingPrompt?
    /// Why the last question closed without an answer from here (the device cancelled, time ran out).
    public private(set) var promptClosedReason: String?
    /// Private addresses whose identity pairing revealed: old → identity, so open pages follow.
    private var moves: [DeviceID: DeviceID] = [:]
    /// The last failure per device, said under its Pair button until it pairs or tries again.
    public private(set) var failures: [DeviceID: String] = [:]
    /// The question closed last without a reason, because pairing ended first: the system's
    /// reason for ending it (BlueZ's Cancel) can still come after, and is said then.
    private var closedUnexplained: (id: Int, device: DeviceID)?
    /// The id of the last device request asked.
    private var nextRequest = 0

    /// Runs before a device's records move, to write what still waits for the store.
    public var beforeMove: ((_ old: DeviceID) async -> Void)?
    /// Runs after a device's records moved to its identity, for the owners that keep them in memory.
    public var onMoved: ((_ old: DeviceID, _ identity: DeviceID) async -> Void)?
    /// A sentence for a notice: pairing ended, or the bond was removed.
    public var onNotice: ((String) -> Void)?

    public init(pairer: DevicePairer, mover: RecordsMover?, clock: any Clock<Duration> = ContinuousClock()) {
        self.pairer = pairer
        self.mover = mover
        self.clock = clock
        listen()
    }

    /// Calls `handler` after every change: a state, a question, a move.
    public func observe(_ handler: @escaping @MainActor () -> Void) -> ObservationToken { observers.observe(handler) }

    /// Takes another route's pairer (the source changed).
    public func replace(pairer new: DevicePairer) {
        close(reason: nil, answering: .declined)
        listening?.cancel()
        pairer = new
        busy = [:]
        listen()
        observers.notify()
    }

    /// Why pairing cannot work on this route, for the page to say before anyone tries.
    public var unavailableReason: String? { pairer.unavailableReason }

    /// The identity `device` is known by now: itself, unless pairing moved it.
    public func current(_ device: DeviceID) -> DeviceID {
        var id = device
        var seen: Set<DeviceID> = []
        while let next = moves[id], seen.insert(id).inserted { id = next }
        return id
    }

    public func state(of device: DeviceID) -> State {
        if let state = busy[device] { return state }
        if pairer.wantsCode(device) { return .pairedWithoutCode }
        return pairer.isPaired(device) ? .paired : .notPaired
    }

    /// Whether `device` is paired, by LE legacy pairing: weaker than Secure Connections.
    public func isPairedTheOlderWay(_ device: DeviceID) -> Bool {
        state(of: device) == .paired && pairer.pairedTheOlderWay(device)
    }

    /// Pairs with `device`, asking the user what the device asks. Returns the identity, or the failure.
    @discardableResult
    public func pair(_ device: DeviceID) async -> Result<DeviceID, PairingFailure> {
        guard busy[device] == nil else { return .failure(.other(L10n.tr("pairing is under way already."))) }
        busy[device] = .pairing
        failures[device] = nil
        observers.notify()
        let result: Result<DeviceID, PairingFailure>
        do {
            result = .success(try await pairer.pair(device))
        } catch .alreadyPaired {
            result = .success(device)
        } catch {
            result = .failure(error)
        }
        if let open = prompt, open.device == device {
            close(reason: nil, answering: .declined)
            if case .failure(.declined) = result { closedUnexplained = (open.id, device) }
        }
        busy[device] = nil
        switch result {
        case .success(let identity):
            if identity != device { await move(device, to: identity) }
        case .failure(.declined):
            failures[device] = L10n.tr("Pairing was cancelled.")
        case .failure(let failure):
            failures[device] = L10n.format("Pairing failed: {}", failure.message)
        }
        observers.notify()
        return result
    }

    /// Calls off the pairing with `device`, closing its question.
    public func cancel(_ device: DeviceID) {
        guard busy[device] == .pairing else { return }
        if prompt?.device == device { close(reason: nil, answering: .declined, callingOff: false) }
        let pairer = self.pairer
        Task { await pairer.cancelPairing(device) }
    }

    /// Removes the bond with `device`; its favorite and chat stay.
    @discardableResult
    public func forget(_ device: DeviceID) async -> PairingFailure? {
        guard busy[device] == nil else { return .other(L10n.tr("pairing is under way already.")) }
        busy[device] = .forgetting
        observers.notify()
        var failure: PairingFailure?
        do {
            try await pairer.forget(device)
        } catch {
            failure = error
            failures[device] = L10n.format("The bond could not be removed: {}", error.message)
        }
        busy[device] = nil
        observers.notify()
        return failure
    }

    /// Answers the question on screen and closes it; with `id`, only if that question is still the one shown.
    public func answer(_ answer: PairingAnswer, to id: Int? = nil) {
        guard id == nil || prompt?.id == id else { return }
        close(reason: nil, answering: answer)
    }

    // MARK: Questions

    private func listen() {
        let prompts = pairer.prompts
        listening = Task { @MainActor [weak self] in
            for await event in prompts {
                guard let self else { return }
                switch event {
                case .ask(let prompt): self.ask(prompt)
                case .withdrawn(let id, let reason):
                    if self.prompt?.id == id {
                        self.close(reason: reason, answering: nil)
                    } else if let reason, let unexplained = self.closedUnexplained, unexplained.id == id {
                        self.explainLate(reason, device: unexplained.device)
                    }
                case .changed:
                    self.observers.notify()
                case .keyLost(let device):
                    self.failures[device] = L10n.tr(
                        "The device no longer has the key it shared with FavBlue: it was reset, or paired with another computer. Pair again to encrypt the connection.")
                    self.observers.notify()
                case .codeWanted(let device):
                    self.failures[device] = L10n.tr(
                        "The device wants a pairing protected by a code, and this one was made without (no number was shown). Pair again, and confirm the number or type the code.")
                    self.observers.notify()
                case .requested(let device):
                    self.requested(device)
                }
            }
        }
    }

    /// A device's own request to pair: asked like any question, once; yes pairs on the link
    /// it came over, no (or no answer) tells the device.
    private func requested(_ device: DeviceID) {
        // Pairing with it already answers it.
        guard busy[device] == nil else { return }
        guard prompt == nil else {
            // One question at a time: the device hears no for now, and may ask again.
            let pairer = self.pairer
            Task { await pairer.declineRequest(device) }
            return
        }
        // The pairer numbers its questions from 1; a request's count down, so the two never meet.
        nextRequest -= 1
        ask(PairingPrompt(id: nextRequest, device: device, question: .pairingRequested) { [weak self] answer in
            Task { @MainActor in self?.answerRequest(from: device, answer) }
        })
    }

    private func answerRequest(from device: DeviceID, _ answer: PairingAnswer) {
        if answer == .confirmed {
            Task { await pair(device) }
        } else {
            let pairer = self.pairer
            Task { await pairer.declineRequest(device) }
        }
    }

    /// A central pairing with FavBlue acting as a device asks through the same dialog.
    public func askForCentral(_ prompt: PairingPrompt) { ask(prompt) }

    private func ask(_ new: PairingPrompt) {
        if let shown = prompt, shown.id != new.id, shown.question.wantsAnswer {
            // One dialog at a time: a second question while one waits is refused.
            new.answer(.declined)
            return
        }
        let updating = prompt?.id == new.id
        prompt = new
        promptClosedReason = nil
        if !updating { startExpiry(for: new.id) }
        observers.notify()
    }

    private func startExpiry(for id: Int) {
        expiry?.cancel()
        let clock = self.clock
        expiry = Task { @MainActor [weak self] in
            do { try await clock.sleep(for: Self.answerTime) } catch { return }
            guard let self, self.prompt?.id == id else { return }
            self.close(reason: L10n.tr("No answer came within 30 seconds, so pairing was cancelled."), answering: .declined)
        }
    }

    private func close(reason: String?, answering answer: PairingAnswer?, callingOff: Bool = true) {
        guard let shown = prompt else { return }
        expiry?.cancel()
        expiry = nil
        prompt = nil
        promptClosedReason = reason
        closedUnexplained = nil
        if let answer { shown.answer(answer) }
        // A code shown for typing on the device has no answer to refuse: cancelling calls pairing off.
        if callingOff, answer == .declined, !shown.question.wantsAnswer, busy[shown.device] == .pairing {
            let pairer = self.pairer
            Task { await pairer.cancelPairing(shown.device) }
        }
        if let reason { onNotice?(reason) }
        observers.notify()
    }

    /// The system's reason for a question that closed when its pairing failed, arriving after
    /// the failure: said as it would have been had it come first, in the notice and on the row.
    private func explainLate(_ reason: String, device: DeviceID) {
        closedUnexplained = nil
        promptClosedReason = reason
        if busy[device] == nil { failures[device] = reason }
        onNotice?(reason)
        observers.notify()
    }

    // MARK: Moving to the identity

    private func move(_ old: DeviceID, to identity: DeviceID) async {
        await beforeMove?(old)
        do {
            try await mover?.moveRecords(from: old, to: identity)
        } catch {
            onNotice?(L10n.format("The device’s favorite and chat could not be moved to its identity address: {}", "\(error)"))
            return
        }
        moves[old] = identity
        await onMoved?(old, identity)
    }
}
