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
final class SMPSessionResponderTests: XCTestCase {
    private let local = SMPSession.Party(type: 1, octets: [0xC1, 0x02, 0x03, 0x04, 0x05, 0x06])
    private let remote = SMPSession.Party(type: 1, octets: [0xF9, 0xF4, 0xF3, 0xF2, 0xF1, 0xF0])

    private func responder() -> SMPSession {
        SMPSession(role: .responder, crypto: ToolboxPairingCrypto(), local: local, remote: remote,
                     identity: .init(irk: [UInt8](repeating: 0x42, count: 16), address: local))
    }

    private func sent(_ actions: [SMPAction]) -> [[UInt8]] {
        actions.compactMap { if case .send(let pdu) = $0 { return pdu.bytes } else { return nil } }
    }

    private func failure(_ actions: [SMPAction]) -> PairingFailure? {
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

    func testALegacyRequestIsAnsweredAndPairsTheLegacyWay() {
        // Pairing Request: NoInputNoOutput, bonding, no MITM, no Secure Connections; ENC+ID both ways.
        let actions = responder().receive([0x01, 0x03, 0x00, 0x01, 0x10, 0x03, 0x03])
        XCTAssertEqual(sent(actions), [[0x02, 0x04, 0x00, 0x0D, 0x10, 0x02, 0x03]],
                       "FavBlue's features; it takes the central's identity and gives its key and identity")
        XCTAssertNil(failure(actions))
    }

    /// FavBlue's two roles pair with each other (Secure Connections, Numeric Comparison, both
    /// KeyboardDisplay): every step one role takes, the other checks, so the shared steps agree
    /// on nonces, confirms, checks and keys, and each side keeps the other's identity.
    func testFavBluesTwoRolesPairWithEachOtherAndHoldTheSameKey() {
        let crypto = ToolboxPairingCrypto()
        let a = SMPSession.Party(type: 1, octets: [0xC1, 0x02, 0x03, 0x04, 0x05, 0x06])
        let b = SMPSession.Party(type: 1, octets: [0xC5, 0x04, 0x03, 0x02, 0x01, 0x00])
        let central = SMPSession(role: .initiator, crypto: crypto, local: a, remote: b,
                                 identity: .init(irk: [UInt8](repeating: 0x11, count: 16), address: a))
        let peripheral = SMPSession(role: .responder, crypto: crypto, local: b, remote: a,
                                    identity: .init(irk: [UInt8](repeating: 0x22, count: 16), address: b))
        var inbox: [(SMPSession, [UInt8])] = []
        var key: [UInt8]?, encryptedWith: [UInt8]?
        var numbers: [UInt32] = []
        var bonds: [ObjectIdentifier: Bond] = [:]
        func handle(_ actions: [SMPAction], from side: SMPSession) {
            for action in actions {
                switch action {
                case .send(let pdu): inbox.append((side === central ? peripheral : central, pdu.bytes))
                case .ask(.confirm(let number)):
                    numbers.append(number)
                    handle(side.answer(.confirmed), from: side)
                case .ask(let question): XCTFail("asked \(question)")
                case .key(let k): key = k
                case .encrypt(let k, _, _):
                    encryptedWith = k
                    // The initiator's link comes up first; the responder's keys follow over it.
                    handle(central.encrypted(status: 0), from: central)
                    handle(peripheral.encrypted(status: 0), from: peripheral)
                case .finished(_, let bond): bonds[ObjectIdentifier(side)] = bond
                case .failed(let failure): XCTFail("\(side === central ? "central" : "peripheral") failed: \(failure.message)")
                }
            }
        }
        handle(central.start(), from: central)
        var steps = 0
        while !inbox.isEmpty, steps < 100 {
            steps += 1
            let (to, bytes) = inbox.removeFirst()
            handle(to.receive(bytes), from: to)
        }
        XCTAssertEqual(numbers.count, 2, "both users were shown a number")
        XCTAssertEqual(Set(numbers).count, 1, "the same number on both sides: \(numbers)")
        XCTAssertNotNil(key)
        XCTAssertEqual(key, encryptedWith, "the key the responder gives is the one the initiator encrypts with")
        let centralsBond = bonds[ObjectIdentifier(central)], peripheralsBond = bonds[ObjectIdentifier(peripheral)]
        XCTAssertEqual(centralsBond?.identity.address, "C5:04:03:02:01:00", "the central keeps the peripheral's identity")
        XCTAssertEqual(peripheralsBond?.identity.address, "C1:02:03:04:05:06", "and the peripheral the central's")
        XCTAssertEqual(centralsBond?.ltk, peripheralsBond?.ltk)
        XCTAssertEqual(centralsBond?.irk?.bytes, [UInt8](repeating: 0x22, count: 16))
        XCTAssertEqual(peripheralsBond?.irk?.bytes, [UInt8](repeating: 0x11, count: 16))
        XCTAssertEqual(centralsBond?.secureConnections, true)
        XCTAssertEqual(peripheralsBond?.authenticated, true)
        XCTAssertFalse(central.isRunning)
        XCTAssertFalse(peripheral.isRunning)
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
