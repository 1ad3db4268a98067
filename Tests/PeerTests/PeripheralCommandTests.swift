// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

@testable import Bluetooth
import Domain
import Foundation
import TestSupport
import XCTest

/// `favblue-scan serve` and `favblue-scan adapter` on FavBlue's own host, against the Bumble
/// central: a server setup saved by nRF Connect for Desktop (made here from that app's structure)
/// imports and serves, and each event is one JSON line.
final class PeripheralCommandTests: XCTestCase {
    private var peer: ChatPeer!

    override func tearDown() { peer?.stop() }

    /// nRF Connect for Desktop's saved setup: its server setup reducer's state, as JSON.
    static let nrfSetup = """
        {"selectedComponent": null, "children": {
          "local.server.1": {"instanceId": "local.server.1", "uuid": "1800", "name": "Generic Access", "children": {
            "local.server.1.1": {"instanceId": "local.server.1.1", "uuid": "2A00", "name": "Device Name", "value": [78, 82, 70, 32, 83, 101, 116, 117, 112],
                                 "properties": {"read": true, "write": true}, "readPerm": "open", "writePerm": "open", "maxLength": 20, "children": {}}}},
          "local.server.2": {"instanceId": "local.server.2", "uuid": "1801", "name": "Generic Attribute", "children": {}},
          "local.server.3": {"instanceId": "local.server.3", "uuid": "5E7F50001C2B4A5D8E9F0A1B2C3D4E5F", "name": "Lamp", "children": {
            "local.server.3.4": {"instanceId": "local.server.3.4", "uuid": "5E7F50011C2B4A5D8E9F0A1B2C3D4E5F", "name": "Level",
                                 "value": [7], "properties": {"read": true, "write": true, "notify": true},
                                 "readPerm": "open", "writePerm": "open", "fixedLength": false, "maxLength": 20, "children": {
              "local.server.3.4.5": {"instanceId": "local.server.3.4.5", "uuid": "2902", "value": [0, 0], "readPerm": "open", "writePerm": "open"}}}}}}}
        """

