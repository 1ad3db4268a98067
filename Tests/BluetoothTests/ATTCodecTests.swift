// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

@testable import Bluetooth
import Domain
import XCTest

/// Every ATT PDU the client uses, byte for byte (Core v5.4, Vol 3, Part F, §3.4), and the
/// GATT parsing on top of them (Part G).
final class ATTCodecTests: XCTestCase {
    private let chat = ChatProfile.chat

    func testRequestsEncodeAsTheSpecLaysThemOut() {
        XCTAssertEqual(ATTPDU.exchangeMTURequest(mtu: 247).bytes, [0x02, 0xF7, 0x00])
        XCTAssertEqual(ATTPDU.findByTypeValueRequest(start: 1, end: 0xFFFF, type: 0x2800, value: chat.service.wire).bytes,
                       [0x06, 1, 0, 0xFF, 0xFF, 0x00, 0x28] + [0x34, 0x12, 0x89, 0xE1, 0x77, 0x85, 0x91, 0x9F,
                                                               0x3C, 0x4F, 0x8F, 0x2C, 0x00, 0xC0, 0x57, 0x7E])
        XCTAssertEqual(ATTPDU.readByGroupTypeRequest(start: 1, end: 0xFFFF, type: .primaryService).bytes,
                       [0x10, 1, 0, 0xFF, 0xFF, 0x00, 0x28])
        XCTAssertEqual(ATTPDU.readByTypeRequest(start: 5, end: 9, type: .characteristic).bytes, [0x08, 5, 0, 9, 0, 0x03, 0x28])
        XCTAssertEqual(ATTPDU.findInformationRequest(start: 8, end: 9).bytes, [0x04, 8, 0, 9, 0])
        XCTAssertEqual(ATTPDU.writeRequest(handle: 9, value: [1, 0]).bytes, [0x12, 9, 0, 1, 0])
        XCTAssertEqual(ATTPDU.writeCommand(handle: 0x0B, value: Array("hi".utf8)).bytes, [0x52, 0x0B, 0, 0x68, 0x69])
        XCTAssertEqual(ATTPDU.confirmation.bytes, [0x1E])
        XCTAssertEqual(ATTPDU.errorResponse(request: 0x0A, handle: 3, code: .requestNotSupported).bytes, [0x01, 0x0A, 3, 0, 0x06])
    }

    /// The PDUs both sides share, byte for byte (§3.4.4–§3.4.7), each decoded back to itself.
    func testEveryPDUOfTheCoreEncodesAsLaidOutAndDecodesBack() throws {
        let cases: [(ATTPDU, [UInt8])] = [
            (.readRequest(handle: 0x0203), [0x0A, 0x03, 0x02]),
            (.readResponse(value: [1, 2]), [0x0B, 1, 2]),
            (.readBlobRequest(handle: 5, offset: 22), [0x0C, 5, 0, 22, 0]),
            (.readBlobResponse(value: []), [0x0D]),
            (.readMultipleRequest(handles: [3, 5]), [0x0E, 3, 0, 5, 0]),
            (.readMultipleResponse(values: [7, 8, 9]), [0x0F, 7, 8, 9]),
            (.prepareWriteRequest(handle: 9, offset: 18, value: [0xAA]), [0x16, 9, 0, 18, 0, 0xAA]),
            (.prepareWriteResponse(handle: 9, offset: 18, value: [0xAA]), [0x17, 9, 0, 18, 0, 0xAA]),
            (.executeWriteRequest(commit: true), [0x18, 0x01]),
            (.executeWriteRequest(commit: false), [0x18, 0x00]),
            (.executeWriteResponse, [0x19]),
            (.readMultipleVariableRequest(handles: [3, 5]), [0x20, 3, 0, 5, 0]),
            (.readMultipleVariableResponse([LengthValue(length: 1, value: [87]), LengthValue(length: 300, value: [1, 2])]),
             [0x21, 1, 0, 87, 0x2C, 0x01, 1, 2]),
            (.multipleHandleValueNotification([HandleValue(handle: 3, value: [1]), HandleValue(handle: 7, value: [])]),
             [0x23, 3, 0, 1, 0, 1, 7, 0, 0, 0]),
            (.signedWriteCommand(handle: 4, value: [0x42], signature: Array(1...12)), [0xD2, 4, 0, 0x42] + Array(1...12)),
            (.writeResponse, [0x13]),
            (.confirmation, [0x1E]),
        ]
        for (pdu, bytes) in cases {
            XCTAssertEqual(pdu.bytes, bytes, "\(pdu)")
            XCTAssertEqual(try ATTPDU.decode(bytes), pdu, "\(bytes)")
        }
    }

