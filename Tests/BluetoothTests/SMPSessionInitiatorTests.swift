// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

@testable import Bluetooth
import Domain
import Foundation
import SecurityToolbox
import XCTest

/// The central's pairing state machine, with the real toolbox, against a device played by the test.

/// The state machine under test did not answer as the specification says: a failure, never a skip.
private struct NotAsSpecified: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

final class SMPSessionInitiatorTests: XCTestCase {
    private let crypto = ToolboxPairingCrypto()
    private let local = SMPSession.Party(type: 1, octets: [0xC1, 0x02, 0x03, 0x04, 0x05, 0x06])
    private let remote = SMPSession.Party(type: 0, octets: [0x00, 0x1B, 0xDC, 0x00, 0x00, 0x02])

    private func initiator() -> SMPSession {
        SMPSession(role: .initiator, crypto: crypto, local: local, remote: remote,
                     identity: .init(irk: [UInt8](repeating: 0x42, count: 16), address: local))
    }

    private func started() -> SMPSession {
        let smp = initiator()
        _ = smp.start()
        return smp
    }

    /// The PDUs among `actions`, as sent.
    private func sent(_ actions: [SMPAction]) -> [[UInt8]] {
        actions.compactMap { if case .send(let pdu) = $0 { return pdu.bytes } else { return nil } }
    }

    private func failure(_ actions: [SMPAction]) -> PairingFailure? {
        actions.lazy.compactMap { if case .failed(let f) = $0 { return f } else { return nil } }.first
    }

    private func response(io: UInt8, authReq: UInt8, keySize: UInt8 = 16, keys: (UInt8, UInt8) = (0x02, 0x03)) -> [UInt8] {
        [0x02, io, 0, authReq, keySize, keys.0, keys.1]
    }

    func testThePairingRequestAsksForBondingMITMAndSecureConnectionsAsKeyboardDisplay() {
        XCTAssertEqual(sent(initiator().start()), [[0x01, 0x04, 0x00, 0x0D, 0x10, 0x02, 0x03]])
    }

    func testAStepOutOfOrderIsRefusedWithUnspecifiedReason() {
        let smp = started()
        let actions = smp.receive([0x04] + [UInt8](repeating: 0, count: 16))
        XCTAssertEqual(sent(actions), [[0x05, 0x08]])
        XCTAssertEqual(failure(actions)?.message, "the device sent a pairing step out of order.")
        XCTAssertFalse(smp.isRunning)
        XCTAssertTrue(smp.receive([0x02, 3, 0, 1, 16, 0, 0]).isEmpty, "nothing more is answered once failed")
    }

    func testAPDUOfTheWrongLengthIsRefusedAsInvalidParameters() {
        let smp = started()
        XCTAssertEqual(sent(smp.receive([0x02, 0x03, 0x00])), [[0x05, 0x0A]])
    }

    func testAnUnknownCodeIsRefusedAsNotSupported() {
        let smp = started()
        XCTAssertEqual(sent(smp.receive([0x3F, 1, 2])), [[0x05, 0x07]])
        XCTAssertEqual(sent(started().receive([])), [[0x05, 0x0A]], "an empty PDU")
    }

    func testAKeyShorterThanSevenBytesIsRefused() {
        let actions = started().receive(response(io: 3, authReq: 0x01, keySize: 6))
        XCTAssertEqual(sent(actions), [[0x05, 0x06]])
        XCTAssertEqual(failure(actions)?.message, SMPFailureReason.encryptionKeySize.message)
    }

    func testAReservedIOCapabilityIsRefused() {
        XCTAssertEqual(sent(started().receive(response(io: 7, authReq: 0x01))), [[0x05, 0x0A]])
    }

    func testTheDevicesPairingFailedIsSaidInItsWords() {
        let actions = started().receive([0x05, 0x03])
        XCTAssertEqual(sent(actions), [], "a failure is not answered")
        XCTAssertEqual(failure(actions)?.message, SMPFailureReason.authenticationRequirements.message)
    }

