// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import GRDB

/// Bonds in `bonds`, one row per identity. Keys are BLOBs of their exact length; a row whose
/// identity or keys do not decode is reported and left alone.
public struct SQLiteBondsRepository: BondsRepository {
    private let database: SQLiteDatabase

    /// Uses an open database.
    public init(database: SQLiteDatabase) {
        self.database = database
    }

    public func all() async throws -> BondsReading {
        try await database.pool.read { db in
            var reading = BondsReading(bonds: [], unreadable: [])
            for row in try Row.fetchAll(db, sql: "SELECT * FROM bonds ORDER BY device_id") {
                if let bond = Self.bond(row) {
                    reading.bonds.append(bond)
                } else {
                    reading.unreadable.append((row["device_id"] as String?) ?? "")
                }
            }
            return reading
        }
    }

    public func save(_ bond: Bond) async throws {
        try await database.pool.write { db in
            try db.execute(sql: """
                INSERT OR REPLACE INTO bonds (device_id, irk, ltk, ediv, rand, key_size, authenticated, secure_connections, created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [bond.identity.storageKey, bond.irk.map { Data($0.bytes) }, bond.ltk.map { Data($0) },
                                 bond.ediv.map { Int($0) }, bond.rand.map { Data(Self.bytes(of: $0)) }, bond.keySize,
                                 bond.authenticated, bond.secureConnections, bond.createdAt.timeIntervalSince1970])
        }
    }

    /// The bond and what the server kept of it go together.
    public func forget(_ identity: DeviceID) async throws {
        try await database.pool.write { db in
            try db.execute(sql: "DELETE FROM bonds WHERE device_id = ?", arguments: [identity.storageKey])
            try db.execute(sql: "DELETE FROM served_clients WHERE device_id = ?", arguments: [identity.storageKey])
        }
    }

    public func servedClients() async throws -> [DeviceID: Data] {
        try await database.pool.read { db in
            var kept: [DeviceID: Data] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT device_id, memory FROM served_clients") {
                guard let key: String = row["device_id"], let identity = try? DeviceID(storageKey: key),
                      let memory: Data = row["memory"] else { continue }
                kept[identity] = memory
            }
            return kept
        }
    }

    public func keepServed(_ memory: Data, for identity: DeviceID) async throws {
        try await database.pool.write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO served_clients (device_id, memory) VALUES (?, ?)",
                           arguments: [identity.storageKey, memory])
        }
    }

    public func localIdentity(orKeep made: LocalIdentity) async throws -> LocalIdentity {
        try await database.pool.write { db in
            if let row = try Row.fetchOne(db, sql: "SELECT irk, address FROM local_identity WHERE id = 1"),
               let irk: Data = row["irk"], irk.count == 16, let text: String = row["address"],
               let address = try? DeviceID(storageKey: text) {
                return LocalIdentity(irk: Array(irk), address: address)
            }
            // None yet, or one that does not decode: the new one takes its place.
            try db.execute(sql: "INSERT OR REPLACE INTO local_identity (id, irk, address) VALUES (1, ?, ?)",
                           arguments: [Data(made.irk), made.address.storageKey])
            return made
        }
    }

    /// The bond a row holds, or nil when any part of it is not what was written.
    private static func bond(_ row: Row) -> Bond? {
        guard let key: String = row["device_id"], let identity = try? DeviceID(storageKey: key),
              let keySize: Int = row["key_size"], (7...16).contains(keySize),
              let created: Double = row["created_at"] else { return nil }
        var irk: IdentityResolvingKey?
        if let data: Data = row["irk"] {
            guard let key = IdentityResolvingKey(bytes: Array(data)) else { return nil }
            irk = key
        }
        let ltk = (row["ltk"] as Data?).map(Array.init)
        if let ltk, ltk.count != 16 { return nil }
        let ediv = (row["ediv"] as Int?)
        if let ediv, !(0...0xFFFF).contains(ediv) { return nil }
        let rand = (row["rand"] as Data?).map(Array.init)
        if let rand, rand.count != 8 { return nil }
        return Bond(identity: identity, irk: irk, ltk: ltk, ediv: ediv.map { UInt16($0) },
                    rand: rand.map { $0.reduce(0) { $0 << 8 | UInt64($1) } }, keySize: keySize,
                    authenticated: row["authenticated"] ?? false, secureConnections: row["secure_connections"] ?? false,
                    createdAt: Date(timeIntervalSince1970: created))
    }

    /// Eight bytes, most significant first: SQLite's integers are signed, Rand is not.
    private static func bytes(of value: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: value >> (8 * (7 - UInt64($0)))) } }
}
