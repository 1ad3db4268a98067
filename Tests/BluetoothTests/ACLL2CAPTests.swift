// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

@testable import Bluetooth
import XCTest

/// ACL framing, fragmentation and reassembly, L2CAP basic frames, signalling and SMP answers.
final class ACLL2CAPTests: XCTestCase {
    func testAnACLPacketRoundTrips() throws {
        let packet = ACLPacket(handle: 0x0ABC, boundary: .continuation, data: [1, 2, 3])
        XCTAssertEqual(packet.bytes, [0xBC, 0x1A, 3, 0, 1, 2, 3])
        XCTAssertEqual(try ACLPacket.decode(packet.bytes[...]), packet)
    }

    func testALongFrameIsSplitToTheBufferSizeAndJoinedAgain() throws {
        let frame = L2CAPFrame(channel: 4, payload: Array(0..<100).map { UInt8($0) }).bytes
        let packets = ACLPacket.fragments(of: frame, handle: 1, bufferSize: 27)
        XCTAssertEqual(packets.map(\.data.count), [27, 27, 27, 23])
        XCTAssertEqual(packets.map(\.boundary), [.firstNonFlushable, .continuation, .continuation, .continuation])
        var reassembler = ACLReassembler()
        var frames: [[UInt8]] = []
        for packet in packets {
            if let whole = try reassembler.add(try ACLPacket.decode(packet.bytes[...])) { frames.append(whole) }
        }
        XCTAssertEqual(frames, [frame])
        XCTAssertEqual(try L2CAPFrame.decode(frames[0]).payload.count, 100)
    }

    func testAShortFrameTravelsInOnePacket() throws {
        let frame = L2CAPFrame(channel: 4, payload: [0x1E]).bytes
        XCTAssertEqual(ACLPacket.fragments(of: frame, handle: 1, bufferSize: 27).count, 1)
        var reassembler = ACLReassembler()
        XCTAssertEqual(try reassembler.add(ACLPacket(handle: 1, boundary: .first, data: frame)), frame)
    }

    func testFragmentsOfTwoConnectionsDoNotMix() throws {
        let a = L2CAPFrame(channel: 4, payload: [UInt8](repeating: 0xA, count: 30)).bytes
        let b = L2CAPFrame(channel: 4, payload: [UInt8](repeating: 0xB, count: 30)).bytes
        var reassembler = ACLReassembler()
        XCTAssertNil(try reassembler.add(ACLPacket(handle: 1, boundary: .first, data: Array(a[0..<20]))))
        XCTAssertNil(try reassembler.add(ACLPacket(handle: 2, boundary: .first, data: Array(b[0..<20]))))
        XCTAssertEqual(try reassembler.add(ACLPacket(handle: 2, boundary: .continuation, data: Array(b[20...]))), b)
        XCTAssertEqual(try reassembler.add(ACLPacket(handle: 1, boundary: .continuation, data: Array(a[20...]))), a)
    }

    func testBrokenFragmentsAreTypedErrorsAndTheNextFrameStillArrives() throws {
        var reassembler = ACLReassembler()
        XCTAssertThrowsError(try reassembler.add(ACLPacket(handle: 1, boundary: .continuation, data: [1, 2])),
                             "a continuation without a start")
        let frame = L2CAPFrame(channel: 4, payload: [1, 2, 3]).bytes
        XCTAssertThrowsError(try reassembler.add(ACLPacket(handle: 1, boundary: .first, data: frame + [9, 9])),
                             "more data than the L2CAP length")
        XCTAssertNil(try reassembler.add(ACLPacket(handle: 1, boundary: .first, data: Array(frame[0..<5]))))
        XCTAssertThrowsError(try reassembler.add(ACLPacket(handle: 1, boundary: .first, data: Array(frame[0..<5]))),
                             "a new start while a frame is incomplete")
        XCTAssertEqual(try reassembler.add(ACLPacket(handle: 1, boundary: .continuation, data: Array(frame[5...]))), frame,
                       "the newer start is kept")
        XCTAssertThrowsError(try ACLPacket.decode([0x01, 0x00, 5, 0, 1, 2][...]), "shorter than its length field")
        XCTAssertThrowsError(try ACLPacket.decode([0x01, 0x30, 1, 0, 1][...]), "boundary flag 0b11")
        XCTAssertThrowsError(try ACLPacket.decode([0x01][...]))
    }

    func testL2CAPFramesCheckTheirLength() throws {
        XCTAssertEqual(L2CAPFrame(channel: 5, payload: [7]).bytes, [1, 0, 5, 0, 7])
        XCTAssertThrowsError(try L2CAPFrame.decode([5, 0, 4, 0, 1]))
        XCTAssertThrowsError(try L2CAPFrame.decode([1, 0, 4, 0, 1, 2]))
        XCTAssertThrowsError(try L2CAPFrame.decode([1, 0]))
    }

    func testAConnectionParameterUpdateRequestIsAccepted() throws {
        // Code 0x12, identifier 7, length 8: interval 6–12, latency 0, timeout 200 (Vol 3, Part A, §4.20).
        let request = try SignallingCommand.decode([0x12, 7, 8, 0, 6, 0, 12, 0, 0, 0, 200, 0])
        XCTAssertEqual(request.answer, .connectionParameterUpdateResponse(identifier: 7, result: 0))
        XCTAssertEqual(request.answer?.bytes, [0x13, 7, 2, 0, 0, 0])
    }

    func testInvalidParametersAreRejectedAndUnknownRequestsNotUnderstood() throws {
        let bad = try SignallingCommand.decode([0x12, 8, 8, 0, 1, 0, 1, 0, 0, 0, 200, 0])
        XCTAssertEqual(bad.answer, .connectionParameterUpdateResponse(identifier: 8, result: 1))
        let credit = try SignallingCommand.decode([0x14, 9, 10, 0, 0x80, 0, 0x40, 0, 0x17, 0, 0x17, 0, 1, 0])
        XCTAssertEqual(credit.answer?.bytes, [0x01, 9, 2, 0, 0, 0], "Command Reject, not understood")
        XCTAssertNil(try SignallingCommand.decode([0x13, 1, 2, 0, 0, 0]).answer, "responses need no answer")
        XCTAssertNil(try SignallingCommand.decode([0x16, 1, 4, 0, 0x40, 0, 1, 0]).answer, "nor do credit indications")
        XCTAssertThrowsError(try SignallingCommand.decode([0x12, 7, 4, 0, 6, 0, 12, 0]), "a short update request")
        XCTAssertThrowsError(try SignallingCommand.decode([0x12, 7, 8, 0, 6]), "a truncated command")
    }

    func testPairingIsAnsweredWithPairingNotSupported() {
        XCTAssertEqual(SecurityManager.answer(to: [0x01, 0x03, 0x00, 0x01, 0x10, 0x07, 0x07]), [0x05, 0x05])
        XCTAssertEqual(SecurityManager.answer(to: [0x0B, 0x01]), [0x05, 0x05], "a peripheral's Security Request")
        XCTAssertNil(SecurityManager.answer(to: [0x01, 0x03]), "a malformed request is ignored")
        XCTAssertNil(SecurityManager.answer(to: []))
        XCTAssertNil(SecurityManager.answer(to: [0x05, 0x05]))
    }
}
