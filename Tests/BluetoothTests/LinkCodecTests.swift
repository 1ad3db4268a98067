// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

@testable import Bluetooth
import XCTest

/// Connection commands and events, byte for byte from Core v5.4, Vol 4, Part E.
final class LinkCodecTests: XCTestCase {
    private let peer: [UInt8] = [0xF5, 0xF4, 0xF3, 0xF2, 0xF1, 0xF0]

    /// Initiating listens the whole 60 ms of each interval, as Bumble's client does, and asks for
    /// a 15–30 ms connection interval, so each discovery round trip is short.
    func testLECreateConnectionNamesThePeerAndARandomOwnAddress() {
        let command = HCICommand.leCreateConnection(peer: peer, peerType: 1, ownRandom: true)
        XCTAssertEqual(command.packet, [0x0D, 0x20, 25, 0x60, 0x00, 0x60, 0x00, 0x00, 0x01] + peer
                       + [0x01, 0x0C, 0x00, 0x18, 0x00, 0x00, 0x00, 0xF4, 0x01, 0, 0, 0, 0])
        XCTAssertEqual(command.name, "LE Create Connection")
    }

    func testExtendedCreateConnectionInitiatesOnThe1MPHY() {
        let command = HCICommand.leExtendedCreateConnection(peer: peer, peerType: 0, ownRandom: true)
        XCTAssertEqual(command.packet, [0x43, 0x20, 26, 0x00, 0x01, 0x00] + peer
                       + [0x01, 0x60, 0x00, 0x60, 0x00, 0x0C, 0x00, 0x18, 0x00, 0x00, 0x00, 0xF4, 0x01, 0, 0, 0, 0])
    }

    func testCancelDisconnectRandomAddressAndBufferSize() {
        XCTAssertEqual(HCICommand.leCreateConnectionCancel.packet, [0x0E, 0x20, 0])
        XCTAssertEqual(HCICommand.disconnect(handle: 0x0040).packet, [0x06, 0x04, 3, 0x40, 0x00, 0x13])
        XCTAssertEqual(HCICommand.leSetRandomAddress(peer).packet, [0x05, 0x20, 6] + peer)
        XCTAssertEqual(HCICommand.leReadBufferSize.packet, [0x02, 0x20, 0])
        XCTAssertEqual(HCICommand.readBufferSize.packet, [0x05, 0x10, 0])
    }

    func testConnectionUpdateCarriesTheRequestedParameters() {
        let request = ConnectionParameterRequest(intervalMin: 6, intervalMax: 12, latency: 0, timeout: 200)
        XCTAssertEqual(HCICommand.leConnectionUpdate(handle: 1, request).packet,
                       [0x13, 0x20, 14, 1, 0, 6, 0, 12, 0, 0, 0, 200, 0, 0, 0, 0, 0])
        XCTAssertEqual(HCICommand.leRemoteConnectionParameterReply(handle: 1, request).opcode, 0x2020)
    }

    func testLEConnectionCompleteAsBumbleSendsIt() throws {
        let event = try HCIEvent.decode([0x3E, 19, 0x01, 0x00, 0x01, 0x00, 0x00, 0x01] + peer + [0x18, 0, 0, 0, 0xF4, 1, 0])
        let link = try LinkEvent.decode(event)
        XCTAssertEqual(link, .connectionComplete(LEConnectionComplete(status: 0, handle: 1, role: 0, peerAddressType: 1,
                                                                      peerAddress: peer, interval: 0x18)))
    }

    func testEnhancedConnectionCompleteV1AndV2SkipTheResolvableAddresses() throws {
        let rpas = [UInt8](repeating: 0xAA, count: 12)
        let v1 = try HCIEvent.decode([0x3E, 31, 0x0A, 0x00, 0x02, 0x00, 0x00, 0x01] + peer + rpas + [0x28, 0, 0, 0, 0xF4, 1, 0])
        let v2 = try HCIEvent.decode([0x3E, 34, 0x29, 0x00, 0x02, 0x00, 0x00, 0x01] + peer + rpas + [0x28, 0, 0, 0, 0xF4, 1, 0]
                                     + [0xFF, 0xFF, 0xFF])
        for event in [v1, v2] {
            guard case .connectionComplete(let complete)? = try LinkEvent.decode(event) else { return XCTFail("\(event)") }
            XCTAssertEqual(complete.handle, 2)
            XCTAssertEqual(complete.peerAddress, peer)
            XCTAssertEqual(complete.interval, 0x28)
        }
    }