    func testAnNRFConnectSetupIsServedAndEachEventIsOneJSONLine() throws {
        peer = try ChatPeer([], script: "central_peer.py")
        // The setup's GAP name, advertised connectably.
        let run = try serve()
        let (process, lines) = (run.process, run.out)
        peer.type("READ 5E7F5001-1C2B-4A5D-8E9F-0A1B2C3D4E5F")
        XCTAssertNotNil(peer.wait(for: { $0 == "VALUE 5E7F5001-1C2B-4A5D-8E9F-0A1B2C3D4E5F 07" }), peer.output)
        peer.type("WRITE 5E7F5001-1C2B-4A5D-8E9F-0A1B2C3D4E5F 3c623e1b5b326a")
        XCTAssertNotNil(peer.wait(for: { $0 == "WROTE 5E7F5001-1C2B-4A5D-8E9F-0A1B2C3D4E5F" }), peer.output)
        let write = try XCTUnwrap(lines.wait { $0.contains("\"event\": \"write\"") }, lines.all.description)
        XCTAssertTrue(write.contains("\"hex\": \"3c623e1b5b326a\""), write)
        XCTAssertTrue(write.contains("\"text\": \"<b>\\u001b[2j\""), "the escape character is escaped, never sent raw: \(write)")
        XCTAssertFalse(write.utf8.contains(0x1B))
        XCTAssertTrue(write.contains("\"characteristic\": \"5E7F5001-1C2B-4A5D-8E9F-0A1B2C3D4E5F\""), write)
        XCTAssertNotNil(lines.wait { $0.contains("\"event\": \"connected\"") && $0.contains("\"address\": \"F0:F1:F2:F3:F4:F9\"") }, lines.all.description)
        process.interrupt()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "Ctrl+C ends it cleanly")
        XCTAssertTrue(lines.all.contains { $0.contains("\"event\": \"stopped\"") }, lines.all.description)
    }

    /// `serve` with `file` (the nRF setup by default), its standard output and error read as they
    /// come, its standard input the test's; the central scans for `name` and, with `connect`, connects.
    private func serve(_ extra: [String] = [], file text: String = nrfSetup, name: String = "NRF Setup", connect: Bool = true) throws
        -> (process: Process, out: PrintedLines, err: PrintedLines, keyboard: Pipe, address: String) {
        let file = FileManager.default.temporaryDirectory.appending(path: "serve-\(UUID().uuidString).json")
        try text.write(to: file, atomically: true, encoding: .utf8)
        addTeardownBlock { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: scanToolPath)
        process.arguments = ["serve", file.path, "--source", "h4-tcp:127.0.0.1:\(peer.port)", "--duration", "60"] + extra
        let out = Pipe(), err = Pipe(), keyboard = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = keyboard
        let lines = PrintedLines(out), errors = PrintedLines(err)
        try process.run()
        addTeardownBlock { if process.isRunning { process.interrupt() }; process.waitUntilExit() }
        XCTAssertNotNil(lines.wait { $0.contains("\"event\": \"advertising\"") }, lines.all.description)
        peer.type("SCAN")
        let advert = try XCTUnwrap(peer.wait(for: { $0.hasPrefix("ADV ") && $0.contains(Hex.lower(Array(name.utf8))) }, timeout: 15), peer.output)
        let address = String(advert.split(separator: " ")[1])
        peer.type("STOPSCAN")
        if connect {
            peer.type("CONNECT \(address)")
            XCTAssertNotNil(peer.wait(for: { $0 == "CONNECTED \(address)" }, timeout: 15), peer.output)
        }
        return (process, lines, errors, keyboard, address)
    }

    /// The terminal asks whether the central shows the same number; "y" pairs, and the link is encrypted.
    func testServePairsWithTheNumberConfirmedOnTheTerminal() throws {
        peer = try ChatPeer([], script: "central_peer.py")
        let run = try serve()
        peer.type("PAIR")
        let compare = try XCTUnwrap(peer.wait(for: { $0.hasPrefix("COMPARE ") }, timeout: 15), peer.output)
        let digits = compare.dropFirst(8)
        let question = try XCTUnwrap(run.err.wait { $0.contains("pairing:") }, run.err.all.description)
        XCTAssertEqual(question, "favblue-scan: pairing: does F0:F1:F2:F3:F4:F9 show \(digits.prefix(3)) \(digits.suffix(3))? Type y and Enter if it does.")
        run.keyboard.fileHandleForWriting.write(Data("y\n".utf8))
        XCTAssertNotNil(peer.wait(for: { $0 == "PAIRED" }, timeout: 15), peer.output)
        XCTAssertNotNil(run.out.wait { $0.contains("\"event\": \"encrypted\"") && $0.contains("\"authenticated\": true") }, run.out.all.description)
    }

    func testServeWithoutPairingRefusesACentralThatAsks() throws {
        peer = try ChatPeer(["--io", "none"], script: "central_peer.py")
        let run = try serve(["--no-pairing"])
        peer.type("PAIR")
        XCTAssertNotNil(peer.wait(for: { $0.hasPrefix("PAIRFAIL") }, timeout: 15), peer.output)
        XCTAssertFalse(run.out.all.contains { $0.contains("\"event\": \"encrypted\"") }, run.out.all.description)
    }

    func testServeTakesJustWorksWithoutAQuestion() throws {
        peer = try ChatPeer(["--io", "none"], script: "central_peer.py")
        let run = try serve()
        peer.type("PAIR")
        XCTAssertNotNil(peer.wait(for: { $0 == "PAIRED" }, timeout: 15), peer.output)
        XCTAssertNotNil(run.out.wait { $0.contains("\"event\": \"encrypted\"") && $0.contains("\"authenticated\": false") }, run.out.all.description)
        XCTAssertFalse(run.err.all.contains { $0.contains("pairing:") }, "nothing asked: \(run.err.all)")
    }

    /// An exported file with one advertisement on and one off: `serve` sends the one that is on.
    func testServeSendsOnlyTheAdvertisementsThatAreOn() throws {
        peer = try ChatPeer([], script: "central_peer.py")
        let run = try serve(file: """
            {"format": "favblue-peripheral", "version": 1, "advertisements": [
              {"id": "on", "label": "Lamp", "on": true, "data": {"flags": 6, "name": "Lamp On"}},
              {"id": "off", "label": "Fan", "on": false, "data": {"flags": 6, "name": "Fan Off"}}],
             "server": {"name": "Lab", "services": [{"uuid": "180F"}]}}
            """, name: "Lamp On", connect: false)
        let lines = run.out
        peer.type("SCAN")
        // Several advertising events later, the one that is off has still not been heard.
        XCTAssertNil(peer.wait(for: { $0.contains(Hex.lower(Array("Fan Off".utf8))) }, timeout: 3), peer.output)
        XCTAssertEqual(lines.all.filter { $0.contains("\"event\": \"advertising\"") }.count, 1, lines.all.description)
    }

    func testTheAdapterCommandPrintsItsFactsAsJSON() throws {
        peer = try ChatPeer([], script: "central_peer.py")
        let (status, out, err) = try runTool(scanToolPath, ["adapter", "--json", "--source", "h4-tcp:127.0.0.1:\(peer.port)"])
        XCTAssertEqual(status, 0, err)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any], out)
        XCTAssertEqual(json["route"] as? String, "hci")
        XCTAssertEqual(json["address"] as? String, "00:1B:DC:00:00:05", "Read BD_ADDR")
        XCTAssertEqual(json["maximumAdvertisingLength"] as? Int, 1650)
        XCTAssertEqual((json["features"] as? [String: Bool])?["extended-advertising"], true)
        XCTAssertEqual(json["roles"] as? [String], ["central", "peripheral"])
        XCTAssertNotNil(json["bluetoothVersion"] as? String)
    }

    func testABrokenFileSaysItsLineAndStartsNothing() throws {
        let file = FileManager.default.temporaryDirectory.appending(path: "broken-\(UUID().uuidString).json")
        try "{\n  \"format\": \"favblue-peripheral\",\n  \"version\": 1,\n  \"server\": {\"services\": [{\"uuid\": \"XYZ1\"}]}\n}\n"
            .write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let (status, out, err) = try runTool(scanToolPath, ["serve", file.path, "--source", "btsnoop:/nonexistent"])
        XCTAssertEqual(status, 2)
        XCTAssertEqual(out, "")
        XCTAssertEqual(err, "favblue-scan: \(file.path): Line 4: “XYZ1” is not a UUID (4 or 32 hex digits).\n")
    }
}

/// The lines a process prints, as they come.
final class PrintedLines: @unchecked Sendable {
    private let lock = NSLock()
    private var text = ""

    init(_ pipe: Pipe) {
        pipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            guard let self, !data.isEmpty else { return }
            lock.withLock { text += String(decoding: data, as: UTF8.self) }
        }
    }

    /// The lines printed whole so far; a line handed over in part is not one yet.
    var all: [String] {
        let text = lock.withLock { self.text }
        guard let end = text.lastIndex(of: "\n") else { return [] }
        return text[..<end].split(separator: "\n").map(String.init)
    }

    func wait(timeout: Double = 15, for match: (String) -> Bool) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let line = all.first(where: match) { return line }
            // Polls the process's output, not a fixed wait.
            Thread.sleep(forTimeInterval: 0.05)
        }
        return nil
    }
}