    func testThirtySecondsOfSilenceEndPairingWithoutAPDU() {
        let smp = started()
        let actions = smp.timedOut()
        XCTAssertEqual(sent(actions), [])
        XCTAssertEqual(failure(actions), .timedOut)
        XCTAssertTrue(smp.receive(response(io: 3, authReq: 0x01)).isEmpty, "no PDU is taken after a timeout (§3.4)")
    }

    func testTheAssociationModelFollowsTheCoreSpecTable() {
        XCTAssertEqual(SMPSession.method(peer: 0, secure: true, mitm: true), .passkeyInput)
        XCTAssertEqual(SMPSession.method(peer: 1, secure: true, mitm: true), .numericComparison)
        XCTAssertEqual(SMPSession.method(peer: 1, secure: false, mitm: true), .passkeyInput)
        XCTAssertEqual(SMPSession.method(peer: 2, secure: true, mitm: true), .passkeyDisplay)
        XCTAssertEqual(SMPSession.method(peer: 3, secure: true, mitm: true), .justWorks)
        XCTAssertEqual(SMPSession.method(peer: 4, secure: true, mitm: true), .numericComparison)
        XCTAssertEqual(SMPSession.method(peer: 4, secure: false, mitm: true), .passkeyDisplay)
        XCTAssertEqual(SMPSession.method(peer: 4, secure: true, mitm: false), .justWorks)
    }

    func testSecureConnectionsSendsAPublicKeyAndRefusesOneOffTheCurve() {
        let smp = started()
        let actions = smp.receive(response(io: 3, authReq: 0x09))
        guard case .pairingPublicKey(let x, let y)? = actions.first.flatMap({ if case .send(let p) = $0 { return p } else { return nil } })
        else { return XCTFail("\(actions)") }
        XCTAssertEqual(x.count + y.count, 64)
        let offCurve = smp.receive([0x0C] + [UInt8](repeating: 1, count: 64))
        XCTAssertEqual(sent(offCurve), [[0x05, 0x0B]], "DHKey Check Failed for an invalid key")
        XCTAssertEqual(failure(offCurve), .authenticationFailed)
    }

    func testADeviceThatSendsOurOwnKeyBackIsRefused() {
        let smp = started()
        let actions = smp.receive(response(io: 3, authReq: 0x09))
        guard case .send(.pairingPublicKey(let x, let y))? = actions.first else { return XCTFail() }
        XCTAssertEqual(sent(smp.receive([0x0C] + x + y)), [[0x05, 0x0A]])
    }

    /// Plays a legacy Just Works responder with the toolbox: its confirm, its random, and what it expects back.
    private func legacyResponder(_ smp: SMPSession, corruptConfirm: Bool) throws -> [SMPAction] {
        let preq: [UInt8] = [0x01, 0x04, 0x00, 0x0D, 0x10, 0x02, 0x03]
        let pres = response(io: 3, authReq: 0x01, keySize: 16, keys: (0x02, 0x03))
        let first = smp.receive(pres)
        guard case .send(.pairingConfirm)? = first.first else { throw NotAsSpecified("no confirm: \(first)") }
        let srand = crypto.random(16)
        var sconfirm = try crypto.c1(k: [UInt8](repeating: 0, count: 16), r: srand, preq: preq.reversed(), pres: pres.reversed(),
                                     iat: local.type, ia: local.octets, rat: remote.type, ra: remote.octets)
        if corruptConfirm { sconfirm[0] ^= 1 }
        let second = smp.receive([0x03] + sconfirm.reversed())
        guard case .send(.pairingRandom(let mrandWire))? = second.first else { throw NotAsSpecified("no random: \(second)") }
        let last = smp.receive([0x04] + srand.reversed())
        guard !corruptConfirm else { return last }
        let stk = try crypto.s1(k: [UInt8](repeating: 0, count: 16), r1: srand, r2: mrandWire.reversed())
        guard case .encrypt(let ltk, 0, 0)? = last.first else { XCTFail("\(last)"); return last }
        XCTAssertEqual(ltk, stk.reversed(), "the STK both sides compute")
        return last
    }

