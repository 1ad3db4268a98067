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

    func testARandomAddressIsNamedByItsTopBits() throws {
        func type(_ text: String, _ kind: AddressKind = .leRandom) throws -> AddressType {
            try DeviceID(parsing: text, kind: kind).addressType
        }
        XCTAssertEqual(try type("C4:12:34:56:78:9A"), .staticRandom)
        // The Core spec's sample resolvable private address (Vol 3 Part H, ah: prand 708194).
        XCTAssertEqual(try type("70:81:94:0D:FB:AA"), .resolvablePrivate)
        XCTAssertEqual(try type("3F:00:00:00:00:01"), .nonResolvablePrivate)
        XCTAssertEqual(try type("AA:BB:CC:DD:EE:02"), .reservedRandom)
        XCTAssertEqual(try type("70:81:94:0D:FB:AA", .lePublic), .lePublic, "a public address's bits say nothing")
        XCTAssertEqual(try type("00:1A:7D:DA:71:13", .bredr), .bredr)
        XCTAssertEqual(try DeviceID(parsing: "70:81:94:0D:FB:AA", kind: .leRandom).identifierLine,
                       "70:81:94:0D:FB:AA · private address")
        XCTAssertNotNil(AddressType.resolvablePrivate.explanation, "a private address says that it changes")
        XCTAssertNil(AddressType.staticRandom.explanation)
    }
}
