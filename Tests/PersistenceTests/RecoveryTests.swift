// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import GRDB
import Persistence
import XCTest

/// Nothing is lost: damaged, foreign, newer and unwritable files, and a killed writer.
final class RecoveryTests: XCTestCase {
    private var directory = ""
    private var path: String { directory + "/" + StoreFactory.fileName }

    override func setUp() {
        super.setUp()
        directory = NSTemporaryDirectory() + "favblue-recovery-\(UUID().uuidString)"
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: directory)
        super.tearDown()
    }

    private func favorite(_ n: Int) -> Favorite {
        Favorite(id: DeviceID(octets: [9, 9, 9, 9, UInt8(n >> 8), UInt8(n & 0xFF)], kind: .bredr), nickname: "n\(n)",
                 lastKnownName: nil, addedAt: Date(timeIntervalSince1970: 5), updatedAt: Date(timeIntervalSince1970: 5))
    }

    private func assertMovedAside(_ original: Data, file: StaticString = #filePath, line: UInt = #line) async throws {
        let store = StoreFactory.open(.sqlite, directory: directory, now: Date(timeIntervalSince1970: 1_763_800_000))
        guard case .movedAside(let aside)? = store.notices.first else {
            return XCTFail("expected the file to be moved aside, got \(store.notices)", file: file, line: line)
        }
        XCTAssertTrue(aside.hasSuffix("favblue.sqlite.corrupt-20251122T082640Z"), aside, file: file, line: line)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: aside)), original, "the old bytes are kept", file: file, line: line)
        XCTAssertTrue(store.notices[0].message.contains(aside), "the notice says where it went", file: file, line: line)
        XCTAssertEqual(store.path, path, "a fresh database is in use", file: file, line: line)
        try await store.favorites.save(favorite(1))
        let saved = try await store.favorites.all()
        XCTAssertEqual(saved.count, 1, file: file, line: line)
    }

    func testGarbageBytesAreMovedAsideAndAFreshDatabaseIsMade() async throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let garbage = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 7919) })
        try garbage.write(to: URL(fileURLWithPath: path))
        try await assertMovedAside(garbage)
    }

    func testATruncatedDatabaseIsMovedAside() async throws {
        do {
            let store = StoreFactory.open(.sqlite, directory: directory)
            for n in 0..<2000 { try await store.favorites.save(favorite(n)) }
        }
        // Fold the WAL into the main file, then cut the file in half.
        let pool = try DatabasePool(path: path)
        try await pool.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
        try pool.close()
        let whole = try Data(contentsOf: URL(fileURLWithPath: path))
        let half = whole.prefix(whole.count / 2)
        try half.write(to: URL(fileURLWithPath: path))
        try await assertMovedAside(half)
    }

    func testAFileOfAnotherFormatIsMovedAside() async throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let json = Data(#"{"favorites": ["not", "sqlite"]}"#.utf8)
        try json.write(to: URL(fileURLWithPath: path))
        try await assertMovedAside(json)
    }

    func testAnotherProgramsSQLiteFileIsNotWrittenInto() async throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let queue = try DatabaseQueue(path: path)
        try await queue.write { db in try db.execute(sql: "CREATE TABLE recipes (name TEXT)") }
        try queue.close()
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        try await assertMovedAside(original)
    }

    func testANewerSchemaIsNeverModifiedAndTheSessionIsInMemory() async throws {
        do {
            let store = StoreFactory.open(.sqlite, directory: directory)
            try await store.favorites.save(favorite(1))
        }
        let pool = try DatabasePool(path: path)
        try await pool.write { db in try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99-from-the-future')") }
        try await pool.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
        try pool.close()
        let before = try Data(contentsOf: URL(fileURLWithPath: path))

        let store = StoreFactory.open(.sqlite, directory: directory)
        XCTAssertEqual(store.notices, [.newerSchema])
        XCTAssertNil(store.path, "this session runs in memory")
        try await store.favorites.save(favorite(2))
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before, "the newer file is untouched")
        XCTAssertTrue(store.notices[0].isMemoryOnly)
    }

    func testAnUnwritableFolderGivesAMemorySessionAndANotice() async throws {
        // A regular file where the data folder should be: nothing can be created under it.
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let blocker = directory + "/blocked"
        try Data("x".utf8).write(to: URL(fileURLWithPath: blocker))
        let store = StoreFactory.open(.sqlite, directory: blocker + "/favblue")
        guard case .notSaved? = store.notices.first else { return XCTFail("expected notSaved, got \(store.notices)") }
        XCTAssertTrue(store.notices[0].message.contains("Changes will not be saved"))
        try await store.favorites.save(favorite(1))
        let kept = try await store.favorites.all()
        XCTAssertEqual(kept.count, 1, "the session still works, in memory")
    }

    func testTheFileIsPrivateAndInWALMode() throws {
        let store = StoreFactory.open(.sqlite, directory: directory)
        XCTAssertTrue(store.notices.isEmpty)
        let fm = FileManager.default
        XCTAssertEqual((try fm.attributesOfItem(atPath: directory)[.posixPermissions] as? Int), 0o700)
        XCTAssertEqual((try fm.attributesOfItem(atPath: path)[.posixPermissions] as? Int), 0o600)
        let mode = try DatabaseQueue(path: path).read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") }
        XCTAssertEqual(mode, "wal")
    }

    func testKillingTheWriterLosesNoCommittedFavorite() async throws {
        let bench = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appending(path: "PersistenceBench").path
        let binary = FileManager.default.fileExists(atPath: bench) ? bench
            : Bundle.main.bundleURL.appending(path: "PersistenceBench").path
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: binary), "build PersistenceBench first (swift build)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["burst", directory]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        var acknowledged: [String] = []
        var buffer = Data()
        while acknowledged.count < 300 {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            buffer.append(chunk)
            let lines = String(decoding: buffer, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            acknowledged = lines.dropLast().map(String.init)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        XCTAssertGreaterThanOrEqual(acknowledged.count, 300, "the writer committed a burst before it was killed")

        let store = StoreFactory.open(.sqlite, directory: directory)
        XCTAssertTrue(store.notices.isEmpty, "the killed writer left a healthy database: \(store.notices)")
        let stored = Set(try await store.favorites.all().map(\.id.storageKey))
        let lost = acknowledged.filter { !stored.contains($0) }
        XCTAssertEqual(lost, [], "every committed favorite survives kill -9")
    }

    func testADatabaseAnotherFavBlueHoldsIsLeftToItAndSaysWhichProcess() async throws {
        let first = StoreFactory.open(.sqlite, directory: directory)
        try await first.favorites.save(favorite(1))
        // Record locks belong to a process and this one holds the real directory's, so another
        // process (standing in for a second FavBlue in another session) holds a second directory's.
        let other = directory + "-other"
        try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: other) }
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        holder.arguments = ["-c", "import fcntl, sys; f = open(sys.argv[1], 'a'); fcntl.lockf(f, fcntl.LOCK_EX | fcntl.LOCK_NB); "
                            + "print('held', flush=True); sys.stdin.read()", other + "/" + StoreFactory.fileName + ".lock"]
        let input = Pipe(), output = Pipe()
        holder.standardInput = input
        holder.standardOutput = output
        try holder.run()
        _ = output.fileHandleForReading.availableData
        let second = StoreFactory.open(.sqlite, directory: other)
        XCTAssertEqual(second.notices, [.inUse(pid: holder.processIdentifier)])
        XCTAssertNil(second.path, "nothing is written beside the other FavBlue")
        XCTAssertTrue(second.notices[0].message.contains("process \(holder.processIdentifier)"), second.notices[0].message)
        XCTAssertFalse(FileManager.default.fileExists(atPath: other + "/" + StoreFactory.fileName), "the database is not touched")

        try input.fileHandleForWriting.close()
        holder.waitUntilExit()
        let retried = StoreFactory.open(.sqlite, directory: other)
        XCTAssertEqual(retried.notices, [], "once the other has quit, starting again opens the file")
        XCTAssertEqual(retried.path, other + "/" + StoreFactory.fileName)
        let reopened = StoreFactory.open(.sqlite, directory: directory)
        XCTAssertEqual(reopened.notices, [], "the same process may open its own store again")
        let kept = try await reopened.favorites.all()
        XCTAssertEqual(kept.map(\.nickname), ["n1"])
    }
}
