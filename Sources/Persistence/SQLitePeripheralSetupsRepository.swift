// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import GRDB

/// What was set up to act as a device, in `peripheral_setups` as FavBlue's own file: the format
/// export and import use, so what a newer FavBlue wrote is read as far as it can be.
public struct SQLitePeripheralSetupsRepository: PeripheralSetupsRepository {
    private let database: SQLiteDatabase
    /// The one setup kept.
    static let current = "current"

    public init(database: SQLiteDatabase) {
        self.database = database
    }

    public func load() async throws -> PeripheralFile {
        let text = try await database.pool.read { db in
            try String.fetchOne(db, sql: "SELECT file FROM peripheral_setups WHERE name = ?", arguments: [Self.current])
        }
        guard let text else { return PeripheralFile() }
        return try PeripheralFile.read(text)
    }

    public func save(_ file: PeripheralFile) async throws {
        let text = file.text
        try await database.pool.write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO peripheral_setups (name, file, updated) VALUES (?, ?, ?)",
                           arguments: [Self.current, text, Date().timeIntervalSince1970])
        }
    }
}

/// What was set up, for a session that must not write.
public actor InMemoryPeripheralSetupsRepository: PeripheralSetupsRepository {
    private var kept = PeripheralFile()

    public init() {}

    public func load() -> PeripheralFile { kept }
    public func save(_ file: PeripheralFile) { kept = file }
}
