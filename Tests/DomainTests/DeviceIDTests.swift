// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import XCTest
@testable import Domain

final class DeviceIDTests: XCTestCase {
    func testAddressParsesAndPrintsCanonically() throws {
        let id = try DeviceID(parsing: "aa:bb:cc:0d:ee:0f", kind: .lePublic)
        XCTAssertEqual(id.address, "AA:BB:CC:0D:EE:0F")
        XCTAssertEqual(try DeviceID(storageKey: id.storageKey), id)
    }

    func testMalformedAddressIsRejectedWithAReason() {
        XCTAssertThrowsError(try DeviceID(parsing: "AA:BB:CC", kind: .bredr)) { error in
            XCTAssertEqual(error as? DeviceIDError, .wrongLength(3))
        }
        XCTAssertThrowsError(try DeviceID(parsing: "AA:BB:CC:DD:EE:GG", kind: .bredr)) { error in
            XCTAssertEqual(error as? DeviceIDError, .badOctet("GG"))
        }
    }

    func testWireOrderIsLittleEndian() {
        let id = DeviceID(wireBytes: [0x0F, 0xEE, 0x0D, 0xCC, 0xBB, 0xAA], kind: .leRandom)
        XCTAssertEqual(id.address, "AA:BB:CC:0D:EE:0F")
        XCTAssertEqual(id.wireBytes, [0x0F, 0xEE, 0x0D, 0xCC, 0xBB, 0xAA])
    }
}

final class ObservationMergeTests: XCTestCase {
    func testAScanResponseAddsToTheAdvertisementWithoutUndoingConnectable() throws {
        let id = try DeviceID(parsing: "C0:98:E5:49:00:01", kind: .leRandom)
        let advertisement = Observation(id: id, timestamp: Date(timeIntervalSince1970: 1), rssi: -60, name: "Speaker",
                                        flags: 0x06, connectable: true, services: [ServiceID(uuid: "110B", name: "Audio Sink")])
        let response = Observation(id: id, timestamp: Date(timeIntervalSince1970: 2), rssi: -58, connectable: false,
                                   isScanResponse: true,
                                   manufacturerData: [ManufacturerData(companyID: 0x0059, companyName: "Nordic Semiconductor ASA", data: [1])],
                                   appearance: 0x0841)
        let merged = advertisement.merging(response)
        XCTAssertEqual(merged.connectable, true, "a scan response says nothing about connectability")
        XCTAssertEqual(merged.name, "Speaker")
        XCTAssertEqual(merged.services.map(\.uuid), ["110B"])
        XCTAssertEqual(merged.manufacturerData.map(\.companyID), [0x0059])
        XCTAssertEqual(merged.appearance, 0x0841)
        XCTAssertEqual(merged.rssi, -58, "the signal is the newest")
        let again = merged.merging(advertisement)
        XCTAssertEqual(again.services.count, 1, "no duplicates")
        XCTAssertEqual(again.manufacturerData.count, 1)
    }
}
