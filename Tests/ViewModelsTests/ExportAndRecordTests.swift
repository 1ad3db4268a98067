// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import TestSupport
import ViewModels
import XCTest

/// Export Devices… takes what the list shows; Record runs with the scan and says how it ended.
@MainActor
final class ExportAndRecordTests: XCTestCase {
    private func make(favorites: [Favorite] = [], recorder: FakeRecorder? = FakeRecorder())
        -> (ScannerViewModel, FakeScanner, Favorites, LiveDevices) {
        let scanner = FakeScanner()
        let favoritesModel = Favorites(useCases: FavoritesUseCases(repository: FakeFavoritesRepository(favorites)))
        let live = LiveDevices(makeScanner: { _ in scanner }, sightings: nil, recorder: recorder, refreshesPerSecond: 1000)
        return (ScannerViewModel(live: live, policy: ScanPolicy(live: live), favorites: favoritesModel), scanner, favoritesModel, live)
    }

    private func seen(_ n: UInt8, _ name: String?, _ rssi: Int) -> Observation {
        Observation(id: TestDevices.id(n, kind: .leRandom), timestamp: Date(), rssi: rssi, name: name,
                    manufacturerData: [ManufacturerData(companyID: 0x0059, companyName: "Nordic", data: [0x01, 0x02])])
    }

    private func settle(_ model: ScannerViewModel) async {
        await model.drain()
    }

    func testTheExportHoldsTheListedRowsInOrderAndNothingTheFiltersHide() async {
        let favorite = Favorite(id: TestDevices.id(3, kind: .leRandom), nickname: "Mine", lastKnownName: nil,
                                addedAt: Date(), updatedAt: Date())
        let (model, scanner, favorites, _) = make(favorites: [favorite])
        await favorites.load()
        model.start()
        scanner.feed(seen(1, nil, -40))
        scanner.feed(seen(2, "Lamp, \"desk\"", -70))
        scanner.feed(seen(3, "Tag", -60))
        scanner.feed(seen(2, nil, -50))
        await settle(model)
        let records = model.exportRecords()
        XCTAssertEqual(records.map(\.address), model.rows.map(\.id.address))
        XCTAssertEqual(records.map { $0.nickname ?? $0.name }, ["Mine", "Lamp, \"desk\""], "the unnamed device stays hidden")
        XCTAssertEqual(records.map(\.favorite), [true, false])
        XCTAssertEqual(records[1].reports, 2)
        XCTAssertEqual(records[1].rssiMax, -50)
        XCTAssertEqual(records[1].manufacturerData, ["0x0059": "0102"])
        model.favoritesOnly = true
        XCTAssertEqual(model.exportRecords().map(\.nickname), ["Mine"])
        model.stop()
    }

    func testExportFavoritesHoldsEveryFavoriteHeardOrNotAndNoOtherDevice() async {
        let scanner = FakeScanner()
        let live = LiveDevices(makeScanner: { _ in scanner }, sightings: nil, recorder: nil, refreshesPerSecond: 1000)
        let added = Date(timeIntervalSince1970: 1_700_000_000)
        let heard = Favorite(id: TestDevices.id(3, kind: .leRandom), nickname: "Mine", lastKnownName: "Tag", addedAt: added, updatedAt: added)
        let away = Favorite(id: TestDevices.id(4, kind: .lePublic), nickname: nil, lastKnownName: "Old Lamp", addedAt: added, updatedAt: added)
        let favorites = Favorites(useCases: FavoritesUseCases(repository: FakeFavoritesRepository([heard, away])), live: live)
        await favorites.load()
        let model = ScannerViewModel(live: live, policy: ScanPolicy(live: live), favorites: favorites)
        model.start()
        scanner.feed(seen(1, "Stranger", -40))
        scanner.feed(seen(3, "Tag", -60))
        await settle(model)
        let records = FavoritesViewModel(favorites: favorites).exportRecords()
        XCTAssertEqual(Set(records.map(\.address)), [heard.id.address, away.id.address], "the favorites, not the Scanner's list")
        let mine = try? XCTUnwrap(records.first { $0.address == heard.id.address })
        XCTAssertEqual(mine?.nickname, "Mine")
        XCTAssertEqual(mine?.rssi, -60)
        XCTAssertEqual(mine?.reports, 1)
        let lamp = try? XCTUnwrap(records.first { $0.address == away.id.address })
        XCTAssertEqual(lamp?.name, "Old Lamp", "a favorite not heard keeps the name it was last known by")
        XCTAssertEqual(lamp?.reports, 0)
        XCTAssertEqual(lamp?.lastSeen, added)
        XCTAssertEqual(records.map(\.favorite), [true, true])
        model.stop()
    }

