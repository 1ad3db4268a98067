// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import TestSupport
import XCTest

final class FavoritesUseCasesTests: XCTestCase {
    private func makeUseCases(_ repository: FakeFavoritesRepository = FakeFavoritesRepository()) -> FavoritesUseCases {
        let clock = ReadingClock()
        return FavoritesUseCases(repository: repository, now: { clock.tick() })
    }

    func testDisplayNameIsNicknameElseAdvertisedNameElseAddress() {
        let id = TestDevices.id(1)
        XCTAssertEqual(DisplayName.of(id: id, nickname: "Mine", advertisedName: "Buds"), "Mine")
        XCTAssertEqual(DisplayName.of(id: id, nickname: nil, advertisedName: "Buds"), "Buds")
        XCTAssertEqual(DisplayName.of(id: id, nickname: nil, advertisedName: "  "), "AA:BB:CC:DD:EE:01")
    }

    func testListSortsGermanUmlautsBesideTheirBaseLetter() async throws {
        let repository = FakeFavoritesRepository()
        let cases = makeUseCases(repository)
        for (n, name) in ["Zebra", "Äpfel", "banane", "Apfel"].enumerated() {
            try await cases.add(TestDevices.id(UInt8(n)), name: name, nickname: "")
        }
        let names = try await cases.list(locale: Locale(identifier: "de_DE")).map(\.displayName)
        XCTAssertEqual(names, ["Apfel", "Äpfel", "banane", "Zebra"])
    }

    func testRemoveThenRestoreKeepsNicknameAndAddedTime() async throws {
        let cases = makeUseCases()
        let added = try await cases.add(TestDevices.id(1), name: "Buds", nickname: " Ear 🎧 ")
        let removed = try await cases.remove(TestDevices.id(1))
        let afterRemoval = try await cases.list()
        XCTAssertTrue(afterRemoval.isEmpty)
        try await cases.restore(removed)
        let back = try await cases.list()
        XCTAssertEqual(back, [added])
        XCTAssertEqual(back.first?.nickname, "Ear 🎧")
    }

    func testRenameToEmptyFallsBackToTheAdvertisedName() async throws {
        let cases = makeUseCases()
        try await cases.add(TestDevices.id(1), name: "Buds", nickname: "Mine")
        let renamed = try await cases.rename(TestDevices.id(1), to: "   ")
        XCTAssertNil(renamed.nickname)
        XCTAssertEqual(renamed.displayName, "Buds")
    }

    func testAnInvalidNicknameIsRefusedAndNothingIsStored() async throws {
        let cases = makeUseCases()
        do {
            try await cases.add(TestDevices.id(1), name: nil, nickname: String(repeating: "x", count: 65))
            XCTFail("a 65-character nickname must be refused")
        } catch {
            XCTAssertEqual(error, .invalidNickname(.tooLong(65)))
        }
        let stored = try await cases.list()
        XCTAssertTrue(stored.isEmpty)
    }

    func testStorageFailuresBecomeStorageErrorsWithAMessage() async {
        let repository = FakeFavoritesRepository()
        await repository.fail([.save])
        do {
            try await makeUseCases(repository).add(TestDevices.id(1), name: nil, nickname: "")
            XCTFail("expected a failure")
        } catch {
            XCTAssertEqual(error, .storage("disk I/O error"))
            XCTAssertTrue(error.message.contains("disk I/O error"))
        }
    }

    func testRenamingSomethingThatIsNotAFavoriteSaysSo() async {
        do {
            try await makeUseCases().rename(TestDevices.id(9), to: "x")
            XCTFail("expected notFound")
        } catch {
            XCTAssertEqual(error, .notFound(TestDevices.id(9)))
        }
    }
}

/// A clock that moves one second per reading.
final class ReadingClock: @unchecked Sendable {
    private var time = Date(timeIntervalSince1970: 1_700_000_000)
    private let lock = NSLock()

    func tick() -> Date {
        lock.lock()
        defer { lock.unlock() }
        time.addTimeInterval(1)
        return time
    }
}
