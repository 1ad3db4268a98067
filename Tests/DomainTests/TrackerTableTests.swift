// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import XCTest

/// Each tracker family read from the bytes it sends: separated and near its owner, and a frame
/// cut short or of a length the family never sends, which is refused without a guess.
final class TrackerTableTests: XCTestCase {
    private func apple(_ data: [UInt8]) -> TrackerReading? {
        TrackerTable.read(manufacturerData: [ManufacturerData(companyID: 0x004C, companyName: "Apple, Inc.", data: data)], serviceData: [:])
    }

    private func service(_ uuid: String, _ data: [UInt8]) -> TrackerReading? {
        TrackerTable.read(manufacturerData: [], serviceData: [ServiceID(BluetoothUUID(uuid)!, name: nil): data])
    }

    /// A full-key Find My payload: type 0x12, length 0x19, the status byte, 22 key bytes, key bits, hint.
    private func findMyFull(status: UInt8) -> [UInt8] { [0x12, 0x19, status] + Array(repeating: 0xAB, count: 22) + [0x01, 0x00] }

    func testAnAirTagAwayFromItsOwnerIsSeparatedAndNearItIsNot() {
        let away = apple(findMyFull(status: 0x10 | 0x40))
        XCTAssertEqual(away, TrackerReading(family: .appleFindMy, kind: .airTag, state: .separated, batteryLevel: 1,
                                            stableID: ArraySlice(repeating: 0xAB, count: 22)))
        XCTAssertEqual(away?.mayBeFollowing, true)
        XCTAssertEqual(away?.words, "AirTag · away from its owner")
        let near = apple([0x12, 0x02, 0x10, 0x00])
        XCTAssertEqual(near?.kind, .airTag)
        XCTAssertEqual(near?.state, .nearOwner)
        XCTAssertEqual(near?.mayBeFollowing, false)
        XCTAssertEqual(near?.words, "AirTag · near its owner")
    }

    func testAPhoneAndAirPodsNearTheirOwnerAreNeverFlagged() {
        // A phone's block holds Nearby Info (0x10) before its Find My run.
        let phone = apple([0x10, 0x05, 0x01, 0x18, 0x44, 0x22, 0x11, 0x12, 0x02, 0x00, 0x03])
        XCTAssertEqual(phone?.kind, .appleDevice)
        XCTAssertEqual(phone?.mayBeFollowing, false)
        let airPods = apple([0x12, 0x02, 0x18, 0x01])
        XCTAssertEqual(airPods?.kind, .airPods)
        XCTAssertEqual(airPods?.state, .nearOwner)
        XCTAssertEqual(airPods?.mayBeFollowing, false)
        // Even away from its owner, a phone is no tag.
        XCTAssertEqual(apple(findMyFull(status: 0x00))?.mayBeFollowing, false)
        XCTAssertEqual(apple(findMyFull(status: 0x08))?.kind, .findMyAccessory)
    }

    func testEachFamilysSeparatedAndNearOwnerFrames() {
        var smartTag = [UInt8](repeating: 0, count: 13)
        smartTag[0] = 0x12
        smartTag[1...3] = [0x34, 0x12, 0x00]
        smartTag[12] = 0x03
        XCTAssertEqual(service("FD5A", smartTag),
                       TrackerReading(family: .samsungSmartTag, kind: .smartTag, state: .separated, batteryLevel: 0, agingCounter: 0x1234))
        smartTag[0] = 0x11
        XCTAssertEqual(service("FD5A", smartTag)?.state, .recentlySeparated)
        smartTag[0] = 0x15
        XCTAssertEqual(service("FD5A", smartTag)?.state, .nearOwner)

        let eid = [UInt8](repeating: 0x5C, count: 20)
        XCTAssertEqual(service("FEAA", [0x41] + eid + [0x00])?.state, .separated)
        XCTAssertEqual(service("FEAA", [0x40] + eid + [0x00])?.state, .nearOwner)
        XCTAssertEqual(service("FEAA", [0x41] + eid + eid.prefix(12) + [0x00])?.kind, .findMyDeviceTag, "a 32-byte identifier")

        XCTAssertEqual(service("FCB2", [0x02, 0x00] + eid)?.state, .separated)
        XCTAssertEqual(service("FCB2", [0x02, 0x80] + eid)?.state, .nearOwner)

        XCTAssertEqual(service("FE33", [0x00, 0x01, 0x44])?.state, .separated)
        XCTAssertEqual(service("FE33", [0x00, 0x00, 0x44])?.state, .nearOwner)

        XCTAssertEqual(service("FEED", [0x02, 0x00, 0x11]), TrackerReading(family: .tile, kind: .tile, state: .unknown))
        XCTAssertEqual(service("FEED", [0x02])?.mayBeFollowing, true, "a Tile does not say, so it may be counted")
        // A Tile that lists its service UUID and sends no service data is a Tile all the same.
        XCTAssertEqual(TrackerTable.read(manufacturerData: [], serviceData: [:], services: [ServiceID(BluetoothUUID(0xFEED), name: nil)]),
                       TrackerReading(family: .tile, kind: .tile, state: .unknown))
        XCTAssertNil(TrackerTable.read(manufacturerData: [], serviceData: [:], services: [ServiceID(BluetoothUUID(0xFEEE), name: nil)]))
        XCTAssertEqual(service("FA25", [0x01])?.family, .pebblebee)
    }

    func testATruncatedOrWrongLengthFrameOfEachFamilyIsRefusedWithoutAGuess() {
        XCTAssertNil(apple([0x12, 0x19, 0x10] + Array(repeating: 0, count: 10)), "a full key cut short")
        XCTAssertNil(apple([0x12, 0x05, 0x10, 0, 0, 0, 0]), "a Find My length Apple never sends")
        XCTAssertNil(apple([0x12]), "the type alone")
        XCTAssertNil(service("FD5A", [UInt8](repeating: 0x12, count: 12)))
        XCTAssertNil(service("FEAA", [0x41] + [UInt8](repeating: 0, count: 19)))
        XCTAssertNil(service("FEAA", [0x10, 0x00, 0x01]), "Eddystone's URL frame is no tracker")
        XCTAssertNil(service("FCB2", [0x02]))
        XCTAssertNil(service("FE33", [0x00]))
        XCTAssertNil(service("FEED", []))
        XCTAssertNil(service("FA25", []))
        XCTAssertNil(TrackerTable.read(manufacturerData: [ManufacturerData(companyID: 0x0006, companyName: "Microsoft", data: [0x12, 0x02, 0x10, 0])],
                                       serviceData: [:]), "another company's bytes")
    }
}
