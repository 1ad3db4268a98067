// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import TestSupport
import ViewModels
import XCTest

final class ScannerViewModelTests: XCTestCase {
    @MainActor
    private static func make(favorites: [Favorite] = [], rate: Double = 1000) -> (ScannerViewModel, FakeScanner, Favorites, WallClock) {
        let (model, scanner, favoritesModel, clock, _) = makeWithLive(favorites: favorites, rate: rate)
        return (model, scanner, favoritesModel, clock)
    }

    @MainActor
    static func makeWithLive(favorites: [Favorite] = [], rate: Double = 1000)
        -> (ScannerViewModel, FakeScanner, Favorites, WallClock, LiveDevices) {
        let clock = WallClock()
        let scanner = FakeScanner()
        let favoritesModel = Favorites(useCases: FavoritesUseCases(repository: FakeFavoritesRepository(favorites)))
        let live = LiveDevices(makeScanner: { _ in scanner }, sightings: nil, refreshesPerSecond: rate, now: { clock.now })
        let model = ScannerViewModel(live: live, policy: ScanPolicy(live: live), favorites: favoritesModel, now: { clock.now })
        return (model, scanner, favoritesModel, clock, live)
    }

    private static func seen(_ n: UInt8, _ name: String?, _ rssi: Int, at time: Date = Date(timeIntervalSince1970: 1_000)) -> Observation {
        Observation(id: TestDevices.id(n, kind: .leRandom), timestamp: time, rssi: rssi, name: name,
                    manufacturerData: [ManufacturerData(companyID: 0x004C, companyName: "Apple, Inc.", data: [])])
    }

    /// Takes in everything fed so far and publishes it, as the refresh timer would.
    @MainActor
    private static func settle(_ model: ScannerViewModel) async {
        await model.drain()
    }

    func testRowsAreSortedBySignalThenByName() async {
        let (model, scanner, _, _) = await Self.make()
        await MainActor.run { model.start() }
        scanner.feed(Self.seen(1, "Weak", -90))
        scanner.feed(Self.seen(2, "Strong", -40))
        scanner.feed(Self.seen(3, "Middle", -60))
        await Self.settle(model)
        let bySignal = await model.rows.map(\.title)
        XCTAssertEqual(bySignal, ["Strong", "Middle", "Weak"])
        await MainActor.run { model.sortOrder = .name }
        let byName = await model.rows.map(\.title)
        XCTAssertEqual(byName, ["Middle", "Strong", "Weak"])
        await MainActor.run { model.stop() }
    }

    func testABurstOfReportsIsCoalescedToAtMostFourRefreshesASecond() async {
        let (model, scanner, _, _) = await Self.make(rate: 4)
        await MainActor.run { model.start() }
        let before = await model.refreshCount
        // Real time on purpose: the refresh rate is what is measured.
        for i in 0..<1000 {
            scanner.feed(Self.seen(UInt8(i % 5), "Dev \(i % 5)", -50 - i % 10))
            if i % 100 == 0 { try? await Task.sleep(nanoseconds: 100_000_000) }  // real time on purpose
        }
        try? await Task.sleep(nanoseconds: 300_000_000)  // real time on purpose, as above
        let after = await model.refreshCount
        XCTAssertLessThanOrEqual(after - before, 6, "1,000 reports over about 1.3 s")
        XCTAssertGreaterThanOrEqual(after - before, 2)
        let count = await model.rows.count
        XCTAssertEqual(count, 5)
        await MainActor.run { model.stop() }
    }

    func testRSSIIsSmoothed() async {
        let (model, scanner, _, _) = await Self.make()
        await MainActor.run { model.start() }
        scanner.feed(Self.seen(1, "A", -50))
        await Self.settle(model)
        scanner.feed(Self.seen(1, "A", -90))
        await Self.settle(model)
        let rssi = await model.rows.first?.rssi
        XCTAssertEqual(rssi, -62, "one outlier moves the figure 30 % of the way")
        await MainActor.run { model.stop() }
    }

