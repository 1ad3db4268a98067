// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Bluetooth
import Foundation
import XCTest

/// The Security Manager's PDUs (Core v5.4, Vol 3, Part H, §3.5–3.6): each at its fixed length,
/// refused at any other, and written back byte for byte.
final class SMPCodecTests: XCTestCase {
    func testAPairingRequestReadsItsFieldsAndWritesBackTheSameBytes() throws {
        // KeyboardDisplay, no OOB, bonding + MITM + Secure Connections, 16-octet keys, EncKey|IdKey both ways.
        let bytes: [UInt8] = [0x01, 0x04, 0x00, 0x0D, 0x10, 0x03, 0x03]
        let pdu = try SMPPDU.decode(bytes)
        guard case .pairingRequest(let f) = pdu else { return XCTFail("\(pdu)") }
        XCTAssertEqual([f.ioCapability, f.oobData, f.authReq, f.maxKeySize, f.initiatorKeys, f.responderKeys], [4, 0, 0x0D, 16, 3, 3])
        XCTAssertEqual(pdu.bytes, bytes)
    }

    func testKeysAndIdentitiesKeepTheirOrderAndLegacyRandIsLittleEndian() throws {
        let ltk = Array(UInt8(1)...16)
        XCTAssertEqual(try SMPPDU.decode([0x06] + ltk), .encryptionInformation(ltk: ltk))
        let central = try SMPPDU.decode([0x07, 0xEF, 0xBE, 0xEF, 0xCD, 0xAB, 0x89, 0x67, 0x45, 0x23, 0xF1])
        XCTAssertEqual(central, .centralIdentification(ediv: 0xBEEF, rand: 0xF123_4567_89AB_CDEF))
        XCTAssertEqual(central.bytes, [0x07, 0xEF, 0xBE, 0xEF, 0xCD, 0xAB, 0x89, 0x67, 0x45, 0x23, 0xF1])
        let identity = try SMPPDU.decode([0x09, 0x01, 0x55, 0x44, 0x33, 0x22, 0x11, 0xC0])
        XCTAssertEqual(identity, .identityAddressInformation(type: 1, address: [0x55, 0x44, 0x33, 0x22, 0x11, 0xC0]))
        let key = try SMPPDU.decode([0x0C] + Array(repeating: 1, count: 32) + Array(repeating: 2, count: 32))
        XCTAssertEqual(key, .pairingPublicKey(x: Array(repeating: 1, count: 32), y: Array(repeating: 2, count: 32)))
    }

    func testTruncatedOversizedAndUnknownPDUsAreRefusedWithWhy() {
        XCTAssertThrowsError(try SMPPDU.decode([])) { XCTAssertEqual($0 as? SMPDecodeError, .empty) }
        XCTAssertThrowsError(try SMPPDU.decode([0x01, 0x04, 0x00])) {
            XCTAssertEqual($0 as? SMPDecodeError, .wrongLength(code: 0x01, got: 3, expected: 7))
        }
        XCTAssertThrowsError(try SMPPDU.decode([0x03] + Array(repeating: 0, count: 17))) {
            XCTAssertEqual($0 as? SMPDecodeError, .wrongLength(code: 0x03, got: 18, expected: 17))
        }
        XCTAssertThrowsError(try SMPPDU.decode([0x0F, 0x00])) { XCTAssertEqual($0 as? SMPDecodeError, .unknownCode(0x0F)) }
    }

    func testEveryPairingFailedReasonHasPlainWordsAndAnUnknownOneItsCode() {
        for code in UInt8(1)...15 {
            let reason = SMPFailureReason(code: code)
            XCTAssertEqual(reason.code, code)
            XCTAssertFalse(reason.message.contains("0x"), "\(code) has words of its own: \(reason.message)")
        }
        XCTAssertEqual(SMPFailureReason(code: 4).message, "the codes did not match. Try again and compare them carefully.")
        XCTAssertEqual(SMPFailureReason(code: 0x42).message, "the device gave reason 0x42.")
        XCTAssertEqual(SMPPDU.pairingFailed(.repeatedAttempts).bytes, [0x05, 0x09])
    }

    func testFavBlueStillTurnsDownPairingOverItsOwnHostWithTheRightReason() {
        XCTAssertEqual(SecurityManager.answer(to: [0x01, 0x03, 0x00, 0x01, 0x10, 0x00, 0x00]), [0x05, 0x05])
        XCTAssertEqual(SecurityManager.answer(to: [0x0B, 0x01]), [0x05, 0x05])
        XCTAssertNil(SecurityManager.answer(to: [0x01, 0x03]), "a truncated request gets no answer")
        XCTAssertNil(SecurityManager.answer(to: [0x04] + Array(repeating: 0, count: 16)), "nor does a random value out of turn")
    }
}