    func testTheFieldsOfTheNewPDUsAreChecked() {
        let broken: [[UInt8]] = [
            [0x0A, 1], [0x0A, 1, 0, 0], [0x0C, 1, 0, 2], [0x0E, 1, 0], [0x0E, 1, 0, 2, 0, 3], [0x16, 1, 0, 2],
            [0x18], [0x18, 0x02], [0x19, 0], [0x20, 1, 0], [0x21, 5], [0x23, 3, 0, 1, 0, 1], [0x23, 3, 0, 2, 0, 1],
            [0xD2, 4, 0] + Array(1...11), [0x1E, 0],
        ]
        for pdu in broken {
            XCTAssertThrowsError(try ATTPDU.decode(pdu), "\(pdu)") { XCTAssertTrue($0 is DecodeError) }
        }
        XCTAssertEqual(try ATTPDU.decode([0x3F, 1, 2]), .unknown(opcode: 0x3F, parameters: [1, 2]), "kept for the server to refuse")
    }

    func testResponsesDecode() throws {
        XCTAssertEqual(try ATTPDU.decode([0x03, 0x05, 0x02]), .exchangeMTUResponse(mtu: 517))
        XCTAssertEqual(try ATTPDU.decode([0x07, 0x05, 0x00, 0x0B, 0x00]),
                       .findByTypeValueResponse([GroupValue(start: 5, end: 11, value: [])]))
        XCTAssertEqual(try ATTPDU.decode([0x13]), .writeResponse)
        XCTAssertEqual(try ATTPDU.decode([0x1B, 0x07, 0x00, 0x68, 0x69]), .notification(handle: 7, value: [0x68, 0x69]))
        XCTAssertEqual(try ATTPDU.decode([0x1D, 0x07, 0x00]), .indication(handle: 7, value: []))
        XCTAssertEqual(try ATTPDU.decode([0x05, 0x01, 0x08, 0x00, 0x02, 0x29]),
                       .findInformationResponse([HandleUUID(handle: 8, uuid: .clientCharacteristicConfiguration)]))
    }

    func testErrorResponsesBecomeTypedCodes() throws {
        XCTAssertEqual(try ATTPDU.decode([0x01, 0x06, 0x01, 0x00, 0x0A]),
                       .errorResponse(request: 0x06, handle: 1, code: .attributeNotFound))
        XCTAssertEqual(ATTErrorCode(raw: 0x03), .writeNotPermitted)
        XCTAssertEqual(ATTErrorCode(raw: 0x80), .other(0x80))
        XCTAssertEqual(ATTErrorCode(raw: 0x80).raw, 0x80)
        XCTAssertEqual(ATTErrorCode.insufficientEncryption.raw, 0x0F)
    }

    func testMalformedPDUsAreTypedErrors() {
        let broken: [[UInt8]] = [
            [], [0x01, 0x06, 0x01], [0x03, 0x05], [0x03, 0x05, 0x02, 0x00], [0x05, 0x03, 0x08, 0x00, 0x02, 0x29],
            [0x05, 0x01, 0x08, 0x00, 0x02], [0x05, 0x01], [0x07, 0x05, 0x00, 0x0B], [0x09, 0x01, 0x01],
            [0x09, 0x07, 0x02, 0x00, 0x10, 0x03, 0x00, 0x01], [0x11, 0x03, 1, 0, 2], [0x11, 0x06, 1, 0, 5, 0, 0x0F],
            [0x12, 0x01], [0x1B, 0x07], [0x13, 0x00], [0x08, 1, 0, 2, 0, 1, 2, 3],
        ]
        for pdu in broken {
            XCTAssertThrowsError(try ATTPDU.decode(pdu), "\(pdu)") { XCTAssertTrue($0 is DecodeError) }
        }
    }

