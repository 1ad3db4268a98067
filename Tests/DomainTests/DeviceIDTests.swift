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
