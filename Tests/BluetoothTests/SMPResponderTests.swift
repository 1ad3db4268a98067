// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

@testable import Bluetooth
import Domain
import Foundation
import SecurityToolbox
import XCTest

/// The peripheral's pairing state machine, with the real toolbox, against a central played by
/// the test: what a stranger's malformed or out-of-order PDUs get. Whole pairings run against
/// Bumble's central in `BumblePeripheralTests`.
final class SMPResponderTests: XCTestCase {
    private let local = SMPInitiator.Party(type: 1, octets: [0xC1, 0x02, 0x03, 0x04, 0x05, 0x06])
    private let remote = SMPInitiator.Party(type: 1, octets: [0xF9, 0xF4, 0xF3, 0xF2, 0xF1, 0xF0])

    private func responder() -> SMPResponder {
        SMPResponder(crypto: ToolboxPairingCrypto(), local: local, remote: remote,
                     identity: .init(irk: [UInt8](repeating: 0x42, count: 16), address: local))
    }

    private func sent(_ actions: [SMPResponderAction]) -> [[UInt8]] {
        actions.compactMap { if case .send(let pdu) = $0 { return pdu.bytes } else { return nil } }
    }

    private func failure(_ actions: [SMPResponderAction]) -> PairingFailure? {
        actions.lazy.compactMap { if case .failed(let f) = $0 { return f } else { return nil } }.first
    }

    func testASecureConnectionsRequestIsAnsweredWithTheResponse() {
        // Pairing Request: DisplayYesNo, no OOB, bonding + MITM + SC, 16-byte keys, ENC+ID both ways.
        let actions = responder().receive([0x01, 0x01, 0x00, 0x0D, 0x10, 0x03, 0x03])
        let response = sent(actions).first
        XCTAssertEqual(response?.first, 0x02, "a Pairing Response")
        XCTAssertEqual(response.map { $0[3] & 0x08 }, 0x08, "Secure Connections asked back")
        XCTAssertNil(failure(actions))
    }

    func testLegacyPairingIsTurnedDownAsAuthenticationRequirements() {
        let actions = responder().receive([0x01, 0x03, 0x00, 0x05, 0x10, 0x03, 0x03])
        XCTAssertEqual(sent(actions), [[0x05, 0x03]])
        XCTAssertNotNil(failure(actions))
    }

    func testAPDUOfTheWrongLengthIsRefusedAsInvalidParameters() {
        XCTAssertEqual(sent(responder().receive([0x01, 0x03])), [[0x05, 0x0A]])
    }

    func testAnUnknownCodeIsRefusedAsNotSupported() {
        XCTAssertEqual(sent(responder().receive([0x3F, 1, 2])), [[0x05, 0x07]])
    }

    func testAStepOutOfOrderEndsPairingAndNothingMoreIsAnswered() {
        let smp = responder()
        let actions = smp.receive([0x03] + [UInt8](repeating: 0, count: 16))
        XCTAssertEqual(sent(actions), [[0x05, 0x08]])
        XCTAssertNotNil(failure(actions))
        XCTAssertTrue(smp.receive([0x01, 0x01, 0x00, 0x0D, 0x10, 0x03, 0x03]).isEmpty, "nothing more once failed")
    }

    func testAKeyTooShortIsRefusedAsEncryptionKeySize() {
        XCTAssertEqual(sent(responder().receive([0x01, 0x01, 0x00, 0x0D, 0x06, 0x03, 0x03])), [[0x05, 0x06]])
    }
}