    func testRowsHoldTheirPlacesUntilSortAgainWhichIsOfferedAfterTheHold() async {
        let (model, scanner, _, clock, live) = await Self.makeWithLive()
        await MainActor.run { model.start() }
        scanner.feed(Self.seen(1, "A", -80))
        scanner.feed(Self.seen(2, "B", -70))
        await Self.settle(model)
        let sorted = await model.rows.map(\.title)
        XCTAssertEqual(sorted, ["B", "A"], "newcomers come in the chosen order")
        for _ in 0..<10 { scanner.feed(Self.seen(1, "A", -30)) }
        scanner.feed(Self.seen(3, "C", -20))
        scanner.feed(Self.seen(4, "D", -25))
        await live.drain()
        await model.refresh()
        let held = await model.rows.map(\.title)
        XCTAssertEqual(held, ["B", "A", "C", "D"], "rows keep their places and newcomers go last, in order")
        var offered = await model.canSortAgain
        XCTAssertFalse(offered, "no new order is offered within the hold")
        clock.now = clock.now.addingTimeInterval(await model.orderHold)
        await model.refresh()
        let still = await model.rows.map(\.title)
        XCTAssertEqual(still, ["B", "A", "C", "D"], "after the hold the rows still keep their places")
        offered = await model.canSortAgain
        XCTAssertTrue(offered, "and Sort Again is offered")
        await MainActor.run { model.sortAgain() }
        let resorted = await model.rows.map(\.title)
        XCTAssertEqual(resorted, ["C", "D", "A", "B"])
        offered = await model.canSortAgain
        XCTAssertFalse(offered)
        await MainActor.run { model.sortOrder = .name }
        let asked = await model.rows.map(\.title)
        XCTAssertEqual(asked, ["A", "B", "C", "D"], "a sort asked for is at once")
        await MainActor.run { model.stop() }
    }

    func testARowThatNoLongerPassesAFilterKeepsItsPlaceDimmedUntilTheNextSort() async {
        let (model, scanner, _, _) = await Self.make()
        await MainActor.run {
            model.minimumRSSI = -75
            model.start()
        }
        scanner.feed(Self.seen(1, "A", -60))
        scanner.feed(Self.seen(2, "B", -70))
        scanner.feed(Self.seen(3, "C", -72))
        await Self.settle(model)
        for _ in 0..<10 { scanner.feed(Self.seen(1, "A", -100)) }
        await Self.settle(model)
        var rows = await model.rows
        XCTAssertEqual(rows.map(\.title), ["A", "B", "C"], "A is too weak now, but nothing below it moves up")
        XCTAssertEqual(rows.map(\.isStale), [true, false, false], "its row is dimmed")
        var offered = await model.canSortAgain
        XCTAssertTrue(offered, "a row held in its place is a reason to sort again")
        await MainActor.run { model.sortAgain() }
        rows = await model.rows
        XCTAssertEqual(rows.map(\.title), ["B", "C"])
        offered = await model.canSortAgain
        XCTAssertFalse(offered)
        await MainActor.run { model.stop() }
    }

    func testFiltersHideUnnamedWeakAndNonFavoritesAndSearch() async {
        let favorite = Favorite(id: TestDevices.id(3, kind: .leRandom), nickname: "Mine", lastKnownName: nil,
                                addedAt: Date(), updatedAt: Date())
        let (model, scanner, favorites, _) = await Self.make(favorites: [favorite])
        await favorites.load()
        await MainActor.run { model.start() }
        scanner.feed(Self.seen(1, nil, -40))
        scanner.feed(Self.seen(2, "Far", -95))
        scanner.feed(Self.seen(3, nil, -60))
        await Self.settle(model)
        var titles = await model.rows.map(\.title)
        XCTAssertEqual(titles, ["Mine", "Far"], "unnamed hidden by default; a favorite shows its nickname")
        let marked = await model.rows.first?.isFavorite
        XCTAssertEqual(marked, true)
        await MainActor.run { model.hideUnnamed = false }
        titles = await model.rows.map(\.title)
        XCTAssertEqual(titles, ["Unknown device", "Mine", "Far"])
        await MainActor.run { model.minimumRSSI = -70 }
        titles = await model.rows.map(\.title)
        XCTAssertEqual(titles, ["Unknown device", "Mine"])
        await MainActor.run { model.favoritesOnly = true }
        titles = await model.rows.map(\.title)
        XCTAssertEqual(titles, ["Mine"])
        await MainActor.run { model.favoritesOnly = false; model.minimumRSSI = -127; model.searchText = "apple" }
        titles = await model.rows.map(\.title)
        XCTAssertEqual(titles.count, 3, "search covers the company name")
        await MainActor.run { model.searchText = "far" }
        titles = await model.rows.map(\.title)
        XCTAssertEqual(titles, ["Far"])
        await MainActor.run { model.stop() }
    }

