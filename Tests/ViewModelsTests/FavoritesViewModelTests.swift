// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import TestSupport
import ViewModels
import XCTest

final class FavoritesViewModelTests: XCTestCase {
    @MainActor
    private static func make(_ repository: FakeFavoritesRepository, notices: [StoreNotice] = []) -> FavoritesViewModel {
        FavoritesViewModel(favorites: Favorites(useCases: FavoritesUseCases(repository: repository)), notices: notices)
    }

    func testAnEmptyStoreShowsThePlaceholderOnlyAfterLoading() async {
        let model = await Self.make(FakeFavoritesRepository())
        let before = await model.isEmpty
        XCTAssertFalse(before, "no placeholder flash while loading")
        await model.load()
        let after = await model.isEmpty
        XCTAssertTrue(after)
    }

    func testAddingShowsTheRowAndAToast() async {
        let model = await Self.make(FakeFavoritesRepository())
        let toasts = ToastBox()
        await MainActor.run { model.onToast = { toasts.items.append($0) } }
        let ok = await model.add(TestDevices.id(1), name: "Buds", nickname: "Ear 🎧")
        XCTAssertTrue(ok)
        let rows = await model.rows
        XCTAssertEqual(rows.map(\.title), ["Ear 🎧"])
        XCTAssertEqual(rows.first?.subtitle, "Buds · AA:BB:CC:DD:EE:01", "under a nickname, the name the device gives itself; an address that stays needs no words")
        XCTAssertEqual(toasts.items.map(\.text), ["“\u{2068}Ear 🎧\u{2069}” added to favorites"])
    }

    func testAFavoriteWithoutAnyNameSaysSoAndShowsItsAddressOnce() async {
        let model = await Self.make(FakeFavoritesRepository())
        let ok = await model.add(TestDevices.id(3), name: nil, nickname: "")
        XCTAssertTrue(ok)
        let row = await model.rows.first
        XCTAssertEqual(row?.title, "Unknown device")
        XCTAssertEqual(row?.isUnnamed, true)
        XCTAssertEqual(row?.subtitle, "AA:BB:CC:DD:EE:03", "the address on the line under the title, and only there")
    }

    func testRemoveThenUndoRestoresNicknameAndAddedTime() async {
        let original = Favorite(id: TestDevices.id(2), nickname: "Kitchen", lastKnownName: "Speaker",
                                addedAt: Date(timeIntervalSince1970: 42), updatedAt: Date(timeIntervalSince1970: 42))
        let repository = FakeFavoritesRepository([original])
        let model = await Self.make(repository)
        await model.load()
        let question = await model.removalQuestion(original.id)
        XCTAssertEqual(question, "Remove “\u{2068}Kitchen\u{2069}” from favorites?")
        let toasts = ToastBox()
        await MainActor.run { model.onToast = { toasts.items.append($0) } }
        await model.remove(original.id)
        let empty = await model.isEmpty
        XCTAssertTrue(empty)
        XCTAssertEqual(toasts.items.last?.text, "“\u{2068}Kitchen\u{2069}” removed", "the name is isolated, so a right-to-left one cannot reorder the sentence")
        XCTAssertEqual(toasts.items.last?.undoable, true)
        await model.undoRemove()
        let restored = try? await repository.favorite(original.id)
        XCTAssertEqual(restored, original)
    }

    func testNicknameProblemsAreExplainedForTheDialog() async {
        let model = await Self.make(FakeFavoritesRepository())
        let fine = await model.nicknameProblem("Büro")
        XCTAssertNil(fine)
        let long = await model.nicknameProblem(String(repeating: "x", count: 65))
        XCTAssertNotNil(long)
        let control = await model.nicknameProblem("a\tb")
        XCTAssertNotNil(control)
    }

    func testEveryStoreFailureBecomesAMessageAndIsNeverSwallowed() async {
        for operation in FakeFavoritesRepository.Operation.allCases {
            let seed = Favorite(id: TestDevices.id(3), nickname: nil, lastKnownName: "Watch",
                                addedAt: Date(), updatedAt: Date())
            let repository = FakeFavoritesRepository([seed])
            let model = await Self.make(repository)
            await model.load()
            await repository.fail([operation])
            await model.load()
            _ = await model.add(TestDevices.id(4), name: nil, nickname: "")
            _ = await model.rename(TestDevices.id(3), to: "New")
            await model.remove(TestDevices.id(3))
            let messages = await model.messages
            XCTAssertFalse(messages.isEmpty, "a failing \(operation) is reported")
            XCTAssertTrue(messages.allSatisfy { $0.contains("disk I/O error") }, "\(messages)")
        }
    }

    func testMemoryOnlyNoticesAreShownAsMessages() async {
        let model = await Self.make(FakeFavoritesRepository(), notices: [.newerSchema])
        let memoryOnly = await model.isMemoryOnly
        let messages = await model.messages
        XCTAssertTrue(memoryOnly)
        XCTAssertEqual(messages.count, 1)
    }
}

private final class ToastBox: @unchecked Sendable {
    var items: [FavoritesViewModel.Toast] = []
}
