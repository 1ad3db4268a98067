// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

@testable import Bluetooth
import Domain
import XCTest

/// Byte-level decoding, with packets laid out as Core v5.4, Vol 4, Part E, §7.7 describes them.
final class HCIEventTests: XCTestCase {
    func testCommandCompleteCarriesOpcodeAndReturnParameters() throws {
        // Reset complete: num packets 1, opcode 0x0C03, status 0.
        XCTAssertEqual(try HCIEvent.decode([0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00]),
                       .commandComplete(opcode: 0x0C03, returnParameters: [0x00]))
    }

    func testCommandStatusCarriesStatusAndOpcode() throws {
        XCTAssertEqual(try HCIEvent.decode([0x0F, 0x04, 0x01, 0x01, 0x01, 0x04]), .commandStatus(status: 1, opcode: 0x0401))
    }

    func testLegacyAdvertisingReportDecodesEveryField() throws {
        let ad: [UInt8] = [0x02, 0x01, 0x06, 0x05, 0x09, 0x42, 0x75, 0x64, 0x73]
        let packet: [UInt8] = [0x3E, UInt8(2 + 1 + 1 + 6 + 1 + ad.count + 1), 0x02, 0x01, 0x00, 0x01,
                               0x01, 0x02, 0x03, 0x04, 0x05, 0xC6, UInt8(ad.count)] + ad + [0xC4]
        guard case .leAdvertisingReports(let reports) = try HCIEvent.decode(packet[...]) else { return XCTFail() }
        XCTAssertEqual(reports.count, 1)
        let r = reports[0]
        XCTAssertTrue(r.eventType.connectable && r.eventType.scannable && r.eventType.legacy)
        XCTAssertFalse(r.eventType.scanResponse || r.eventType.directed)
        XCTAssertEqual(r.addressType, 1)
        XCTAssertEqual(DeviceID(wireBytes: r.address, kind: .leRandom).address, "C6:05:04:03:02:01")
        XCTAssertEqual(r.rssi, -60)
        XCTAssertEqual(r.data, ad)
    }

    func testLegacyScanResponseTypeIsDecoded() {
        let type = AdvertisingEventType(legacy: 0x04)
        XCTAssertEqual(type?.scanResponse, true)
        XCTAssertEqual(type?.rawValue, 0x001B)
        XCTAssertNil(AdvertisingEventType(legacy: 0x09))
    }

    func testExtendedReportDecodesBitsTxPowerAndLongData() throws {
        let data = [UInt8](repeating: 0xAB, count: 40)
        var body: [UInt8] = [0x0D, 0x01, 0x13, 0x00, 0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x01, 0x00, 0xFF, 0xF8, 0xBE]
        body += [0x00, 0x00, 0x00, 0, 0, 0, 0, 0, 0, UInt8(data.count)] + data
        let packet = [0x3E, UInt8(body.count)] + body
        guard case .leAdvertisingReports(let reports) = try HCIEvent.decode(packet[...]) else { return XCTFail() }
        XCTAssertEqual(reports[0].txPower, -8)
        XCTAssertEqual(reports[0].rssi, -66)
        XCTAssertEqual(reports[0].data.count, 40, "more than 31 bytes of AD")
        XCTAssertTrue(reports[0].eventType.connectable && reports[0].eventType.legacy)
        XCTAssertEqual(reports[0].eventType.dataStatus, 0)
    }