    func testATrackerSaysWhatItIsAndTheTrackersFilterShowsOnlyTags() async {
        let (model, scanner, _, _) = await Self.make()
        await MainActor.run { model.start() }
        var airTag = Self.seen(1, nil, -50)
        airTag.manufacturerData = [ManufacturerData(companyID: 0x004C, companyName: "Apple, Inc.",
                                                    data: [0x12, 0x19, 0x10] + Array(repeating: 0, count: 24))]
        var phone = Self.seen(2, "Phone", -40)
        phone.manufacturerData = [ManufacturerData(companyID: 0x004C, companyName: "Apple, Inc.", data: [0x12, 0x02, 0x00, 0x00])]
        var smartTag = Self.seen(3, nil, -60)
        smartTag.serviceData = [ServiceID(BluetoothUUID(0xFD5A), name: nil): [0x15] + Array(repeating: 0, count: 12)]
        for o in [airTag, phone, smartTag] { scanner.feed(o) }
        await Self.settle(model)
        var rows = await model.rows
        XCTAssertEqual(rows.map(\.tracker), [nil, "AirTag · away from its owner", "SmartTag · near its owner"],
                       "a phone in the Find My network is no tracker")
        XCTAssertEqual(rows.map(\.title), ["Phone", "AirTag", "SmartTag"], "a nameless tag goes by its kind, and is not hidden as unnamed")
        await MainActor.run { model.trackersOnly = true }
        rows = await model.rows
        XCTAssertEqual(rows.map(\.tracker), ["AirTag · away from its owner", "SmartTag · near its owner"])
        await MainActor.run { model.stop() }
    }

    func testATileThatDoesNotSayWhereItsOwnerIsIsCalledATrackerOnlyOnceItStayedTenMinutes() async {
        let (model, scanner, _, clock) = await Self.make()
        await MainActor.run { model.start() }
        var tile = Self.seen(4, nil, -55, at: clock.now)
        tile.serviceData = [ServiceID(BluetoothUUID(0xFEED), name: nil): [0x01, 0x02]]
        scanner.feed(tile)
        await Self.settle(model)
        var rows = await model.rows
        XCTAssertEqual(rows.map(\.title), ["Tile"], "listed by its kind")
        XCTAssertEqual(rows.map(\.tracker), [nil], "a Tile passing by is not called out")
        for minute in 1...10 {
            clock.now.addTimeInterval(60)
            tile.timestamp = clock.now
            scanner.feed(tile)
            await Self.settle(model)
            rows = await model.rows
            if minute < 10 { XCTAssertEqual(rows.first?.tracker, nil, "after \(minute) min") }
        }
        XCTAssertEqual(rows.first?.tracker, "Tile · does not say where its owner is", "ten minutes on, it is said")
        await MainActor.run { model.stop() }
    }

    func testStaleDevicesFadeThenGoAtTheNextSort() async {
        let (model, scanner, _, clock) = await Self.make()
        await MainActor.run { model.start() }
        scanner.feed(Self.seen(1, "Old", -50, at: clock.now))
        await Self.settle(model)
        clock.now.addTimeInterval(31)
        await MainActor.run { model.tick() }
        let stale = await model.rows.first?.isStale
        XCTAssertEqual(stale, true)
        clock.now.addTimeInterval(30)
        await MainActor.run { model.tick() }
        var rows = await model.rows
        XCTAssertEqual(rows.map(\.title), ["Old"], "gone, it keeps its place until the list is sorted")
        XCTAssertEqual(rows.first?.age, "1 min ago", "and says how long ago it was heard")
        await MainActor.run { model.sortAgain() }
        rows = await model.rows
        XCTAssertTrue(rows.isEmpty)
        await MainActor.run { model.stop() }
    }

