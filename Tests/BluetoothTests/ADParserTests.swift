// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

@testable import Bluetooth
import Domain
import Foundation
import XCTest

final class ADParserTests: XCTestCase {
    func testEveryKnownStructureIsDecoded() {
        let bytes: [UInt8] = [
            0x02, 0x01, 0x06,                         // flags
            0x05, 0x03, 0x0F, 0x18, 0x0A, 0x18,       // complete 16-bit: Battery, Device Information
            0x05, 0x05, 0x78, 0x56, 0x34, 0x12,       // complete 32-bit
            0x11, 0x07] + [0x9E, 0xCA, 0xDC, 0x24, 0x0E, 0xE5, 0xA9, 0xE0, 0x93, 0xF3, 0xA3, 0xB5, 0x01, 0x00, 0x40, 0x6E] + [
            0x04, 0x08, 0x42, 0x75, 0x64,             // short name
            0x05, 0x09, 0x42, 0x75, 0x64, 0x73,       // complete name
            0x02, 0x0A, 0xF8,                         // TX power -8
            0x03, 0x19, 0xC1, 0x03,                   // appearance 0x03C1
            0x04, 0x0D, 0x04, 0x04, 0x24,             // class of device
            0x05, 0x16, 0xF3, 0xFE, 0xAA, 0xBB,       // service data FEF3
            0x07, 0xFF, 0x59, 0x00, 1, 2, 3, 4,       // manufacturer 0x0059
            0x03, 0x2A, 0x01, 0x02,                   // unknown type 0x2A
        ]
        let ad = ADParser.parse(bytes)
        XCTAssertEqual(ad.flags, 0x06)
        XCTAssertEqual(ad.services.map(\.uuid), ["180F", "180A", "12345678", "6E400001-B5A3-F393-E0A9-E50E24DCCA9E"])
        XCTAssertEqual(ad.services.first?.name, "Battery")
        XCTAssertEqual(ad.name, "Buds")
        XCTAssertEqual(ad.shortName, "Bud")
        XCTAssertEqual(ad.txPower, -8)
        XCTAssertEqual(ad.appearance, 0x03C1)
        XCTAssertEqual(ad.classOfDevice, 0x240404)
        XCTAssertEqual(ad.serviceData[ServiceID(BluetoothUUID(0xFEF3), name: "Google")], [0xAA, 0xBB])
        XCTAssertEqual(ad.manufacturerData.first?.companyID, 0x0059)
        XCTAssertEqual(ad.manufacturerData.first?.companyName, "Nordic Semiconductor ASA")
        XCTAssertEqual(ad.manufacturerData.first?.data, [1, 2, 3, 4])
        XCTAssertEqual(ad.unknown.first?.0, 0x2A)
        XCTAssertEqual(ad.unknown.first?.1, [0x01, 0x02])
        XCTAssertNil(ad.problem)
    }

    func testEmptyUUIDListsAreFine() {
        XCTAssertEqual(ADParser.parse([0x01, 0x03, 0x01, 0x07]).services, [])
    }

    func testTxPower127MeansNotAvailable() {
        XCTAssertNil(ADParser.parse([0x02, 0x0A, 0x7F]).txPower)
    }

    func testInvalidUTF8IsReplacedNotDropped() {
        let ad = ADParser.parse([0x04, 0x09, 0x41, 0xFF, 0x42])
        XCTAssertEqual(ad.name, "A\u{FFFD}B")
        XCTAssertEqual(ad.invalidNameBytes, [0x41, 0xFF, 0x42], "the bytes are kept, so the detail page can show them")
        XCTAssertNil(ADParser.parse([0x03, 0x09, 0x41, 0x42]).invalidNameBytes, "valid names keep nothing extra")
    }

    func testAMalformedReportKeepsTheDeviceAndWholeUUIDs() {
        // Flags, a 16-bit UUID list of 5 bytes (two whole UUIDs and a stray byte), then a name that overruns.
        let data: [UInt8] = [0x02, 0x01, 0x06, 0x06, 0x03, 0x0D, 0x18, 0x0F, 0x18, 0xAA, 0x09, 0x09, 0x41]
        let report = AdvertisingReport(eventType: AdvertisingEventType(legacy: 0x00)!, addressType: 1,
                                       address: [1, 2, 3, 4, 5, 0xC6], rssi: -60, txPower: nil, data: data)
        let o = ObservationDecoder.observation(report, at: Date())
        XCTAssertEqual(o.rssi, -60, "still listed with its signal")
        XCTAssertEqual(o.flags, 0x06)
        XCTAssertEqual(o.services.map(\.uuid), ["180D", "180F"], "whole UUIDs kept, the stray byte dropped")
        XCTAssertTrue(o.malformed)
        XCTAssertNil(o.name, "the overrunning name is not guessed at")
    }

    func testUnassignedCompanyIsNamedByNumber() {
        XCTAssertEqual(CompanyNames.name(0xFFFE), "Unknown maker (0xFFFE)")
    }

    func testOverlongStructureIsReportedAndEarlierOnesKept() {
        let ad = ADParser.parse([0x02, 0x01, 0x06, 0x09, 0x09, 0x41])
        XCTAssertEqual(ad.flags, 0x06)
        XCTAssertNotNil(ad.problem)
    }

    func testRandomBytesNeverTrap() {
        var seed: UInt64 = 0x9E3779B97F4A7C15
        for _ in 0..<2000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int(seed % 64) {
                seed = seed &* 6364136223846793005 &+ 1442695040888963407
                bytes.append(UInt8(truncatingIfNeeded: seed >> 33))
            }
            seed = seed &* 6364136223846793005 &+ 1
            let parsed = ADParser.parse(bytes)
            // Walked as the structures' lengths say: one that runs past the end is reported, never read.
            var at = 0
            var overruns = false
            while at < bytes.count, bytes[at] != 0 {
                if at + Int(bytes[at]) >= bytes.count { overruns = true; break }
                at += Int(bytes[at]) + 1
            }
            if overruns {
                guard case .truncated? = parsed.problem else { return XCTFail("an overrun in \(bytes) is not reported: \(String(describing: parsed.problem))") }
            }
            XCTAssertTrue(parsed.manufacturerData.allSatisfy { $0.data.count + 4 <= bytes.count }, "no block longer than the input")
            _ = try? HCIEvent.decode(([0x3E, UInt8(bytes.count)] + bytes)[...])
        }
    }

    func testWellKnownLongServicesAreNamed() {
        // Complete list of 128-bit UUIDs (AD 0x07), little-endian on the wire.
        let nordic: [UInt8] = [0x9E, 0xCA, 0xDC, 0x24, 0x0E, 0xE5, 0xA9, 0xE0, 0x93, 0xF3, 0xA3, 0xB5, 0x01, 0x00, 0x40, 0x6E]
        let battery: [UInt8] = [0xFB, 0x34, 0x9B, 0x5F, 0x80, 0x00, 0x00, 0x80, 0x00, 0x10, 0x00, 0x00, 0x0F, 0x18, 0x00, 0x00]
        let ad = ADParser.parse([33, 0x07] + nordic + battery)
        XCTAssertEqual(ad.services.map(\.uuid), ["6E400001-B5A3-F393-E0A9-E50E24DCCA9E", "0000180F-0000-1000-8000-00805F9B34FB"])
        XCTAssertEqual(ad.services.map(\.name), ["Nordic UART", "Battery"],
                       "a vendor service by name, and a SIG service written out on the base UUID by its short name")
    }
}
