// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Clocks
import Domain
import Foundation
import TestSupport
import XCTest

private actor RecordingMover: RecordsMover {
    private(set) var moves: [[DeviceID]] = []
    func moveRecords(from old: DeviceID, to new: DeviceID) { moves.append([old, new]) }
}

@MainActor
final class PairingTests: XCTestCase {
    private let band = TestDevices.id(0x5C, kind: .leRandom)
    private let other = TestDevices.id(0x60, kind: .leRandom)
    private let identity = TestDevices.id(0xF0, kind: .lePublic)

    private func settle(_ pairer: FakePairer) async {
        await pairer.prompts.applied()
    }

    private func waitUntilAsked(_ pairer: FakePairer) async {
        while !pairer.isWaiting { await Task.yield() }
    }

    func testADeviceThatLostItsKeySaysSoWhereItIsPaired() async {
        let pairer = FakePairer()
        let pairing = Pairing(pairer: pairer, mover: nil, clock: TestClock())
        pairer.prompts.yield(.keyLost(identity))
        await settle(pairer)
        XCTAssertEqual(pairing.failures[identity],
                       "The device no longer has the key it shared with FavBlue: it was reset, or paired with another computer. Pair again to encrypt the connection.")
        XCTAssertNil(pairing.failures[band], "only that device")
    }

    func testOneQuestionAtATimeAndASecondWhileOneWaitsIsRefused() async {
        let pairer = FakePairer()
        let pairing = Pairing(pairer: pairer, mover: nil, clock: TestClock())
        pairer.ask(1, band, .confirm(passkey: 4_321))
        pairer.ask(2, other, .enterPasskey)
        await settle(pairer)
        XCTAssertEqual(pairing.prompt?.id, 1)
        XCTAssertEqual(pairer.answers, [.declined], "the second question is refused, not stacked")
        pairing.answer(.confirmed, to: 2)
        XCTAssertEqual(pairing.prompt?.id, 1, "an answer meant for another question changes nothing")
        pairing.answer(.confirmed, to: 1)
        XCTAssertNil(pairing.prompt)
        XCTAssertEqual(pairer.answers, [.declined, .confirmed])
    }

    func testADisplayShownAgainUpdatesTheSameQuestion() async {
        let pairer = FakePairer()
        let pairing = Pairing(pairer: pairer, mover: nil, clock: TestClock())
        pairer.ask(3, band, .displayPasskey(passkey: 42, typed: 0))
        pairer.ask(3, band, .displayPasskey(passkey: 42, typed: 4))
        await settle(pairer)
        XCTAssertEqual(pairing.prompt?.question, .displayPasskey(passkey: 42, typed: 4))
        XCTAssertEqual(pairer.answers, [])
    }

    func testAQuestionLeftUnansweredFor30SecondsClosesAndSaysWhy() async {
        let clock = TestClock()
        let pairer = FakePairer()
        let pairing = Pairing(pairer: pairer, mover: nil, clock: clock)
        var notices: [String] = []
        pairing.onNotice = { notices.append($0) }
        pairer.ask(1, band, .confirm(passkey: 1))
        await settle(pairer)
        await clock.advance(by: .seconds(29))
        XCTAssertNotNil(pairing.prompt)
        await clock.advance(by: .seconds(1))
        // The expiry runs on the main actor once the clock lets it go: give it the turns it needs.
        for _ in 0..<10_000 where pairing.prompt != nil { await Task.yield() }
        XCTAssertNil(pairing.prompt)
        XCTAssertEqual(pairer.answers, [.declined])
        XCTAssertEqual(notices, ["No answer came within 30 seconds, so pairing was cancelled."])
    }