    func testServerRequestsAreRecognisedSoTheyCanBeRefused() throws {
        XCTAssertTrue(try ATTPDU.decode([0x0A, 0x03, 0x00]).isRequest, "Read Request")
        XCTAssertTrue(try ATTPDU.decode([0x10, 1, 0, 0xFF, 0xFF, 0x00, 0x28]).isRequest)
        XCTAssertFalse(try ATTPDU.decode([0x52, 0x03, 0x00, 1]).isRequest, "a command needs no answer")
        XCTAssertFalse(try ATTPDU.decode([0x1B, 0x03, 0x00]).isRequest)
    }

    // MARK: GATT parsing

    func testPrimaryServicesFromReadByGroupType() throws {
        // Two 16-bit services, then a second response with one 128-bit service.
        guard case .readByGroupTypeResponse(let short) = try ATTPDU.decode([0x11, 6, 1, 0, 5, 0, 0x00, 0x18, 6, 0, 9, 0, 0x01, 0x18])
        else { return XCTFail() }
        XCTAssertEqual(try short.map { g throws(DecodeError) in try ServiceRange(g) }.map(\.uuid.serviceID.name),
                       ["Generic Access", "Generic Attribute"])
        guard case .readByGroupTypeResponse(let long) = try ATTPDU.decode([0x11, 20, 10, 0, 15, 0] + chat.service.wire)
        else { return XCTFail() }
        let service = try ServiceRange(long[0])
        XCTAssertEqual(service.uuid, chat.service)
        XCTAssertEqual(service.uuid.description, "7E57C000-2C8F-4F3C-9F91-8577E1891234")
        XCTAssertEqual([service.start, service.end], [10, 15])
        XCTAssertThrowsError(try ServiceRange(GroupValue(start: 9, end: 3, value: [0, 0x18])), "end before start")
        XCTAssertThrowsError(try ServiceRange(GroupValue(start: 1, end: 3, value: [0, 0x18, 1])), "a 3-byte UUID")
    }

    func testCharacteristicDeclarationsFromReadByType() throws {
        // Declaration 0x000B: notify, value 0x000C, TX UUID; declaration 0x000E: write + write without response.
        let pdu: [UInt8] = [0x09, 21, 0x0B, 0x00, 0x10, 0x0C, 0x00] + chat.tx.wire + [0x0E, 0x00, 0x0C, 0x0F, 0x00] + chat.rx.wire
        guard case .readByTypeResponse(let entries) = try ATTPDU.decode(pdu) else { return XCTFail() }
        let declarations = try entries.map { e throws(DecodeError) in try CharacteristicDeclaration(e) }
        XCTAssertEqual(declarations.map(\.uuid), [chat.tx, chat.rx])
        XCTAssertEqual(declarations.map(\.valueHandle), [0x0C, 0x0F])
        XCTAssertTrue(declarations[0].properties.contains(.notify))
        XCTAssertTrue(declarations[1].properties.contains([.write, .writeWithoutResponse]))
        XCTAssertThrowsError(try CharacteristicDeclaration(HandleValue(handle: 5, value: [0x10, 0x04, 0x00, 0x02, 0x29])),
                             "a value handle before its declaration")
        XCTAssertThrowsError(try CharacteristicDeclaration(HandleValue(handle: 5, value: [0x10, 0x06])))
    }

    func testSixteenBitAndBaseUUIDFormsAreTheSame() {
        XCTAssertEqual(BluetoothUUID(0x2902), BluetoothUUID("00002902-0000-1000-8000-00805F9B34FB"))
        XCTAssertEqual(BluetoothUUID("00002902-0000-1000-8000-00805F9B34FB")?.short, 0x2902)
        XCTAssertNil(chat.service.short)
        XCTAssertNil(BluetoothUUID("ZZZZ"))
        // ATT has no 32-bit form: four bytes in a PDU are refused, and a 32-bit UUID goes out in 128 bits.
        XCTAssertNil(BluetoothUUID(attWire: [0x00, 0xC0, 0x57, 0x7E]))
        XCTAssertEqual(BluetoothUUID("7E57C000")?.attAsGiven.count, 16)
        XCTAssertEqual(ATTPDU.readByTypeRequest(start: 1, end: 0xFFFF, type: BluetoothUUID("0000180F")!).bytes,
                       [0x08, 0x01, 0x00, 0xFF, 0xFF, 0x0F, 0x18])
    }

