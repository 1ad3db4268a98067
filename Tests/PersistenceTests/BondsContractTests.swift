// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import GRDB
import Persistence
import XCTest

/// Bonds on both backends; the SQLite file is reopened where the point is that it survives a
/// restart, and written behind the repository's back where the point is a damaged row.
final class BondsContractTests: XCTestCase {
    private var directory = ""

    override func setUp() {
        directory = NSTemporaryDirectory() + "favblue-bonds-\(UUID().uuidString)"
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: directory)
    }

    private func backends() -> [(String, Store)] {
        [("sqlite", StoreFactory.open(.sqlite, directory: directory)), ("memory", StoreFactory.open(.memory, directory: directory))]
    }

    private let secure = Bond(identity: DeviceID(octets: [0xC4, 1, 2, 3, 4, 5], kind: .leRandom),
                              irk: IdentityResolvingKey(bytes: Array(0..<16)), ltk: Array(16..<32),
                              authenticated: true, secureConnections: true, createdAt: Date(timeIntervalSince1970: 1_700_000_000.5))
    // Legacy pairing: EDIV and a Rand above Int64.max, which a signed column would mangle.
    private let legacy = Bond(identity: DeviceID(octets: [0, 0x1A, 0x7D, 0xDA, 0x71, 0x13], kind: .lePublic),
                              irk: nil, ltk: Array(repeating: 0xAB, count: 16), ediv: 0xBEEF, rand: 0xF123_4567_89AB_CDEF,
                              keySize: 7, authenticated: false, secureConnections: false, createdAt: Date(timeIntervalSince1970: 5))

    func testBondsComeBackExactlyAndForgetDeletesOne() async throws {
        for (name, store) in backends() {
            try await store.bonds.save(secure)
            try await store.bonds.save(legacy)
            var reading = try await store.bonds.all()
            XCTAssertEqual(reading.bonds.sorted { $0.identity < $1.identity }, [legacy, secure], name)
            XCTAssertEqual(reading.unreadable, [], name)
            try await store.bonds.forget(secure.identity)
            reading = try await store.bonds.all()
            XCTAssertEqual(reading.bonds, [legacy], name)
        }
    }

    func testWhatTheServerKeptOfABondedClientSurvivesReopeningAndGoesWithItsBond() async throws {
        let memory = Data("{\"features\":1}".utf8)
        for (name, store) in backends() {
            try await store.bonds.save(secure)
            try await store.bonds.keepServed(memory, for: secure.identity)
            try await store.bonds.keepServed(Data("newer".utf8), for: secure.identity)
            let kept = try await store.bonds.servedClients()
            XCTAssertEqual(kept, [secure.identity: Data("newer".utf8)], "the last one kept: \(name)")
            try await store.bonds.forget(secure.identity)
            let after = try await store.bonds.servedClients()
            XCTAssertEqual(after, [:], "forgetting the bond forgets what the server kept: \(name)")
        }
        try await StoreFactory.open(.sqlite, directory: directory).bonds.keepServed(memory, for: legacy.identity)
        let reopened = try await StoreFactory.open(.sqlite, directory: directory).bonds.servedClients()
        XCTAssertEqual(reopened, [legacy.identity: memory])
    }

    func testABondSurvivesReopeningTheFileAndPairingAgainReplacesIt() async throws {
        try await StoreFactory.open(.sqlite, directory: directory).bonds.save(secure)
        var again = secure
        again.ltk = Array(repeating: 7, count: 16)
        let reopened = StoreFactory.open(.sqlite, directory: directory)
        let read = try await reopened.bonds.all().bonds
        XCTAssertEqual(read, [secure])
        try await reopened.bonds.save(again)
        let replaced = try await StoreFactory.open(.sqlite, directory: directory).bonds.all().bonds
        XCTAssertEqual(replaced, [again])
    }

    func testFavBluesOwnIdentityIsMadeOnceAndSurvivesReopening() async throws {
        let first = LocalIdentity(random: Array(0..<22))
        let second = LocalIdentity(random: Array(100..<122))
        XCTAssertEqual(first.address.octets.first.map { $0 & 0xC0 }, 0xC0, "a static random address")
        for (name, store) in backends() {
            let kept = try await store.bonds.localIdentity(orKeep: first)
            XCTAssertEqual(kept, first, name)
            let again = try await store.bonds.localIdentity(orKeep: second)
            XCTAssertEqual(again, first, "\(name): the one kept wins")
        }
        let reopened = try await StoreFactory.open(.sqlite, directory: directory).bonds.localIdentity(orKeep: second)
        XCTAssertEqual(reopened, first, "it survives a restart")
        XCTAssertFalse("\(first)".contains("0001"), "the key never reaches a log")
    }

    func testARowThatDoesNotDecodeIsReportedAndKept() async throws {
        let store = StoreFactory.open(.sqlite, directory: directory)
        try await store.bonds.save(secure)
        let path = try XCTUnwrap(store.path)
        let queue = try DatabaseQueue(path: path)
        try await queue.write { db in
            try db.execute(sql: """
                INSERT INTO bonds (device_id, irk, ltk, key_size, authenticated, secure_connections, created_at)
                VALUES ('AA:BB:CC:DD:EE:01/le-public', x'0102', NULL, 16, 1, 1, 0),
                       ('not an address', NULL, NULL, 16, 1, 1, 0),
                       ('AA:BB:CC:DD:EE:02/le-public', NULL, NULL, 99, 1, 1, 0)
                """)
        }
        try queue.close()
        let reading = try await store.bonds.all()
        XCTAssertEqual(reading.bonds, [secure], "the good bond is still read")
        XCTAssertEqual(Set(reading.unreadable), ["AA:BB:CC:DD:EE:01/le-public", "not an address", "AA:BB:CC:DD:EE:02/le-public"])
        let again = try await store.bonds.all()
        XCTAssertEqual(again.unreadable.count, 3, "nothing was deleted")
    }

    func testABondNeverPrintsItsKeys() {
        XCTAssertEqual("\(secure)", "Bond(C4:01:02:03:04:05)")
        XCTAssertEqual(String(reflecting: secure), "Bond(C4:01:02:03:04:05)")
    }
}