    func testWithdrawnByTheDeviceClosesWithItsReason() async {
        let pairer = FakePairer()
        let pairing = Pairing(pairer: pairer, mover: nil, clock: TestClock())
        pairer.ask(1, band, .confirm(passkey: 1))
        pairer.prompts.yield(.withdrawn(id: 1, reason: "The device or the system cancelled pairing."))
        await settle(pairer)
        XCTAssertNil(pairing.prompt)
        XCTAssertEqual(pairing.promptClosedReason, "The device or the system cancelled pairing.")
    }

    /// BlueZ calls the agent's Cancel, then fails Pair; the two reach the main actor in either order.
    func testTheSystemsReasonIsSaidWhenItsCancelArrivesAfterPairingFailed() async {
        let pairer = FakePairer()
        let pairing = Pairing(pairer: pairer, mover: nil, clock: TestClock())
        var notices: [String] = []
        pairing.onNotice = { notices.append($0) }
        let attempt = Task { await pairing.pair(band) }
        await waitUntilAsked(pairer)
        pairer.ask(7, band, .confirm(passkey: 999_999))
        await settle(pairer)
        pairer.finish(band, .failure(.declined))
        _ = await attempt.value
        XCTAssertNil(pairing.prompt, "the failed pairing closed its question")
        XCTAssertEqual(pairing.failures[band], "Pairing was cancelled.")
        pairer.prompts.yield(.withdrawn(id: 7, reason: "The device or the system cancelled pairing."))
        await settle(pairer)
        XCTAssertEqual(notices, ["The device or the system cancelled pairing."], "the late reason is said")
        XCTAssertEqual(pairing.promptClosedReason, "The device or the system cancelled pairing.")
        XCTAssertEqual(pairing.failures[band], "The device or the system cancelled pairing.", "and the row says it too")
        pairer.prompts.yield(.withdrawn(id: 7, reason: "The device or the system cancelled pairing."))
        await settle(pairer)
        XCTAssertEqual(notices.count, 1, "once")
    }

    func testPairingStatesAndAFailureInWords() async {
        let pairer = FakePairer()
        let pairing = Pairing(pairer: pairer, mover: nil, clock: TestClock())
        XCTAssertEqual(pairing.state(of: band), .notPaired)
        let attempt = Task { await pairing.pair(band) }
        await waitUntilAsked(pairer)
        XCTAssertEqual(pairing.state(of: band), .pairing)
        pairer.finish(band, .failure(.authenticationFailed))
        _ = await attempt.value
        XCTAssertEqual(pairing.state(of: band), .notPaired)
        XCTAssertEqual(pairing.failures[band], "Pairing failed: the codes did not match. Try again and compare them carefully.")
        let again = Task { await pairing.pair(band) }
        await waitUntilAsked(pairer)
        XCTAssertNil(pairing.failures[band], "trying again clears the old failure")
        pairer.finish(band, .success(band))
        _ = await again.value
        XCTAssertEqual(pairing.state(of: band), .paired)
    }

    func testCancelClosesTheQuestionAndCallsPairingOff() async {
        let pairer = FakePairer()
        let pairing = Pairing(pairer: pairer, mover: nil, clock: TestClock())
        let attempt = Task { await pairing.pair(band) }
        await waitUntilAsked(pairer)
        pairer.ask(1, band, .displayPasskey(passkey: 5, typed: nil))
        await settle(pairer)
        pairing.cancel(band)
        XCTAssertNil(pairing.prompt)
        while pairer.cancelled.isEmpty { await Task.yield() }
        XCTAssertEqual(pairer.cancelled, [band])
        pairer.finish(band, .failure(.declined))
        _ = await attempt.value
        XCTAssertEqual(pairing.failures[band], "Pairing was cancelled.")
        var notices: [String] = []
        pairing.onNotice = { notices.append($0) }
        pairer.prompts.yield(.withdrawn(id: 1, reason: "The device or the system cancelled pairing."))
        await settle(pairer)
        XCTAssertEqual(notices, [], "the system's Cancel that follows the user's is not blamed on the device")
    }

