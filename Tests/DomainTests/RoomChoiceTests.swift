// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import XCTest

/// Where a device heard by several sources is: the strongest source, changed only for a clear
/// margin held for a while, so a walk from the Kitchen to the Office changes the room once and
/// a device at the edge of two rooms stays put.
final class RoomChoiceTests: XCTestCase {
    private let id = try! DeviceID(parsing: "C4:00:00:00:00:01", kind: .leRandom)
    private let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    private func heard(_ source: String, _ rssi: Int, at second: Double) -> Observation {
        var o = Observation(id: id, timestamp: t0.addingTimeInterval(second), rssi: rssi, name: "Keys")
        o.source = source
        return o
    }

    func testTheFirstRoomIsTheStrongestOverTheFirstSecondsNotTheFirstHeard() {
        // The kitchen's gateway reports first, faintly; the office's, a moment later, hears it well.
        var device = LiveDevice(heard("Kitchen", -72, at: 0))
        XCTAssertEqual(device.room.room, "Kitchen")
        device.fold(heard("Office", -51, at: 0.4))
        device.fold(heard("Kitchen", -72, at: 1.0))
        device.fold(heard("Office", -51, at: 1.4))
        XCTAssertEqual(device.room.room, "Office", "the strongest over the first seconds")
        // Settled: a brief lead of the kitchen's afterwards does not move it.
        device.fold(heard("Kitchen", -40, at: 4.0))
        device.fold(heard("Kitchen", -40, at: 4.5))
        XCTAssertEqual(device.room.room, "Office")
    }

    func testAWalkFromTheKitchenToTheOfficeChangesTheRoomOnceThroughAnEdgeWobble() {
        var device = LiveDevice(heard("Kitchen", -55, at: 0))
        var rooms: [String] = []
        func note() { if let room = device.room.room, rooms.last != room { rooms.append(room) } }
        note()
        var second = 0.0
        // In the kitchen: the office hears it faintly.
        for _ in 0..<20 {
            second += 0.5
            device.fold(heard("Kitchen", -55, at: second))
            device.fold(heard("Office", -80, at: second + 0.1))
            note()
        }
        // In the doorway: each room by turns 3 dB stronger, for a minute.
        for step in 0..<120 {
            second += 0.5
            let kitchenAhead = step % 4 < 2
            device.fold(heard("Kitchen", kitchenAhead ? -68 : -71, at: second))
            device.fold(heard("Office", kitchenAhead ? -71 : -68, at: second + 0.1))
            note()
        }
        XCTAssertEqual(rooms, ["Kitchen"], "a 3 dB wobble at the edge is no move")
        // In the office.
        for _ in 0..<60 {
            second += 0.5
            device.fold(heard("Kitchen", -84, at: second))
            device.fold(heard("Office", -52, at: second + 0.1))
            note()
        }
        XCTAssertEqual(rooms, ["Kitchen", "Office"], "one change, not back and forth")
        XCTAssertEqual(device.heardBy.map(\.source), ["Kitchen", "Office"])
        XCTAssertEqual(device.heardBy.last?.rssi, -52)
    }

    func testAStrongerRoomMustHoldItsLeadForTheDwellTime() {
        var device = LiveDevice(heard("Kitchen", -60, at: 0))
        // Office 10 dB stronger for 5 s, then back: no change.
        for i in 1...10 { device.fold(heard("Office", -45, at: Double(i) * 0.5)) }
        for i in 11...40 { device.fold(heard("Office", -75, at: Double(i) * 0.5)); device.fold(heard("Kitchen", -60, at: Double(i) * 0.5)) }
        XCTAssertEqual(device.room.room, "Kitchen")
    }

    func testARoomThatStoppedHearingItGivesItUp() {
        var device = LiveDevice(heard("Kitchen", -50, at: 0))
        device.fold(heard("Office", -90, at: 40))
        XCTAssertEqual(device.room.room, "Office", "the kitchen has not heard it for 40 s")
    }

    func testOneSourceAloneNamesNoRoom() {
        let device = LiveDevice(Observation(id: id, timestamp: t0, rssi: -50))
        XCTAssertNil(device.room.room)
        XCTAssertTrue(device.heardBy.isEmpty)
    }
}