    func testAGoneRowLeavesWhereNobodyAimsAndStaysAboveTheRowTheKeyboardIsOn() async {
        let (model, scanner, _, clock) = await Self.make()
        await MainActor.run { model.start() }
        for (n, name, rssi) in [(1, "First", -40), (2, "Second", -50), (3, "Third", -60), (4, "Fourth", -70)] as [(UInt8, String, Int)] {
            scanner.feed(Self.seen(n, name, rssi, at: clock.now))
        }
        await Self.settle(model)
        // Only Second and Fourth go silent past the remove time (60 s).
        clock.now.addTimeInterval(45)
        scanner.feed(Self.seen(1, "First", -40, at: clock.now))
        scanner.feed(Self.seen(3, "Third", -60, at: clock.now))
        await Self.settle(model)
        clock.now.addTimeInterval(20)
        let third = TestDevices.id(3, kind: .leRandom)
        await MainActor.run {
            model.aim = { .row(third) }
            model.tick()
        }
        var titles = await model.rows.map(\.title)
        XCTAssertEqual(titles, ["First", "Second", "Third"], "above the keyboard's row nothing moves; below it the gone row left")
        await MainActor.run {
            model.aim = { .everywhere }
            model.tick()
        }
        titles = await model.rows.map(\.title)
        XCTAssertEqual(titles, ["First", "Second", "Third"], "with the pointer over the list, nothing leaves")
        await MainActor.run {
            model.aim = { .nowhere }
            model.tick()
        }
        titles = await model.rows.map(\.title)
        XCTAssertEqual(titles, ["First", "Third"], "with nobody aiming, the gone row leaves")
        await MainActor.run { model.stop() }
    }

    func testADeviceListedUnderItsIdentityKeepsItsPlaceAndIsListedOnce() async {
        let (model, scanner, _, clock, live) = await Self.makeWithLive()
        await MainActor.run { model.start() }
        scanner.feed(Self.seen(1, "First", -40, at: clock.now))
        scanner.feed(Self.seen(2, "Peer", -50, at: clock.now))
        scanner.feed(Self.seen(3, "Last", -60, at: clock.now))
        await Self.settle(model)
        let identity = TestDevices.id(9, kind: .lePublic)
        await MainActor.run {
            live.move(TestDevices.id(2, kind: .leRandom), to: identity)
            model.tick()
        }
        await Self.settle(model)
        let rows = await model.rows
        XCTAssertEqual(rows.map(\.title), ["First", "Peer", "Last"])
        XCTAssertEqual(rows[1].id, identity, "the row is the identity's, where the old address's was")
        await MainActor.run { model.stop() }
    }

    func testAfterAReplayEndsRowsStayAndSayHowOldTheirReadingIs() async {
        let (model, scanner, _, clock) = await Self.make()
        await MainActor.run { model.start() }
        scanner.feed(Self.seen(1, "Speaker", -47, at: clock.now))
        await Self.settle(model)
        let live = await model.rows.first?.age
        XCTAssertNil(live, "a live reading shows no age")
        scanner.set(.finished)
        await Self.settle(model)
        clock.now.addTimeInterval(70)
        await MainActor.run { model.tick() }
        let row = await model.rows.first
        XCTAssertEqual(row?.age, "1 min ago", "a −47 dBm reading from 70 s ago does not look current")
        XCTAssertEqual(row?.isStale, false, "the row stays, undimmed")
        await MainActor.run { model.stop() }
    }

