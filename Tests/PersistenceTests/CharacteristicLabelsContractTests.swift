// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import Persistence
import XCTest

/// The names and formats given to characteristics, on both backends; the SQLite file is
/// reopened where the point is that they outlive a restart.
final class CharacteristicLabelsContractTests: XCTestCase {
    private var directory = ""
    private let device = DeviceID(octets: [0xC4, 1, 2, 3, 4, 5], kind: .leRandom)
    private let other = DeviceID(octets: [0xC4, 1, 2, 3, 4, 6], kind: .leRandom)
    private let uuid = "5E7F0001-1C2B-4A5D-8E9F-0A1B2C3D4E5F"

    override func setUp() {
        directory = NSTemporaryDirectory() + "favblue-labels-\(UUID().uuidString)"
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: directory)
    }

    private func backends() -> [(String, Store)] {
        [("sqlite", StoreFactory.open(.sqlite, directory: directory)), ("memory", StoreFactory.open(.memory, directory: directory))]
    }

    func testALabelIsKeptPerDeviceReplacedAndForgotten() async throws {
        for (name, store) in backends() {
            let label = CharacteristicLabel(uuid: uuid, name: "Set point <°C> =1+1", format: .number(bytes: 2, signed: true, bigEndian: true))
            try await store.labels.save(label, for: device)
            try await store.labels.save(CharacteristicLabel(uuid: "2A19", name: "Cell", format: nil), for: device)
            var kept = try await store.labels.labels(of: device)
            XCTAssertEqual(kept, [uuid: label, "2A19": CharacteristicLabel(uuid: "2A19", name: "Cell", format: nil)], name)
            let none = try await store.labels.labels(of: other)
            XCTAssertEqual(none, [:], "per device: \(name)")
            try await store.labels.save(CharacteristicLabel(uuid: uuid, name: "Target", format: .hex), for: device)
            try await store.labels.remove(uuid: "2A19", for: device)
            kept = try await store.labels.labels(of: device)
            XCTAssertEqual(kept, [uuid: CharacteristicLabel(uuid: uuid, name: "Target", format: .hex)], name)
        }
    }

    func testLabelsOutliveAReopenAndMoveWithTheDeviceToItsIdentity() async throws {
        let label = CharacteristicLabel(uuid: uuid, name: "Set point", format: .number(bytes: 1, signed: false, bigEndian: false))
        try await StoreFactory.open(.sqlite, directory: directory).labels.save(label, for: device)
        let reopened = StoreFactory.open(.sqlite, directory: directory)
        let read = try await reopened.labels.labels(of: device)
        XCTAssertEqual(read, [uuid: label])
        for (name, store) in [("sqlite", reopened), ("memory", StoreFactory.open(.memory, directory: directory))] {
            if name == "memory" { try await store.labels.save(label, for: device) }
            // The identity has a label of its own for the same characteristic: it is kept.
            try await store.labels.save(CharacteristicLabel(uuid: uuid, name: "Mine", format: nil), for: other)
            try await store.labels.save(CharacteristicLabel(uuid: "2A19", name: "Cell", format: nil), for: device)
            try await store.mover.moveRecords(from: device, to: other)
            let moved = try await store.labels.labels(of: other)
            XCTAssertEqual(moved[uuid]?.name, "Mine", name)
            XCTAssertEqual(moved["2A19"]?.name, "Cell", "what the identity lacked comes along: \(name)")
            let left = try await store.labels.labels(of: device)
            XCTAssertEqual(left, [:], name)
        }
    }

    func testEveryFormatIsWrittenAndReadBack() {
        let all: [ValueInputFormat] = [.text, .hex] + [1, 2, 4, 8].flatMap { bytes in
            [false, true].flatMap { signed in [false, true].map { ValueInputFormat.number(bytes: bytes, signed: signed, bigEndian: $0) } }
        }
        for format in all where !(format == .number(bytes: 1, signed: false, bigEndian: true) || format == .number(bytes: 1, signed: true, bigEndian: true)) {
            XCTAssertEqual(ValueInputFormat(storageKey: format.storageKey), format, format.storageKey)
        }
        XCTAssertNil(ValueInputFormat(storageKey: "u12le"))
        XCTAssertNil(ValueInputFormat(storageKey: "float"))
        XCTAssertEqual(ValueInputFormat.number(bytes: 2, signed: true, bigEndian: true).decode([0xFF, 0x38]).text, "\u{2212}200")
        XCTAssertEqual(ValueInputFormat.number(bytes: 4, signed: false, bigEndian: false).decode([1, 0]).text,
                       "Too short to read: this kind of value needs 4 bytes, the device sent 2.")
    }
}
