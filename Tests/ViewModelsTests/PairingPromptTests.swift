// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Clocks
import Domain
import Foundation
import TestSupport
import ViewModels
import XCTest

@MainActor
final class PairingPromptTests: XCTestCase {
    private let band = TestDevices.id(0x5C, kind: .leRandom)

    private func model() -> (PairingPromptViewModel, FakePairer) {
        let pairer = FakePairer()
        let pairing = Pairing(pairer: pairer, mover: nil, clock: TestClock())
        return (PairingPromptViewModel(pairing: pairing, name: { _ in "R&D <Band>" }), pairer)
    }

    func testCodesAreSixDigitsWithTheirLeadingZeros() {
        XCTAssertEqual(PairingPromptViewModel.code(0), "000 000")
        XCTAssertEqual(PairingPromptViewModel.code(42), "000 042")
        XCTAssertEqual(PairingPromptViewModel.code(999_999), "999 999")
    }

    func testTheQuestionNamesTheDeviceAsPlainIsolatedText() async {
        let (model, pairer) = model()
        pairer.ask(1, band, .confirm(passkey: 4_321))
        await pairer.prompts.applied()
        XCTAssertEqual(model.dialog?.kind, .confirm)
        XCTAssertEqual(model.dialog?.body, "Does \u{2068}R&D <Band>\u{2069} show 004 321? Confirm only if the numbers match.")
        model.confirm(1)
        XCTAssertNil(model.dialog)
        XCTAssertEqual(pairer.answers, [.confirmed])
    }

    func testAPasskeyIsCheckedAsTypedAndOnlySixDigitsAreSent() async {
        let (model, pairer) = model()
        pairer.ask(1, band, .enterPasskey)
        await pairer.prompts.applied()
        XCTAssertEqual(model.problem("12a", kind: .passkey), "Only digits, 0 to 9.")
        XCTAssertEqual(model.problem("12345", kind: .passkey), "Six digits, as the device shows them.")
        XCTAssertEqual(model.problem("1234567", kind: .passkey), "Six digits, as the device shows them.")
        XCTAssertFalse(model.submit("12345", kind: .passkey, to: 1))
        XCTAssertEqual(pairer.answers, [], "nothing sent")
        XCTAssertTrue(model.submit("000000", kind: .passkey, to: 1))
        XCTAssertEqual(pairer.answers, [.passkey(0)], "000000 is a valid passkey")
    }

    func testAPinFollowsBlueZsRule() {
        let (model, _) = model()
        XCTAssertNil(model.problem("0000", kind: .pin))
        XCTAssertNotNil(model.problem("", kind: .pin))
        XCTAssertNotNil(model.problem(String(repeating: "1", count: 17), kind: .pin))
        XCTAssertNotNil(model.problem("12 34", kind: .pin))
    }

    func testADisplayCountsTheKeysTypedOnTheDevice() async {
        let (model, pairer) = model()
        pairer.ask(1, band, .displayPasskey(passkey: 7, typed: 3))
        await pairer.prompts.applied()
        XCTAssertEqual(model.dialog?.kind, .display)
        XCTAssertEqual(model.dialog?.progress, "3 of 6 digits typed")
        XCTAssertEqual(model.dialog?.body, "Type 000 007 on \u{2068}R&D <Band>\u{2069}, then press Enter on it.")
    }
}

/// What a device's page says of its bond.
@MainActor
final class DevicePairingStateTests: XCTestCase {
    private let band = TestDevices.id(0x5C, kind: .leRandom)

    private func paired(olderWay: Bool) async -> DevicePairingViewModel {
        let pairer = FakePairer()
        if olderWay { pairer.olderWay = [band] }
        let pairing = Pairing(pairer: pairer, mover: nil, clock: TestClock())
        let pairs = Task { await pairing.pair(band) }
        while !pairer.isWaiting { await Task.yield() }
        pairer.finish(band, .success(band))
        _ = await pairs.value
        return DevicePairingViewModel(device: band, pairing: pairing, name: { _ in "Band" })
    }

    func testABondMadeTheLegacyWayIsSaidToBeWeakerInWords() async {
        let model = await paired(olderWay: true)
        XCTAssertEqual(model.state, .paired)
        XCTAssertEqual(model.stateText, "Paired the older way")
        XCTAssertEqual(model.message,
                       "This bond was made with LE legacy pairing, which is weaker: someone who recorded the pairing could read what passes between you. Forget it and pair again if the device offers more.")
    }

    func testASecureConnectionsBondSaysPairedAndNothingMore() async {
        let model = await paired(olderWay: false)
        XCTAssertEqual(model.stateText, "Paired")
        XCTAssertNil(model.message)
    }
}