    func testLegacyJustWorksEncryptsWithTheSTKThenTakesTheKeysAndGivesOurs() throws {
        let smp = started()
        _ = try legacyResponder(smp, corruptConfirm: false)
        XCTAssertEqual(smp.method, .justWorks)
        XCTAssertTrue(smp.encrypted(status: 0).isEmpty, "the device's keys come first")
        let ltk = (0..<16).map { UInt8($0) }
        XCTAssertTrue(smp.receive([0x06] + ltk).isEmpty)
        XCTAssertTrue(smp.receive([0x07, 0x34, 0x12] + [1, 2, 3, 4, 5, 6, 7, 8]).isEmpty)
        let irk = [UInt8](repeating: 0xA5, count: 16)
        XCTAssertTrue(smp.receive([0x08] + irk).isEmpty)
        let end = smp.receive([0x09, 0x01, 0x11, 0x22, 0x33, 0x44, 0x55, 0xC6])
        XCTAssertEqual(sent(end), [[0x08] + [UInt8](repeating: 0x42, count: 16), [0x09, 0x01, 0x06, 0x05, 0x04, 0x03, 0x02, 0xC1]],
                       "FavBlue gives its IRK and identity address last")
        guard case .finished(let identity, let bond?)? = end.last else { return XCTFail("\(end)") }
        XCTAssertEqual(identity, try DeviceID(parsing: "C6:55:44:33:22:11", kind: .leRandom))
        XCTAssertEqual(bond.ltk, ltk.reversed())
        XCTAssertEqual(bond.ediv, 0x1234)
        XCTAssertEqual(bond.rand, 0x0807_0605_0403_0201)
        XCTAssertEqual(bond.irk, IdentityResolvingKey(bytes: irk))
        XCTAssertFalse(bond.authenticated)
        XCTAssertFalse(bond.secureConnections)
    }

    func testAConfirmThatDoesNotMatchFailsAsCodesNotMatching() throws {
        let actions = try legacyResponder(started(), corruptConfirm: true)
        XCTAssertEqual(sent(actions), [[0x05, 0x04]])
        XCTAssertEqual(failure(actions), .authenticationFailed)
    }

    func testAKeyThatWasNotAgreedIsRefused() throws {
        let smp = started()
        _ = try legacyResponder(smp, corruptConfirm: false)
        _ = smp.encrypted(status: 0)
        XCTAssertEqual(sent(smp.receive([0x0A] + [UInt8](repeating: 0, count: 16))), [[0x05, 0x08]], "a signing key nobody asked for")
    }

    func testEncryptionThatFailsEndsPairingInWords() throws {
        let smp = started()
        _ = try legacyResponder(smp, corruptConfirm: false)
        XCTAssertEqual(failure(smp.encrypted(status: 0x06))?.message, "the link could not be encrypted (error 0x6).")
    }

    func testKeysTypedOnTheDeviceUpdateTheCodeShown() {
        let smp = started()
        let first = smp.receive(response(io: 2, authReq: 0x05))
        guard case .ask(.displayPasskey(let code, nil))? = first.first else { return XCTFail("\(first)") }
        XCTAssertLessThanOrEqual(code, 999_999)
        guard case .ask(.displayPasskey(code, 1))? = smp.receive([0x0E, 0x01]).first else { return XCTFail() }
        guard case .ask(.displayPasskey(code, 2))? = smp.receive([0x0E, 0x01]).first else { return XCTFail() }
        guard case .ask(.displayPasskey(code, 1))? = smp.receive([0x0E, 0x02]).first else { return XCTFail() }
    }