    func testARevealedIdentityMovesTheRecordsThenTellsTheOwnersAndOpenPagesFollow() async throws {
        let mover = RecordingMover()
        let pairer = FakePairer()
        let pairing = Pairing(pairer: pairer, mover: mover, clock: TestClock())
        var steps: [String] = []
        pairing.beforeMove = { _ in steps.append("write what waits") }
        pairing.onMoved = { old, new in steps.append("moved \(old == self.band) \(new == self.identity)") }
        let attempt = Task { await pairing.pair(band) }
        await waitUntilAsked(pairer)
        pairer.finish(band, .success(identity))
        let result = await attempt.value
        XCTAssertEqual(try result.get(), identity)
        let moves = await mover.moves
        XCTAssertEqual(moves, [[band, identity]])
        XCTAssertEqual(steps, ["write what waits", "moved true true"])
        XCTAssertEqual(pairing.current(band), identity)
        XCTAssertEqual(pairing.current(identity), identity)
        XCTAssertEqual(pairing.state(of: identity), .paired)
    }

    func testAnIdentityThatIsTheAddressItselfMovesNothing() async {
        let mover = RecordingMover()
        let pairer = FakePairer()
        let pairing = Pairing(pairer: pairer, mover: mover, clock: TestClock())
        let attempt = Task { await pairing.pair(identity) }
        await waitUntilAsked(pairer)
        pairer.finish(identity, .success(identity))
        _ = await attempt.value
        let moves = await mover.moves
        XCTAssertEqual(moves, [])
    }

    func testADevicesOwnRequestIsAskedOnceAndYesPairsIt() async {
        let pairer = FakePairer()
        let pairing = Pairing(pairer: pairer, mover: nil, clock: TestClock())
        pairer.prompts.yield(.requested(band))
        pairer.prompts.yield(.requested(other))
        await settle(pairer)
        XCTAssertEqual(pairing.prompt?.question, .pairingRequested)
        XCTAssertEqual(pairing.prompt?.device, band, "one question at a time")
        while pairer.declined.isEmpty { await Task.yield() }
        XCTAssertEqual(pairer.declined, [other], "the second device hears no for now, not nothing")
        pairing.answer(.confirmed, to: pairing.prompt?.id)
        await waitUntilAsked(pairer)
        XCTAssertEqual(pairing.state(of: band), .pairing, "yes pairs on the link the request came over")
        pairer.finish(band, .success(band))
        XCTAssertEqual(pairer.declined, [other])
    }

    func testNotNowOrNoAnswerTellsTheDeviceSo() async {
        let pairer = FakePairer()
        let clock = TestClock()
        let pairing = Pairing(pairer: pairer, mover: nil, clock: clock)
        pairer.prompts.yield(.requested(band))
        await settle(pairer)
        pairing.answer(.declined, to: pairing.prompt?.id)
        while pairer.declined.isEmpty { await Task.yield() }
        XCTAssertEqual(pairer.declined, [band], "Not Now answers the device")
        pairer.prompts.yield(.requested(other))
        await settle(pairer)
        let declined = await advance(clock, by: Pairing.answerTime, until: { pairer.declined.count >= 2 })
        XCTAssertTrue(declined, "the unanswered request ran out of time")
        XCTAssertEqual(pairer.declined, [band, other], "a request nobody answered is declined too, not left waiting")
        XCTAssertNil(pairing.prompt)
    }

    func testABondMadeWithoutACodeThatTheDeviceRefusesIsOfferedAgainInWords() async {
        let pairer = FakePairer()
        let pairing = Pairing(pairer: pairer, mover: nil, clock: TestClock())
        pairer.wantingCode = [identity]
        pairer.prompts.yield(.codeWanted(identity))
        await settle(pairer)
        XCTAssertEqual(pairing.state(of: identity), .pairedWithoutCode)
        XCTAssertEqual(pairing.failures[identity],
                       "The device wants a pairing protected by a code, and this one was made without (no number was shown). Pair again, and confirm the number or type the code.")
    }
}