    func testExtendedReportTxPower127MeansNotAvailable() throws {
        var body: [UInt8] = [0x0D, 0x01, 0x1B, 0x00, 0x01, 1, 2, 3, 4, 5, 6, 0x01, 0x00, 0xFF, 0x7F, 0x7F]
        body += [0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
        guard case .leAdvertisingReports(let reports) = try HCIEvent.decode(([0x3E, UInt8(body.count)] + body)[...]) else { return XCTFail() }
        XCTAssertNil(reports[0].txPower)
        XCTAssertNil(reports[0].rssi)
        XCTAssertTrue(reports[0].eventType.scanResponse)
    }

    func testInquiryResultWithRSSIUsesTheBtvirtLayout() throws {
        // num, addr, page scan rep mode, reserved(1), CoD(3), clock offset(2), RSSI.
        let packet: [UInt8] = [0x22, 15, 0x01, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x01, 0x00, 0x04, 0x04, 0x24, 0x34, 0x12, 0xC4]
        guard case .inquiryResults(let responses) = try HCIEvent.decode(packet[...]) else { return XCTFail() }
        XCTAssertEqual(responses[0].rssi, -60)
        XCTAssertEqual(responses[0].classOfDevice, 0x240404)
        XCTAssertEqual(responses[0].clockOffset, 0x1234)
        XCTAssertEqual(DeviceClass.name(0x240404), "Audio/Video: Headset")
    }

    func testPlainInquiryResultHasTwoReservedBytesAndNoRSSI() throws {
        let packet: [UInt8] = [0x02, 15, 0x01, 1, 2, 3, 4, 5, 6, 0x01, 0x00, 0x00, 0x0C, 0x02, 0x5A, 0x00, 0x00]
        guard case .inquiryResults(let responses) = try HCIEvent.decode(packet[...]) else { return XCTFail() }
        XCTAssertNil(responses[0].rssi)
        XCTAssertEqual(responses[0].classOfDevice, 0x5A020C)
    }

    func testExtendedInquiryResultStripsPaddingAndParsesTheName() throws {
        var eir: [UInt8] = [0x05, 0x09, 0x50, 0x65, 0x65, 0x72]
        eir += [UInt8](repeating: 0, count: 240 - eir.count)
        let packet: [UInt8] = [0x2F, 255, 0x01, 1, 2, 3, 4, 5, 6, 0x01, 0x00, 0x0C, 0x02, 0x5A, 0x00, 0x00, 0xB0] + eir
        let observations = try ObservationDecoder.observations(inEvent: packet[...], at: Date())
        XCTAssertEqual(observations.first?.name, "Peer")
        XCTAssertEqual(observations.first?.rssi, -80)
        XCTAssertEqual(observations.first?.id.kind, .bredr)
    }

    func testRemoteNameCompleteReadsTheNulTerminatedName() throws {
        var body: [UInt8] = [0x00, 1, 2, 3, 4, 5, 6] + Array("Speaker".utf8)
        body += [UInt8](repeating: 0, count: 255 - body.count)
        guard case .remoteNameRequestComplete(_, _, let name) = try HCIEvent.decode(([0x07, UInt8(body.count)] + body)[...]) else {
            return XCTFail()
        }
        XCTAssertEqual(name, "Speaker")
    }

    func testTruncatedPacketsBecomeTypedErrorsNeverTraps() {
        XCTAssertThrowsError(try HCIEvent.decode([])) { XCTAssertEqual($0 as? DecodeError, .truncated("event code")) }
        XCTAssertThrowsError(try HCIEvent.decode([0x3E, 0x0A, 0x02, 0x01]))
        // A declared data length beyond the packet.
        XCTAssertThrowsError(try HCIEvent.decode([0x3E, 0x0C, 0x02, 0x01, 0x00, 0x00, 1, 2, 3, 4, 5, 6, 0x1F, 0x00]))
        XCTAssertThrowsError(try HCIEvent.decode([0x3E, 0x02, 0x02, 0x00]), "zero reports is malformed")
        for length in 0..<64 {
            // Every prefix of a real packet is handled without trapping.
            let packet: [UInt8] = [0x2F, 255, 0x01, 1, 2, 3, 4, 5, 6, 0x01, 0x00, 0x0C, 0x02, 0x5A, 0x00, 0x00, 0xB0]
            _ = try? HCIEvent.decode(packet.prefix(length))
        }
    }

    func testCommandsAreEncodedAsTheSpecLaysThemOut() {
        XCTAssertEqual(HCICommand.reset.packet, [0x03, 0x0C, 0x00])
        XCTAssertEqual(HCICommand.inquiry(length: 4).packet, [0x01, 0x04, 0x05, 0x33, 0x8B, 0x9E, 0x04, 0x00])
        XCTAssertEqual(HCICommand.leSetScanEnable(true).packet, [0x0C, 0x20, 0x02, 0x01, 0x00])
        XCTAssertEqual(HCICommand.leSetExtendedScanParameters(active: true, interval: 0x60, window: 0x30).packet,
                       [0x41, 0x20, 0x08, 0x00, 0x00, 0x01, 0x01, 0x60, 0x00, 0x30, 0x00])
        XCTAssertEqual(HCICommand.leSetExtendedScanEnable(true).packet, [0x42, 0x20, 0x06, 0x01, 0x00, 0, 0, 0, 0])
        XCTAssertEqual(HCICommand.writeInquiryMode(2).packet, [0x45, 0x0C, 0x01, 0x02])
        XCTAssertEqual(HCICommand.remoteNameRequest([1, 2, 3, 4, 5, 6], pageScanRepetitionMode: 1, clockOffset: 0x1234).packet,
                       [0x19, 0x04, 0x0A, 1, 2, 3, 4, 5, 6, 0x01, 0x00, 0x34, 0x12])
        XCTAssertEqual(HCICommand.leSetEventMask(0x1F).packet, [0x01, 0x20, 0x08, 0x1F, 0, 0, 0, 0, 0, 0, 0])
    }
}
