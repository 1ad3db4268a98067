// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Bluetooth
import Domain
import Foundation
import TestSupport
import XCTest

/// favblue-scan and the app's Export Devices… write the same keys and the same raw advertising
/// content, and the app's Record writes a capture that reads back.
final class ExportSharingTests: XCTestCase {
    private var tool: String { scanToolPath }

    private static func fixture(_ name: String) -> String {
        CaptureTests.root.appending(path: "Tests/Fixtures/captures/\(name)").path
    }

    private func scanJSON(_ capture: String) throws -> [[String: Any]] {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: tool), "build favblue-scan first (swift build)")
        let (status, out, err) = try runTool(tool, ["--source", "btsnoop:\(capture)", "--fast", "--format", "json"])
        XCTAssertEqual(status, 0, err)
        return try out.split(separator: "\n").map { try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
    }

    func testFavBlueScanPrintsServiceDataAndManufacturerDataAsHex() throws {
        let pixel = try scanJSON(Self.fixture("android-extended-adverts.btsnoop"))
        let withServiceData = try XCTUnwrap(pixel.first { ($0["serviceData"] as? [String: String])?.isEmpty == false })
        let serviceData = try XCTUnwrap(withServiceData["serviceData"] as? [String: String])
        let data = try XCTUnwrap(serviceData["FEF3"], "the Pixel's service data under its UUID")
        XCTAssertTrue(data.allSatisfy { "0123456789abcdef".contains($0) } && data.count % 2 == 0, data)

        let govee = try scanJSON(Self.fixture("android-legacy-adverts-govee.btsnoop"))
        let maker = try XCTUnwrap(govee.compactMap { $0["manufacturerData"] as? [String: String] }.first { $0["0xEC88"] != nil },
                                  "the thermometer's manufacturer data under its company identifier")
        XCTAssertFalse(maker["0xEC88"]!.isEmpty)
    }

    /// The app folds a capture into live devices and writes them with the same writer; its keys
    /// are favblue-scan's plus nickname and favorite, and the raw content agrees device by device.
    func testTheAppsJSONExportHasFavBlueScansKeysAndContent() throws {
        let capture = Self.fixture("android-extended-adverts.btsnoop")
        let scanned = try scanJSON(capture)
        var live: [DeviceID: LiveDevice] = [:]
        let (table, _) = ReplayScanner(path: capture, realTime: false).table()
        // The same reports, folded the way the live model folds them.
        let reader = try BtsnoopReader(path: capture)
        reader.visitPackets({ packet in
            guard packet.type == .event, packet.received else { return true }
            for o in (try? ObservationDecoder.observations(inEvent: packet.bytes[...], at: packet.timestamp)) ?? [] {
                if live[o.id] == nil { live[o.id] = LiveDevice(o) } else { live[o.id]!.fold(o) }
            }
            return true
        }, truncated: { _ in })
        XCTAssertEqual(Set(live.keys), Set(table.devices.keys))
        let records = live.values.sorted { $0.id < $1.id }.map {
            DeviceRecord(id: $0.id, advertised: $0.advertised, rssi: $0.rssi, rssiMax: $0.rssiMax, reports: $0.reports,
                         firstSeen: $0.firstSeen, lastSeen: $0.lastSeen, nickname: nil, favorite: false)
        }
        let exported = try XCTUnwrap(JSONSerialization.jsonObject(with: DeviceExport.json(records)) as? [[String: Any]])
        XCTAssertEqual(exported.count, scanned.count)
        for (app, cli) in zip(exported, scanned) {
            XCTAssertEqual(Set(app.keys), Set(cli.keys).union(["nickname", "favorite"]))
            for key in ["address", "manufacturerData", "serviceData", "services", "name", "rssiMax", "reports", "firstSeen"] {
                XCTAssertEqual(app[key] as? NSObject, cli[key] as? NSObject, key)
            }
        }
    }

    /// Record in the app: a recorder shared by the scanners, switched on while a replay runs,
    /// closed when the replay ends; the file reads back as a capture of the same devices.
    @MainActor
    func testARecordingMadeWhileScanningReadsBackAndEndsWithTheScan() async throws {
        let capture = Self.fixture("android-extended-adverts.btsnoop")
        let path = NSTemporaryDirectory() + "favblue-record-\(UUID().uuidString).btsnoop"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let recorder = BtsnoopRecorder()
        let live = LiveDevices(makeScanner: { mode in
            ScannerFactory.make(.btsnoop(path: capture), demoCapture: nil, mode: mode, record: recorder)
        }, sightings: nil, recorder: recorder)
        live.start(mode: .continuous)
        try live.startRecording(to: path)
        XCTAssertEqual(live.recordingPath, path)
        let playedOut = await playOut(live, timeout: 30)
        XCTAssertTrue(playedOut)
        XCTAssertEqual(live.state, .finished)
        XCTAssertNil(live.recordingPath, "the recording ends with the scan")
        XCTAssertFalse(recorder.isRecording)

        let (packets, truncated) = try BtsnoopReader(path: path).packets()
        XCTAssertNil(truncated)
        XCTAssertGreaterThan(packets.count, 0)
        XCTAssertTrue(packets.allSatisfy { $0.type == .event && $0.received })
        let (recorded, end) = ReplayScanner(path: path, realTime: false).table()
        XCTAssertEqual(end, .finished, "no truncated record")
        XCTAssertEqual(Set(recorded.devices.keys), Set(live.all.keys), "the capture holds the devices the scan listed")
    }

    @MainActor
    func testRecordingToAFullDiskOrAMissingFolderSaysWhy() async throws {
        let recorder = BtsnoopRecorder()
        let live = LiveDevices(makeScanner: { _ in ReplayScanner(path: "/nonexistent", realTime: false) }, sightings: nil, recorder: recorder)
        XCTAssertThrowsError(try live.startRecording(to: "/nonexistent-folder/scan.btsnoop")) { error in
            let message = (error as? RecordingError)?.message ?? ""
            XCTAssertTrue(message.contains("/nonexistent-folder/scan.btsnoop"), message)
            XCTAssertTrue(message.contains("No such file or directory"), message)
        }
        XCTAssertThrowsError(try live.startRecording(to: "/dev/full")) { error in
            XCTAssertTrue((error as? RecordingError)?.reason.contains("No space left") == true, "\(error)")
        }
        XCTAssertEqual((try? FileManager.default.attributesOfItem(atPath: "/dev/full")[.type]) as? FileAttributeType,
                       .typeCharacterSpecial, "the device is written to, never replaced")
        XCTAssertNil(live.recordingPath)
    }

    /// A file that stops taking bytes (here a file size limit, as a full disk would) ends the
    /// recording, says why once, and keeps what was written before.
    func testAWriteThatFailsMidRecordingClosesTheFileAndSaysWhy() throws {
        let path = NSTemporaryDirectory() + "favblue-record-\(UUID().uuidString).btsnoop"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let recorder = BtsnoopRecorder()
        try recorder.start(path: path)
        var old = rlimit()
        getrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &old)
        var small = old
        // The header (16 bytes) and one 45-byte record fit; the second does not.
        small.rlim_cur = 64
        signal(SIGXFSZ, SIG_IGN)
        setrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &small)
        for _ in 0..<5 { recorder.write(type: .event, bytes: [0x3E] + Array(repeating: 0, count: 19), received: true, at: Date()) }
        setrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &old)
        signal(SIGXFSZ, SIG_DFL)
        XCTAssertFalse(recorder.isRecording)
        let failure = try XCTUnwrap(recorder.takeFailure())
        XCTAssertEqual(failure.reason, String(cString: strerror(EFBIG)))
        XCTAssertTrue(failure.message.contains(path))
        XCTAssertNil(recorder.takeFailure(), "said once")
        XCTAssertGreaterThanOrEqual(try BtsnoopReader(path: path).packets().packets.count, 1, "what came before is kept")
    }
}
