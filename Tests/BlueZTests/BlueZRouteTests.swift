// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Bluetooth
import Domain
import Foundation
import TestSupport
import XCTest

/// The BlueZ route as a source: `favblue-scan --source bluez`, `auto`, and recording a BlueZ scan.
final class BlueZRouteTests: XCTestCase {
    private var mock: MockBlueZ!

    override func setUp() async throws {
        mock = try MockBlueZ()
        try await mock.startMock()
    }

    override func tearDown() {
        mock?.stop()
    }

    private var tool: String { scanToolPath }

    func testFavblueScanListsBlueZsDevicesAsJSON() async throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: tool), "build favblue-scan first (swift build)")
        try await mock.addAdapter()
        try await mock.addDevice("C0:98:E5:49:00:01", name: "Pixel 8")
        let path = try await mock.addDevice("C0:98:E5:49:00:02", name: "Tile")
        let data = DBusValue.dictionary(keyType: "q", valueType: "v", [.init(.uint16(0x0059), .variant(.bytes([1, 2, 3])))])
        try await mock.set(path, "org.bluez.Device1", "ManufacturerData", data)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = ["--source", "bluez", "--duration", "3", "--format", "json"]
        process.environment = ProcessInfo.processInfo.environment.merging(["DBUS_SYSTEM_BUS_ADDRESS": mock.address]) { $1 }
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Meanwhile the tile is heard again, stronger. Real time on purpose: favblue-scan runs for a
        // fixed span, and the change must land inside it.
        try await Task.sleep(for: .seconds(1))
        try await mock.set(path, "org.bluez.Device1", "RSSI", .int16(-45))
        let output = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        let lines = String(decoding: output, as: UTF8.self).split(separator: "\n")
        let devices = try lines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        XCTAssertEqual(devices.compactMap { $0["name"] as? String }.sorted(), ["Pixel 8", "Tile"])
        let tile = try XCTUnwrap(devices.first { $0["name"] as? String == "Tile" })
        XCTAssertEqual(tile["address"] as? String, "C0:98:E5:49:00:02")
        XCTAssertEqual(tile["rssiMax"] as? Int, -45)
        XCTAssertEqual((tile["manufacturerData"] as? [String: String])?["0x0059"], "010203")
    }

    func testFavblueScanSaysWhyWhenBlueZHasNoAdapter() throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: tool), "build favblue-scan first (swift build)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = ["--source", "bluez", "--duration", "2"]
        process.environment = ProcessInfo.processInfo.environment.merging(["DBUS_SYSTEM_BUS_ADDRESS": mock.address]) { $1 }
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertNotEqual(process.terminationStatus, 0)
        XCTAssertTrue(text.contains("no adapter"), text)
    }

    func testAutoTakesBlueZWhenItHasAnAdapter() async throws {
        try await mock.addAdapter()
        try await mock.addDevice("C0:98:E5:49:00:01", name: "Pixel 8")
        let scanner = ScannerFactory.make(.auto, demoCapture: nil, bus: BlueZBus(address: mock.address))
        let heard = await first(scanner.observations)
        scanner.start()
        let observation = await heard.value
        XCTAssertEqual(observation?.name, "Pixel 8")
        scanner.stop()
    }

    func testAutoWithoutABlueZAdapterFallsBackToRawSocketsAndExplainsBoth() async throws {
        let scanner = ScannerFactory.make(.auto, demoCapture: nil, bus: BlueZBus(address: mock.address))
        let states = scanner.states
        scanner.start()
        var failure: ScanFailure?
        for await state in states {
            if case .failed(let reason) = state { failure = reason; break }
        }
        let message = try XCTUnwrap(failure?.message)
        XCTAssertTrue(message.contains("system’s Bluetooth service has no adapter"), message)
        XCTAssertTrue(message.contains("raw HCI socket"), message)
        scanner.stop()
    }

    func testARecordedBlueZScanReplaysAsTheSameDevices() async throws {
        try await mock.addAdapter()
        let path = try await mock.addDevice("C0:98:E5:49:00:01", name: "Pixel 8")
        try await mock.set(path, "org.bluez.Device1", "UUIDs", .array(elementType: "s", [.string("0000180f-0000-1000-8000-00805f9b34fb")]))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("favblue-bluez-\(UUID().uuidString).btsnoop").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        let writer = try BtsnoopWriter(path: file)
        let scanner = BlueZScanner(bus: BlueZBus(address: mock.address), record: writer)
        let heard = await first(scanner.observations)
        scanner.start()
        let firstHeard = await heard.value
        let live = try XCTUnwrap(firstHeard)
        try await mock.set(path, "org.bluez.Device1", "RSSI", .int16(-50))
        // Real time on purpose: the mock's signal reaches the scanner over the real bus.
        try await Task.sleep(for: .milliseconds(300))
        scanner.stop()
        writer.close()

        var table = DeviceTable()
        let replay = ReplayScanner(path: file, realTime: false, record: nil)
        let observations = replay.observations
        replay.start()
        for await o in observations { table.add(o) }
        let device = try XCTUnwrap(table.sorted.first)
        XCTAssertEqual(device.id, live.id)
        XCTAssertEqual(device.name, "Pixel 8")
        XCTAssertEqual(device.rssiMax, -50)
        XCTAssertEqual(device.reports, 2)
    }

    /// The stream's first element, awaited by a task that starts listening now.
    private func first(_ stream: Feed<Observation>) async -> Task<Observation?, Never> {
        Task {
            for await o in stream { return o }
            return nil
        }
    }
}
