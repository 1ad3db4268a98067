// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import TestSupport
import ViewModels
import XCTest

/// Sharing nicknames with the system: only while on, every change, and the device's own name back
/// when a nickname is cleared or the favorite removed.
@MainActor
final class NicknameSharingTests: XCTestCase {
    private let phone = TestDevices.id(1)
    private let watch = TestDevices.id(2)

    private func make(on: Bool, writer: FakeAliasWriter) async -> (NicknameSharing, Favorites) {
        let repository = FakeFavoritesRepository([
            Favorite(id: phone, nickname: "Anna’s phone", lastKnownName: "Pixel", addedAt: Date(), updatedAt: Date()),
        ])
        let favorites = Favorites(useCases: FavoritesUseCases(repository: repository))
        let sharing = NicknameSharing(writer: writer, favorites: favorites, isOn: on)
        await favorites.load()
        await sharing.finishWriting()
        return (sharing, favorites)
    }

    private func aliases(_ writer: FakeAliasWriter) -> [String] { writer.writes.map { "\($0.0.address)=\($0.1)" } }

    func testNothingIsWrittenWhileOff() async {
        let writer = FakeAliasWriter()
        let (_, favorites) = await make(on: false, writer: writer)
        _ = await favorites.rename(phone, to: "Work phone")
        _ = await favorites.add(watch, name: "Watch", nickname: "Ticker")
        XCTAssertTrue(writer.writes.isEmpty)
    }

    func testTurningItOnSharesEveryNicknameAndThenEachChange() async {
        let writer = FakeAliasWriter()
        let (sharing, favorites) = await make(on: false, writer: writer)
        var saved: [Bool] = []
        sharing.onChange = { saved.append($0) }
        sharing.isOn = true
        await sharing.finishWriting()
        XCTAssertEqual(aliases(writer), ["AA:BB:CC:DD:EE:01=Anna’s phone"])
        XCTAssertEqual(saved, [true], "the choice is kept")

        _ = await favorites.add(watch, name: "Watch", nickname: "שעון 🕰")
        _ = await favorites.rename(phone, to: "")
        await sharing.finishWriting()
        XCTAssertEqual(Array(aliases(writer).dropFirst()),
                       ["AA:BB:CC:DD:EE:02=שעון 🕰", "AA:BB:CC:DD:EE:01="], "right-to-left and emoji as typed; cleared is empty")

        await favorites.remove(watch)
        await sharing.finishWriting()
        XCTAssertEqual(aliases(writer).last, "AA:BB:CC:DD:EE:02=", "a removed favorite gets its own name back")
    }

    func testAtStartTheStoredNicknamesAreSharedAgain() async {
        let writer = FakeAliasWriter()
        _ = await make(on: true, writer: writer)
        XCTAssertEqual(aliases(writer), ["AA:BB:CC:DD:EE:01=Anna’s phone"])
    }

    func testARefusalIsSaidAndTheNicknameStays() async {
        let writer = FakeAliasWriter()
        writer.refusal = "Not authorized"
        let (sharing, favorites) = await make(on: true, writer: writer)
        var problems: [String] = []
        sharing.onProblem = { problems.append($0) }
        _ = await favorites.rename(phone, to: "Work phone")
        await sharing.finishWriting()
        XCTAssertEqual(problems, ["The nickname could not be shared with other apps: Not authorized"])
        XCTAssertEqual(favorites.favorite(phone)?.nickname, "Work phone")
    }

    func testWithoutBlueZTheSwitchIsUnavailable() async {
        let repository = FakeFavoritesRepository()
        let sharing = NicknameSharing(writer: nil, favorites: Favorites(useCases: FavoritesUseCases(repository: repository)),
                                      isOn: true)
        XCTAssertFalse(sharing.isAvailable)
    }
}