    func testAFailureIsTheState() async {
        let (model, scanner, _, _) = await Self.make()
        await MainActor.run { model.start() }
        scanner.set(.failed(.unavailable("no adapter")))
        await Self.settle(model)
        let state = await model.state
        XCTAssertEqual(state, .failed(.unavailable("no adapter")))
        let running = await model.isRunning
        XCTAssertFalse(running)
        await MainActor.run { model.stop() }
    }
}

extension ScannerViewModelTests {
    func testFadeAndRemoveTimesComeFromThePreferences() async {
        let clock = WallClock()
        let scanner = FakeScanner()
        let favorites = await Favorites(useCases: FavoritesUseCases(repository: FakeFavoritesRepository()))
        let live = await LiveDevices(makeScanner: { _ in scanner }, sightings: nil, refreshesPerSecond: 1000, now: { clock.now })
        let policy = await ScanPolicy(live: live)
        let model = await ScannerViewModel(live: live, policy: policy, favorites: favorites, now: { clock.now })
        await MainActor.run {
            policy.settings.fadeAfterSeconds = 5
            policy.settings.removeAfterSeconds = 10
            model.start()
        }
        scanner.feed(Self.seen(1, "Brief", -50, at: clock.now))
        await Self.settle(model)
        clock.now.addTimeInterval(6)
        await MainActor.run { model.tick() }
        let stale = await model.rows.first?.isStale
        XCTAssertEqual(stale, true, "faded after the configured 5 s, not the default 30 s")
        clock.now.addTimeInterval(5)
        await MainActor.run { model.tick() }
        let remaining = await live.all.count
        XCTAssertEqual(remaining, 0, "gone after the configured 10 s")
        await MainActor.run { model.sortAgain() }
        let rows = await model.rows
        XCTAssertTrue(rows.isEmpty, "and its row with the next sort")
        await MainActor.run { model.stop() }
    }

    func testAutoScanOpensThePeriodicModeAndRestartsARunningScan() async {
        let clock = WallClock()
        let scanner = FakeScanner()
        let favoritesModel = await Favorites(useCases: FavoritesUseCases(repository: FakeFavoritesRepository()))
        let modes = ModeLog()
        let live = await LiveDevices(makeScanner: { mode in modes.append(mode); return scanner }, sightings: nil, now: { clock.now })
        let policy = await ScanPolicy(live: live)
        let model = await ScannerViewModel(live: live, policy: policy, favorites: favoritesModel, now: { clock.now })
        let saved = PreferencesLog()
        let savedScan = ScanSettingsLog()
        await MainActor.run {
            model.onPreferencesChange = { saved.append($0) }
            policy.onChange = { savedScan.append($0) }
            model.start()
            policy.settings.periodic = true
            policy.settings.periodSeconds = 120
            policy.settings.scanWindowSeconds = 20
            model.preferences.hideUnnamed = false
            model.stop()
        }
        XCTAssertEqual(modes.all.first, .continuous, "continuous by default")
        XCTAssertEqual(modes.all.last, .periodic(windowSeconds: 20, intervalSeconds: 120),
                       "a running scan restarts in the new mode")
        XCTAssertEqual(modes.all.count, 4, "one restart per change of mode, none for a filter")
        XCTAssertEqual(savedScan.all.count, 3, "every change of how it scans is handed on to be kept")
        XCTAssertEqual(savedScan.all.last?.scanWindowSeconds, 20)
        XCTAssertEqual(saved.all.count, 1, "and every change of the list's filters")
        XCTAssertEqual(saved.all.last?.hideUnnamed, false)
    }

    func testWaitingBetweenAutoScansCountsAsRunning() async {
        let (model, scanner, _, _) = await Self.make()
        await MainActor.run { model.start() }
        scanner.set(.waiting)
        await Self.settle(model)
        let running = await model.isRunning
        XCTAssertTrue(running, "the toggle still offers Stop between two auto scans")
        await MainActor.run { model.stop() }
    }