    func testAServiceKeepsTheFormItWasHeardInAndIsComparedByValue() {
        let short = ADParser.parse([0x03, 0x03, 0x0F, 0x18]).services
        let long = ADParser.parse([0x11, 0x07] + BluetoothUUID("0000180F-0000-1000-8000-00805F9B34FB")!.wire).services
        let thirtyTwo = ADParser.parse([0x05, 0x05, 0x95, 0xFE, 0x00, 0x00]).services
        XCTAssertEqual(short.map(\.uuid), ["180F"])
        XCTAssertEqual(long.map(\.uuid), ["0000180F-0000-1000-8000-00805F9B34FB"])
        XCTAssertEqual(thirtyTwo.map(\.uuid), ["0000FE95"])
        XCTAssertEqual(short.map(\.name), ["Battery"])
        XCTAssertEqual(long.map(\.name), ["Battery"])
        XCTAssertEqual(short, long)
        XCTAssertEqual(thirtyTwo.first?.id, BluetoothUUID(0xFE95))
    }

    // MARK: Splitting outgoing text

    func testShortTextIsOnePart() {
        XCTAssertEqual(ChatSplitter.parts(of: "hello", limit: 244), [Array("hello".utf8)])
        XCTAssertEqual(ChatSplitter.parts(of: "", limit: 244), [[]])
    }

    func testLongTextIsSplitAtTheLimitWithoutCuttingACharacter() {
        let text = String(repeating: "aé€😀", count: 40)  // 1 + 2 + 3 + 4 bytes, 400 bytes in all
        let parts = ChatSplitter.parts(of: text, limit: 20)
        XCTAssertTrue(parts.allSatisfy { $0.count <= 20 })
        XCTAssertEqual(parts.flatMap { $0 }, Array(text.utf8), "nothing lost or reordered")
        for part in parts { XCTAssertNotNil(String(validating: part, as: UTF8.self), "every part is whole UTF-8") }
    }

    func testAGraphemeLongerThanAPartIsCutBetweenItsScalars() {
        let family = "👨‍👩‍👧‍👦"  // 25 bytes, one grapheme
        let parts = ChatSplitter.parts(of: family, limit: 20)
        XCTAssertEqual(parts.count, 2)
        XCTAssertEqual(parts.flatMap { $0 }, Array(family.utf8))
        for part in parts { XCTAssertNotNil(String(validating: part, as: UTF8.self)) }
    }

    func testEveryATTErrorIsSaidInWords() {
        let messages = (UInt8(0x01)...0x13).map { ATTErrorCode(raw: $0).message }
        XCTAssertEqual(Set(messages).count, messages.count, "each code has words of its own")
        XCTAssertFalse(messages.contains { $0.contains("0x") }, "no bare numbers for the spec's codes")
        XCTAssertEqual(ATTErrorCode.insufficientAuthentication.message, "Insufficient authentication: pair with the device first.")
        XCTAssertTrue(ATTErrorCode(raw: 0x0C).wantsPairing)
        XCTAssertFalse(ATTErrorCode.readNotPermitted.wantsPairing)
        XCTAssertEqual(ATTErrorCode(raw: 0x85).message, "The device's own error 0x85: its documentation says what it means.")
        XCTAssertEqual(ATTErrorCode(raw: 0xFD).message, "Notifications are not set up as the device expects.")
        XCTAssertEqual(ATTError.error(.readNotPermitted, request: 0x0A, handle: 0x2A).description,
                       "Read not permitted: the device does not let this value be read. (request 0xa, handle 0x2a, ATT error 0x2)")
    }
}