    func testSavingWritesTheFileAndAMissingFolderSaysWhatToDo() async throws {
        let folder = NSTemporaryDirectory() + "favblue-export-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/devices.csv"
        try Data("old".utf8).write(to: URL(fileURLWithPath: path))
        try await ExportFile.save(Data("a,b\r\n".utf8), to: path)
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "a,b\r\n")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder), ["devices.csv"], "no temporary file left behind")
        do {
            try await ExportFile.save(Data(), to: folder + "/gone/devices.csv")
            XCTFail("saved into a folder that does not exist")
        } catch {
            XCTAssertTrue(error.message.contains("devices.csv"), error.message)
            XCTAssertTrue(error.message.contains("does not exist"), error.message)
            XCTAssertFalse(error.suggestion.isEmpty)
        }
    }

    func testRecordStartsTheScanAndEndsWhenScanningStops() async {
        let recorder = FakeRecorder()
        let (model, scanner, _, _) = make(recorder: recorder)
        XCTAssertTrue(model.canRecord)
        XCTAssertNil(model.startRecording(to: "/tmp/a.btsnoop"))
        XCTAssertEqual(model.recordingPath, "/tmp/a.btsnoop")
        XCTAssertEqual(recorder.openPath, "/tmp/a.btsnoop")
        await settle(model)
        XCTAssertEqual(scanner.starts, 1, "recording needs a scan, so it starts one")
        XCTAssertTrue(model.isRunning)
        XCTAssertEqual(model.recordingPath, "/tmp/a.btsnoop", "the scan's start does not end it")
        model.stop()
        XCTAssertNil(model.recordingPath)
        XCTAssertNil(recorder.openPath, "the file is closed")
        let end = model.takeRecordingEnd()
        XCTAssertEqual(end?.path, "/tmp/a.btsnoop")
        XCTAssertNil(end?.failure)
        XCTAssertNil(model.takeRecordingEnd(), "told once")
    }

    func testARecordingEndsWithAFailedScanAndAFullDiskIsReported() async {
        let recorder = FakeRecorder()
        let (model, scanner, _, _) = make(recorder: recorder)
        model.start()
        await settle(model)
        model.startRecording(to: "/tmp/b.btsnoop")
        scanner.set(.failed(.disconnected("gone")))
        await settle(model)
        XCTAssertNil(model.recordingPath)
        XCTAssertNil(recorder.openPath)
        XCTAssertEqual(model.takeRecordingEnd()?.path, "/tmp/b.btsnoop")

        model.start()
        await settle(model)
        model.startRecording(to: "/tmp/c.btsnoop")
        recorder.failWrites(reason: "No space left on device")
        await settle(model)
        XCTAssertNil(model.recordingPath)
        let end = model.takeRecordingEnd()
        XCTAssertEqual(end?.failure?.reason, "No space left on device")
        XCTAssertTrue(end?.failure?.message.contains("/tmp/c.btsnoop") == true)
        XCTAssertTrue(model.isRunning, "a full disk ends the recording, not the scan")
        model.stop()
    }

    func testWithoutARecorderRecordingIsRefusedWithAReason() async {
        let (model, _, _, _) = make(recorder: nil)
        XCTAssertFalse(model.canRecord)
        let failure = model.startRecording(to: "/tmp/d.btsnoop")
        XCTAssertNotNil(failure)
        XCTAssertNil(model.recordingPath)
        model.stop()
    }
}