    func testHiddenDevicesAreCountedSoThePageCanSayWhy() async {
        let (model, scanner, _, _) = await Self.make()
        await MainActor.run { model.start() }
        scanner.feed(Self.seen(1, "Lamp", -50))
        scanner.feed(Self.seen(2, nil, -50))
        await Self.settle(model)
        await MainActor.run { model.searchText = "nothing like this" }
        let (rows, hidden) = await MainActor.run { (model.rows.count, model.hiddenCount) }
        XCTAssertEqual(rows, 0)
        XCTAssertEqual(hidden, 2, "the search and the unnamed filter hide both")
        await MainActor.run { model.stop() }
    }

    func testSignalHistoryKeepsOneReadingASecondAndDescribesFiveMinutes() async {
        let (model, scanner, favorites, clock, live) = await Self.makeWithLive()
        await MainActor.run { model.start() }
        let start = clock.now
        for step in 0..<40 {
            // Four reports a second for ten seconds, falling 1 dB a second.
            scanner.feed(Self.seen(1, "Walker", -50 - step / 4, at: start.addingTimeInterval(Double(step) * 0.25)))
        }
        await Self.settle(model)
        let id = TestDevices.id(1, kind: .leRandom)
        let count = await live[id]?.trace.count
        XCTAssertEqual(count, 10, "one reading per second")
        let detail = await DeviceDetailViewModel(id: id, favorites: favorites, live: live, sightings: nil)
        let history = await detail.signalHistory(now: start.addingTimeInterval(10))
        XCTAssertEqual(history?.lowest, -59)
        XCTAssertEqual(history?.highest, -50)
        XCTAssertEqual(history?.last, -59)
        let later = await detail.signalHistory(now: start.addingTimeInterval(400))
        XCTAssertNil(later, "readings older than five minutes leave the plot")
        await MainActor.run { model.stop() }
    }

    func testARowKeepsItsReadingsTwoSecondsSoAFastSensorDoesNotRedrawItEveryRefresh() async {
        let (model, scanner, _, clock) = await Self.make()
        await MainActor.run { model.start() }
        func thermometer(_ hundredths: Int16, at time: Date) -> Observation {
            // BTHome v2: a temperature, in hundredths of a degree.
            let t = UInt16(bitPattern: hundredths)
            return Observation(id: TestDevices.id(7, kind: .leRandom), timestamp: time, rssi: -50, name: "Fridge",
                               serviceData: [ServiceID(BluetoothUUID(0xFCD2), name: nil): [0x40, 0x02, UInt8(t & 0xFF), UInt8(t >> 8)]])
        }
        // In the unit the test's locale reads (°F where LC_MEASUREMENT is American).
        let first = ReadingText.value(SensorReading(.temperature, 4.5, decimals: 2))
        let third = ReadingText.value(SensorReading(.temperature, 4.7, decimals: 2))
        scanner.feed(thermometer(450, at: clock.now))
        await Self.settle(model)
        var shown = await MainActor.run { model.rows.first?.readings }
        XCTAssertEqual(shown, first)
        clock.advance(1)
        scanner.feed(thermometer(460, at: clock.now))
        await Self.settle(model)
        shown = await MainActor.run { model.rows.first?.readings }
        XCTAssertEqual(shown, first, "held for two seconds")
        clock.advance(1.5)
        scanner.feed(thermometer(470, at: clock.now))
        await Self.settle(model)
        shown = await MainActor.run { model.rows.first?.readings }
        XCTAssertNotEqual(shown, first, "two seconds on, the row moves on")
        clock.advance(2)
        scanner.feed(thermometer(470, at: clock.now))
        await Self.settle(model)
        shown = await MainActor.run { model.rows.first?.readings }
        XCTAssertEqual(shown, third, "and comes to the newest")
        await MainActor.run { model.stop() }
    }
}

final class PreferencesLog: @unchecked Sendable {
    private(set) var all: [ScannerPreferences] = []
    func append(_ p: ScannerPreferences) { all.append(p) }
}

final class ScanSettingsLog: @unchecked Sendable {
    private(set) var all: [ScanSettings] = []
    func append(_ p: ScanSettings) { all.append(p) }
}

final class ModeLog: @unchecked Sendable {
    private(set) var all: [ScanMode] = []
    func append(_ mode: ScanMode) { all.append(mode) }
}