    func testDecliningTheNumbersTellsTheDevice() {
        let smp = started()
        _ = smp.receive(response(io: 2, authReq: 0x05))
        XCTAssertEqual(sent(smp.cancel()), [[0x05, 0x01]], "Passkey Entry Failed")
    }

    func testAnOversizedPDUIsRefusedAsInvalidParameters() {
        XCTAssertEqual(sent(started().receive(response(io: 3, authReq: 0x01) + [0])), [[0x05, 0x0A]])
    }

    func testAPairingRequestMidPairingIsRefused() {
        let smp = started()
        _ = smp.receive(response(io: 3, authReq: 0x01))
        XCTAssertEqual(sent(smp.receive([0x01, 0x03, 0x00, 0x01, 0x10, 0x00, 0x00])), [[0x05, 0x08]])
        XCTAssertFalse(smp.isRunning)
    }

    /// Plays a Secure Connections Just Works responder with the toolbox, up to FavBlue's DHKey check;
    /// `spoilCheck` sends a wrong one back.
    private func secureResponder(spoilCheck: Bool) throws -> (SMPSession, [SMPAction]) {
        let smp = started()
        let pres = response(io: 3, authReq: 0x09)
        guard case .send(.pairingPublicKey(let ax, let ay))? = smp.receive(pres).first else { throw NotAsSpecified("no key") }
        let pkax = Array(ax.reversed())
        let ours = crypto.makeKeyPair()
        XCTAssertTrue(smp.receive([0x0C] + ours.x.reversed() + ours.y.reversed()).isEmpty, "FavBlue waits for the confirm")
        let nb = crypto.random(16)
        let cb = try crypto.f4(u: ours.x, v: pkax, x: nb, z: 0)
        guard case .send(.pairingRandom(let naWire))? = smp.receive([0x03] + cb.reversed()).first else { throw NotAsSpecified("no random") }
        let na = Array(naWire.reversed())
        guard case .send(.pairingDHKeyCheck(let eaWire))? = smp.receive([0x04] + nb.reversed()).first else { throw NotAsSpecified("no check") }
        let dhKey = try ours.dhKey(peerX: pkax, peerY: Array(ay.reversed()))
        let a: [UInt8] = [local.type] + local.octets
        let b: [UInt8] = [remote.type] + remote.octets
        let keys = try crypto.f5(w: dhKey, n1: na, n2: nb, a1: a, a2: b)
        let zero = [UInt8](repeating: 0, count: 16)
        let ea = try crypto.f6(w: keys.macKey, n1: na, n2: nb, r: zero, ioCap: [0x0D, 0x00, 0x04], a1: a, a2: b)
        XCTAssertEqual(Array(eaWire.reversed()), ea, "FavBlue's check is the one the spec defines")
        var eb = try crypto.f6(w: keys.macKey, n1: nb, n2: na, r: zero, ioCap: [pres[3], pres[2], pres[1]], a1: b, a2: a)
        if spoilCheck { eb[15] ^= 0xFF }
        let last = smp.receive([0x0D] + eb.reversed())
        if !spoilCheck {
            guard case .encrypt(let ltk, 0, 0)? = last.first else { XCTFail("\(last)"); return (smp, last) }
            XCTAssertEqual(ltk, keys.ltk.reversed(), "both derive the same LTK")
        }
        return (smp, last)
    }

    func testSecureConnectionsJustWorksDerivesTheLTKBothSidesDo() throws {
        let (smp, _) = try secureResponder(spoilCheck: false)
        XCTAssertTrue(smp.isRunning)
        let end = smp.encrypted(status: 0)
        XCTAssertTrue(end.isEmpty, "the device's identity comes first")
    }

    func testAWrongDHKeyCheckFailsWithItsReason() throws {
        let (_, actions) = try secureResponder(spoilCheck: true)
        XCTAssertEqual(sent(actions), [[0x05, 0x0B]])
        XCTAssertEqual(failure(actions), .authenticationFailed)
    }
}
