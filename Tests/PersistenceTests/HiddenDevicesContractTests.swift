// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import Persistence
import XCTest

/// Hidden devices and the "Only New Devices" mark, on both backends; the SQLite file is
/// reopened where the point is that it survives a restart.
final class HiddenDevicesContractTests: XCTestCase {
    private var directory = ""

    override func setUp() {
        directory = NSTemporaryDirectory() + "favblue-hidden-\(UUID().uuidString)"
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: directory)
    }

    private func id(_ n: UInt8) -> DeviceID { DeviceID(octets: [9, 8, 7, 6, 5, n], kind: .lePublic) }

    private func backends() -> [(String, Store)] {
        [("sqlite", StoreFactory.open(.sqlite, directory: directory)), ("memory", StoreFactory.open(.memory, directory: directory))]
    }

    func testHiddenDevicesComeBackWithNameAndTimeAndUnhideForgetsThem() async throws {
        for (name, store) in backends() {
            let one = HiddenDevice(id: id(1), name: "Tag ‏שלום 🏷", hiddenAt: Date(timeIntervalSince1970: 1_700_000_000.5))
            let two = HiddenDevice(id: id(2), name: nil, hiddenAt: Date(timeIntervalSince1970: 1_700_000_100))
            try await store.hidden.hide(one)
            try await store.hidden.hide(two)
            let all = try await store.hidden.all().sorted { $0.id < $1.id }
            XCTAssertEqual(all, [one, two], name)
            try await store.hidden.unhide(id(1))
            try await store.hidden.unhide(id(3))
            let after = try await store.hidden.all()
            XCTAssertEqual(after, [two], name)
        }
    }

    func testTheNewDevicesMarkKeepsItsTimeAndKnownDevicesAndTurnsOff() async throws {
        for (name, store) in backends() {
            let none = try await store.hidden.newDevicesMark()
            XCTAssertNil(none, name)
            let mark = NewDevicesMark(since: Date(timeIntervalSince1970: 1_700_000_000.25), known: [id(1), id(2)])
            try await store.hidden.setNewDevicesMark(mark)
            let read = try await store.hidden.newDevicesMark()
            XCTAssertEqual(read, mark, name)
            try await store.hidden.setNewDevicesMark(nil)
            let off = try await store.hidden.newDevicesMark()
            XCTAssertNil(off, name)
        }
    }

    func testHiddenDevicesAndTheMarkSurviveReopeningTheFile() async throws {
        let first = StoreFactory.open(.sqlite, directory: directory)
        try await first.hidden.hide(HiddenDevice(id: id(4), name: "Beacon", hiddenAt: Date(timeIntervalSince1970: 5)))
        try await first.hidden.setNewDevicesMark(NewDevicesMark(since: Date(timeIntervalSince1970: 7), known: [id(5)]))
        let second = StoreFactory.open(.sqlite, directory: directory)
        let hidden = try await second.hidden.all()
        XCTAssertEqual(hidden.map(\.name), ["Beacon"])
        let mark = try await second.hidden.newDevicesMark()
        XCTAssertEqual(mark?.known, [id(5)])
        XCTAssertEqual(mark?.isNew(id(5)), false)
        XCTAssertEqual(mark?.isNew(id(6)), true)
    }
}
