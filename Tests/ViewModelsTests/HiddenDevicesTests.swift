// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import TestSupport
import ViewModels
import XCTest

/// Hide Device and Only New Devices, through the Scanner's rows.
@MainActor
final class HiddenDevicesTests: XCTestCase {
    private struct Setup {
        let scanner: ScannerViewModel
        let feed: FakeScanner
        let favorites: Favorites
        let hidden: HiddenDevices
        let repository: FakeHiddenDevicesRepository
    }

    private func make(repository: FakeHiddenDevicesRepository = FakeHiddenDevicesRepository(),
                      favorites: [Favorite] = []) async -> Setup {
        let feed = FakeScanner()
        let favoritesModel = Favorites(useCases: FavoritesUseCases(repository: FakeFavoritesRepository(favorites)))
        await favoritesModel.load()
        let hidden = HiddenDevices(repository: repository, favorites: favoritesModel)
        await hidden.load()
        let live = LiveDevices(makeScanner: { _ in feed }, sightings: nil, refreshesPerSecond: 1000)
        let scanner = ScannerViewModel(live: live, policy: ScanPolicy(live: live), favorites: favoritesModel, hidden: hidden)
        scanner.start()
        return Setup(scanner: scanner, feed: feed, favorites: favoritesModel, hidden: hidden, repository: repository)
    }

    private func hear(_ setup: Setup, _ numbers: [UInt8]) async {
        for n in numbers {
            setup.feed.feed(Observation(id: TestDevices.id(n, kind: .leRandom), timestamp: Date(), rssi: -50 - Int(n), name: "Dev \(n)"))
        }
        await setup.scanner.drain()
        setup.scanner.tick()
    }

    private func titles(_ setup: Setup) -> [String] { setup.scanner.rows.map(\.title) }

    func testAHiddenDeviceLeavesTheListAtOnceIsCountedAndUndoBringsItBack() async {
        let setup = await make()
        await hear(setup, [1, 2, 3])
        XCTAssertTrue(setup.hidden.hide(TestDevices.id(2, kind: .leRandom), name: "Dev 2"))
        XCTAssertEqual(titles(setup), ["Dev 1", "Dev 3"])
        XCTAssertEqual(setup.scanner.hiddenByUserCount, 1)
        XCTAssertEqual(setup.scanner.hiddenCount, 0, "hidden by the user is not hidden by a filter")
        setup.hidden.undoHide()
        XCTAssertEqual(titles(setup), ["Dev 1", "Dev 2", "Dev 3"])
        await setup.hidden.flush()
        let stored = await setup.repository.all()
        XCTAssertTrue(stored.isEmpty)
    }

    func testTryTheDemoHidesInTheDemosOwnListAndLeavesTheUsersAsItWas() async {
        let setup = await make()
        await hear(setup, [1, 2, 3])
        XCTAssertTrue(setup.hidden.hide(TestDevices.id(1, kind: .leRandom), name: "Dev 1"))
        await setup.hidden.flush()
        let demo = FakeHiddenDevicesRepository()
        await setup.hidden.showDemo(demo)
        XCTAssertEqual(titles(setup), ["Dev 1", "Dev 2", "Dev 3"], "the user's hidden device is not hidden in the demo")
        XCTAssertTrue(setup.hidden.hide(TestDevices.id(2, kind: .leRandom), name: "Dev 2"))
        XCTAssertEqual(titles(setup), ["Dev 1", "Dev 3"])
        await setup.hidden.flush()
        let users = await setup.repository.all().map(\.id)
        let demos = await demo.all().map(\.id)
        XCTAssertEqual(users, [TestDevices.id(1, kind: .leRandom)], "the user's list is as it was")
        XCTAssertEqual(demos, [TestDevices.id(2, kind: .leRandom)], "what the demo hid is the demo's")
    }

    func testAFavoriteCannotBeHidden() async {
        let id = TestDevices.id(1, kind: .leRandom)
        let setup = await make(favorites: [Favorite(id: id, nickname: "Keys", lastKnownName: nil,
                                                    addedAt: Date(), updatedAt: Date())])
        await hear(setup, [1])
        XCTAssertFalse(setup.hidden.canHide(id))
        XCTAssertFalse(setup.hidden.hide(id, name: "Keys"))
        XCTAssertEqual(titles(setup), ["Keys"])
    }

    func testAddingAHiddenDeviceToTheFavoritesShowsItAgain() async {
        let setup = await make()
        let id = TestDevices.id(4, kind: .leRandom)
        await hear(setup, [4])
        setup.hidden.hide(id, name: "Dev 4")
        XCTAssertEqual(titles(setup), [])
        let added = await setup.favorites.add(id, name: "Dev 4", nickname: "")
        XCTAssertNotNil(added)
        XCTAssertFalse(setup.hidden.isHidden(id))
        XCTAssertEqual(titles(setup), ["Dev 4"])
        await setup.hidden.flush()
        let stored = await setup.repository.all()
        XCTAssertTrue(stored.isEmpty, "the store forgets it too")
    }

    func testOnlyNewDevicesShowsDevicesFirstHeardAfterItAcrossARestart() async {
        let repository = FakeHiddenDevicesRepository()
        let first = await make(repository: repository)
        await hear(first, [1, 2])
        first.scanner.setOnlyNewDevices(true)
        XCTAssertNotNil(first.scanner.onlyNewSince)
        XCTAssertEqual(titles(first), [], "every device seen so far is known")
        await hear(first, [1, 3])
        XCTAssertEqual(titles(first), ["Dev 3"])
        await first.hidden.flush()

        // A restart: a new model over the same store still knows 1 and 2, not 3.
        let second = await make(repository: repository)
        await hear(second, [1, 2, 3, 5])
        XCTAssertEqual(titles(second), ["Dev 3", "Dev 5"])
        second.scanner.setOnlyNewDevices(false)
        XCTAssertEqual(titles(second), ["Dev 1", "Dev 2", "Dev 3", "Dev 5"])
        XCTAssertNil(second.scanner.onlyNewSince)
    }

    func testAFailedWriteIsSaidAndTheDeviceStaysHiddenForTheSession() async {
        let repository = FakeHiddenDevicesRepository()
        await repository.failWrites()
        let setup = await make(repository: repository)
        var problems: [String] = []
        setup.hidden.onProblem = { problems.append($0) }
        await hear(setup, [1])
        setup.hidden.hide(TestDevices.id(1, kind: .leRandom), name: "Dev 1")
        await setup.hidden.flush()
        XCTAssertEqual(problems, ["“\u{2068}Dev 1\u{2069}” is hidden until FavBlue quits, but could not be saved"])
        XCTAssertEqual(titles(setup), [])
    }
}