    func testAFailedConnectionCarriesItsStatus() throws {
        let event = try HCIEvent.decode([0x3E, 19, 0x01, 0x02, 0x00, 0x00, 0x00, 0x00] + peer + [0, 0, 0, 0, 0, 0, 0])
        guard case .connectionComplete(let complete)? = try LinkEvent.decode(event) else { return XCTFail() }
        XCTAssertEqual(complete.status, 0x02, "Unknown Connection Identifier, as after a cancel")
    }

    func testDisconnectionCompleteAndCompletedPackets() throws {
        XCTAssertEqual(try LinkEvent.decode(try HCIEvent.decode([0x05, 4, 0x00, 0x01, 0x00, 0x13])),
                       .disconnectionComplete(status: 0, handle: 1, reason: 0x13))
        XCTAssertEqual(try LinkEvent.decode(try HCIEvent.decode([0x13, 9, 2, 0x01, 0x00, 0x03, 0x00, 0x02, 0x00, 0x01, 0x00])),
                       .completedPackets([CompletedPackets(handle: 1, count: 3), CompletedPackets(handle: 2, count: 1)]))
    }

    func testConnectionUpdateAndRemoteParameterRequest() throws {
        XCTAssertEqual(try LinkEvent.decode(try HCIEvent.decode([0x3E, 10, 0x03, 0x00, 0x01, 0x00, 0x10, 0, 0, 0, 0xC8, 0])),
                       .connectionUpdateComplete(status: 0, handle: 1, interval: 0x10))
        XCTAssertEqual(try LinkEvent.decode(try HCIEvent.decode([0x3E, 11, 0x06, 0x01, 0x00, 6, 0, 12, 0, 0, 0, 200, 0])),
                       .remoteParameterRequest(handle: 1, ConnectionParameterRequest(intervalMin: 6, intervalMax: 12,
                                                                                      latency: 0, timeout: 200)))
    }

    func testTruncatedConnectionEventsAreTypedErrorsAndOthersAreIgnored() throws {
        let short = try HCIEvent.decode([0x3E, 5, 0x01, 0x00, 0x01, 0x00, 0x00])
        XCTAssertThrowsError(try LinkEvent.decode(short)) { XCTAssertTrue($0 is DecodeError) }
        XCTAssertThrowsError(try LinkEvent.decode(try HCIEvent.decode([0x13, 3, 2, 0x01, 0x00])))
        XCTAssertThrowsError(try LinkEvent.decode(try HCIEvent.decode([0x05, 1, 0x00])))
        XCTAssertNil(try LinkEvent.decode(.hardwareError(code: 1)))
        XCTAssertNil(try LinkEvent.decode(try HCIEvent.decode([0x3E, 2, 0x14, 0x00])), "channel selection is not ours")
    }

    func testConnectionParameterRangesFollowTheSpec() {
        XCTAssertTrue(ConnectionParameterRequest(intervalMin: 24, intervalMax: 40, latency: 0, timeout: 500).isValid)
        XCTAssertFalse(ConnectionParameterRequest(intervalMin: 5, intervalMax: 40, latency: 0, timeout: 500).isValid)
        XCTAssertFalse(ConnectionParameterRequest(intervalMin: 40, intervalMax: 24, latency: 0, timeout: 500).isValid)
        XCTAssertFalse(ConnectionParameterRequest(intervalMin: 24, intervalMax: 3200, latency: 4, timeout: 100).isValid,
                       "the timeout must outlast two intervals with latency")
    }
}
