// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation
import TestSupport
import XCTest

/// favblue-scan as a user runs it: JSON lines, recording, and errors on stderr.
final class ScanCommandTests: XCTestCase {
    private var tool: String { scanToolPath }

    /// Runs favblue-scan; `asUser` runs `executable` (default: the built tool) as that uid
    /// through setpriv, for a denied permission.
    private func run(_ arguments: [String], asUser uid: Int? = nil, executable: String? = nil) throws -> (Int32, String, String) {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: tool), "build favblue-scan first (swift build)")
        if let uid {
            return try runTool("/usr/bin/setpriv", ["--reuid=\(uid)", "--regid=\(uid)", "--clear-groups", executable ?? tool] + arguments)
        }
        return try runTool(tool, arguments)
    }

    func testJSONHasOneObjectPerDeviceWithTheDocumentedKeys() throws {
        let demo = CaptureTests.root.appending(path: "data/demo.btsnoop").path
        let (status, out, err) = try run(["--source", "btsnoop:\(demo)", "--fast", "--format", "json"])
        XCTAssertEqual(status, 0, err)
        let lines = out.split(separator: "\n")
        XCTAssertGreaterThanOrEqual(lines.count, 20, "a few dozen devices")
        let keys: Set = ["address", "addressType", "transport", "name", "rssi", "rssiMax", "txPower", "company", "companyId",
                         "services", "reports", "firstSeen", "lastSeen", "manufacturerData", "serviceData", "readings", "sensor",
                         "beacon", "addresses"]
        for line in lines {
            let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            XCTAssertEqual(Set(object.keys), keys)
            let address = try XCTUnwrap(object["address"] as? String)
            XCTAssertEqual(address, address.uppercased())
            XCTAssertNotNil(ISO8601DateFormatter.withFractions.date(from: object["firstSeen"] as? String ?? ""))
        }
        XCTAssertTrue(out.contains("\"name\":\"Kitchen Speaker\""))
    }

    func testATruncatedCaptureListsWhatCameBeforeTheCutAndSaysSo() throws {
        let demo = try Data(contentsOf: CaptureTests.root.appending(path: "data/demo.btsnoop"))
        let cut = NSTemporaryDirectory() + "favblue-cut-\(UUID().uuidString).btsnoop"
        defer { try? FileManager.default.removeItem(atPath: cut) }
        try demo.prefix(demo.count / 2 + 3).write(to: URL(fileURLWithPath: cut))
        let (whole, all, _) = try run(["--source", "btsnoop:\(CaptureTests.root.appending(path: "data/demo.btsnoop").path)", "--fast", "--format", "json"])
        let (status, out, err) = try run(["--source", "btsnoop:\(cut)", "--fast", "--format", "json"])
        XCTAssertEqual(whole, 0)
        XCTAssertEqual(status, 3, "devices listed, then the failure")
        XCTAssertTrue(err.contains("middle of a record"), err)
        func reports(_ lines: String) throws -> Int {
            try lines.split(separator: "\n").reduce(0) { sum, line in
                sum + (try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])["reports"] as? Int ?? 0)
            }
        }
        XCTAssertGreaterThan(try reports(out), 0, "what came before the cut is kept")
        XCTAssertLessThan(try reports(out), try reports(all))
    }

    /// --keys: private addresses a key resolves are one device, under its identity. The key and the
    /// first address are the Core spec's sample (Vol 3 Part H Appendix D.7: prand 708194, hash 0DFBAA).
    func testKeysListAResolvedDeviceUnderItsIdentityOnce() throws {
        let ad: [UInt8] = [0x02, 0x01, 0x06, 0x05, 0x09] + Array("Band".utf8)
        let capture = try TickCapture.write(from: [[0x70, 0x81, 0x94, 0x0D, 0xFB, 0xAA], [0x5A, 0x1B, 0x2C, 0x02, 0x81, 0x32],
                                                   [0x70, 0x81, 0x94, 0x0D, 0xFB, 0xAA], [0xC6, 1, 2, 3, 4, 5]],
                                            ad: ad, prefix: "favblue-keys")
        let keys = NSTemporaryDirectory() + "favblue-keys-\(UUID()).txt"
        defer { try? FileManager.default.removeItem(atPath: capture); try? FileManager.default.removeItem(atPath: keys) }
        try "# a band bonded elsewhere\nF0:11:22:33:44:55/le-public EC0234A357C8AD05341010A60A397D9B\n".write(toFile: keys, atomically: true, encoding: .utf8)
        func rows(_ extra: [String]) throws -> [[String: Any]] {
            let (status, out, err) = try run(["--source", "btsnoop:\(capture)", "--fast", "--format", "json"] + extra)
            XCTAssertEqual(status, 0, err)
            return try out.split(separator: "\n").map { try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        }
        XCTAssertEqual(try rows([]).count, 3, "without a key, each private address is a device")
        let resolved = try rows(["--keys", keys])
        XCTAssertEqual(resolved.count, 2)
        let band = try XCTUnwrap(resolved.first { $0["address"] as? String == "F0:11:22:33:44:55" })
        XCTAssertEqual(band["reports"] as? Int, 3, "both private addresses, three reports")
        XCTAssertEqual(band["name"] as? String, "Band")

        try "F0:11:22:33:44:55 not-a-key\n".write(toFile: keys, atomically: true, encoding: .utf8)
        let (status, _, err) = try run(["--source", "btsnoop:\(capture)", "--fast", "--keys", keys])
        XCTAssertNotEqual(status, 0)
        XCTAssertTrue(err.contains("line 1") && err.contains("32 hex digits"), err)
    }

    func testTheTableNeverPassesADevicesControlCharactersToTheTerminal() throws {
        let names = ["Line\nBreak", "Bell\u{07}Ring", "Esc\u{1B}[2JClear", "\u{202E}exe.live", "Plain"]
        let capture = try TickCapture.write(adverts: names.map { [UInt8($0.utf8.count + 1), 0x09] + Array($0.utf8) },
                                            prefix: "favblue-hostile-table")
        defer { try? FileManager.default.removeItem(atPath: capture) }
        let (status, table, err) = try run(["--source", "btsnoop:\(capture)", "--fast", "--format", "table"])
        XCTAssertEqual(status, 0, err)
        let lines = table.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        XCTAssertEqual(lines.count, names.count + 1, "a header and one line per device: \(table)")
        XCTAssertFalse(table.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || $0.value == 0x7F || $0 == "\u{202E}" },
                       "no bell, escape or bidi override reaches the terminal")
        XCTAssertTrue(table.contains("Line\\nBreak") && table.contains("Bell\\x07Ring") && table.contains("Esc\\x1b[2JClear"))
        XCTAssertTrue(table.contains("\\u{202e}exe.live"))

        let (_, json, _) = try run(["--source", "btsnoop:\(capture)", "--fast", "--format", "json"])
        let exact = try json.split(separator: "\n").map {
            try XCTUnwrap(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])["name"] as? String
        }
        XCTAssertEqual(Set(exact.compactMap { $0 }), Set(names), "JSON keeps every name exactly")
    }

    func testAMissingFileIsAnErrorOnStderr() throws {
        let (status, out, err) = try run(["--source", "btsnoop:/nonexistent/x.btsnoop", "--fast", "--format", "json"])
        XCTAssertNotEqual(status, 0)
        XCTAssertTrue(out.isEmpty)
        XCTAssertTrue(err.contains("no readable file"), err)
    }

    func testBadMagicAndUnknownDatalinkAreErrors() throws {
        let dir = NSTemporaryDirectory() + "favblue-cli-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Data("hello world, not a capture".utf8).write(to: URL(fileURLWithPath: dir + "/a"))
        try Data(Array("btsnoop\0".utf8) + [0, 0, 0, 1, 0, 0, 0, 7]).write(to: URL(fileURLWithPath: dir + "/b"))
        let (s1, _, e1) = try run(["--source", "btsnoop:\(dir)/a", "--fast"])
        XCTAssertNotEqual(s1, 0)
        XCTAssertTrue(e1.contains("not a btsnoop capture"), e1)
        let (s2, _, e2) = try run(["--source", "btsnoop:\(dir)/b", "--fast"])
        XCTAssertNotEqual(s2, 0)
        XCTAssertTrue(e2.contains("datalink 7"), e2)
    }

    func testARefusedTransportIsAnError() throws {
        let (status, out, err) = try run(["--source", "h4-unix:/nonexistent/sock", "--duration", "3"])
        XCTAssertNotEqual(status, 0)
        XCTAssertTrue(err.contains("cannot connect"), err)
        XCTAssertTrue(out.isEmpty, "no bare table header when nothing was seen: \(out)")
    }

    func testTheRawHCIPathExplainsWhyItCannotBeUsed() throws {
        // This kernel has no AF_BLUETOOTH; a machine with one but without rights gets EPERM and the setcap advice.
        let (status, out, err) = try run(["--source", "hci0", "--duration", "2"])
        if status == 0 { throw XCTSkip("this machine has a usable hci0") }
        XCTAssertTrue(out.isEmpty, out)
        XCTAssertTrue(err.contains("no Bluetooth support") || err.contains("setcap") || err.contains("No Bluetooth adapter"), err)
        XCTAssertTrue(err.contains(". "), "the failure and its suggestion are separate sentences: \(err)")
    }

    func testADeniedSerialPortSaysSoAndHowToGetAccess() throws {
        try XCTSkipUnless(getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
                          "needs root to lock a port away from another user")
        // A port only root may open, opened as "nobody": the kernel answers EACCES.
        let port = FileManager.default.temporaryDirectory.appending(path: "favblue-locked-\(getpid())").path
        XCTAssertTrue(FileManager.default.createFile(atPath: port, contents: nil, attributes: [.posixPermissions: 0o600]))
        defer { try? FileManager.default.removeItem(atPath: port) }
        // The build folder may be closed to other users: run a copy from a folder anyone may enter.
        let folder = FileManager.default.temporaryDirectory.appending(path: "favblue-scan-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = folder.appending(path: "favblue-scan").path
        try FileManager.default.copyItem(atPath: tool, toPath: copy)
        let (helpStatus, _, helpErr) = try run(["--help"], asUser: 65534, executable: copy)
        try XCTSkipUnless(helpStatus == 0, "favblue-scan cannot run as nobody here: \(helpErr)")
        let (status, out, err) = try run(["--source", "h4-serial:\(port)", "--duration", "2"], asUser: 65534, executable: copy)
        XCTAssertNotEqual(status, 0)
        XCTAssertTrue(out.isEmpty, out)
        XCTAssertTrue(err.contains("Access to the Bluetooth adapter was denied"), err)
        XCTAssertTrue(err.contains("dialout"), "it says how to get access: \(err)")
    }

    func testADeviceThatChangesItsAddressIsOneLineWithItsAddressesAndPerAddressKeepsThemApart() throws {
        let path = try TickCapture.rotatingBandAndTenTags(prefix: "favblue-scan-fold")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (status, out, err) = try run(["--source", "btsnoop:\(path)", "--fast", "--format", "json"])
        XCTAssertEqual(status, 0, err)
        let objects = try out.split(separator: "\n").map { try XCTUnwrap(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        XCTAssertEqual(objects.filter { $0["name"] as? String == "Tag" }.count, 10, "ten identical tags are never merged")
        let bands = objects.filter { $0["name"] as? String == "Band" }
        XCTAssertEqual(bands.count, 1, "one line for the band across its three addresses")
        XCTAssertEqual(bands.first?["addresses"] as? [String], ["4A:10:20:30:40:00", "4A:10:20:30:40:01", "4A:10:20:30:40:02"])
        XCTAssertEqual(bands.first?["reports"] as? Int, 60)
        let (_, raw, _) = try run(["--source", "btsnoop:\(path)", "--fast", "--format", "json", "--per-address"])
        XCTAssertEqual(raw.split(separator: "\n").filter { $0.contains("\"Band\"") }.count, 3, "today's raw view, one line an address")
    }

    func testAnUnknownSourceIsExplained() throws {
        let (status, _, err) = try run(["--source", "carrier-pigeon"])
        XCTAssertEqual(status, 2)
        XCTAssertTrue(err.contains("unknown source"), err)
    }
}

extension ISO8601DateFormatter {
    nonisolated(unsafe) static let withFractions: ISO8601DateFormatter = {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return f
    }()
}
