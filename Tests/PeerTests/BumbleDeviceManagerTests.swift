// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

@testable import Bluetooth
import Domain
import Foundation
import TestSupport
import XCTest

/// The Device Manager over Bluetooth through FavBlue's own host, against a Zephyr device played
/// by Bumble (peers/smp_device.py): its SMP characteristic found among its services, requests
/// written without response, answers notified, an image uploaded in parts with a window in
/// flight and checked by the device as MCUboot would.
final class BumbleDeviceManagerTests: XCTestCase {
    private let device = try! DeviceID(parsing: "F0:F1:F2:F3:F4:F5", kind: .leRandom)

    /// Connects to the peer and opens the SMP client on its characteristic.
    private func manager(_ peer: ChatPeer) async throws -> (HCIHost, HCIConnector, SMPClient) {
        let (host, connector) = try peer.connector()
        let log = EventLog(connector)
        connector.connect(to: device)
        let state = await log.wait(for: { if case .connected = $0 { return true } else if case .failed = $0 { return true } else { return false } })
        guard case .connected? = state else {
            host.close()
            throw PeerError.neverConnected("\(log.states) \(peer.output)")
        }
        let services = try await connector.discoverServices()
        let opened = try await GATTSMPTransport.open(connector, device: device, services: services)
        let transport = try XCTUnwrap(opened, "the SMP characteristic: \(services.map(\.uuid))")
        return (host, connector, SMPClient(transport: transport))
    }

    /// An MCUboot image made by imgtool, `size` bytes of image at `version`.
    private func image(version: String, size: Int = 60_000) throws -> [UInt8] {
        let folder = FileManager.default.temporaryDirectory.appending(path: "image-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let raw = folder.appending(path: "app.bin"), signed = folder.appending(path: "app.signed.bin")
        try Data((0..<size).map { UInt8(($0 * 13 + 5) % 256) }).write(to: raw)
        let imgtool = URL(fileURLWithPath: try Peers.python()).deletingLastPathComponent().appending(path: "imgtool").path
        let (status, _, err) = try runTool(imgtool, ["sign", "--header-size", "0x200", "--align", "4", "--version", version,
                                                      "--slot-size", "0x80000", "--pad-header", raw.path, signed.path])
        XCTAssertEqual(status, 0, err)
        return Array(try Data(contentsOf: signed))
    }

    /// A folder of the test's own, removed when it ends.
    private func scratch() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appending(path: "cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        return folder
    }

    /// favblue-scan mcumgr on the peer's board, through FavBlue's own host.
    private func mcumgr(_ peer: ChatPeer, _ arguments: String...) throws -> (status: Int32, out: String, err: String) {
        try runTool(scanToolPath, ["mcumgr", "F0:F1:F2:F3:F4:F5/le-random", "--source", "h4-tcp:127.0.0.1:\(peer.port)"] + arguments)
    }

    func testAnImageGoesUpInPartsAndTheDeviceHoldsItInItsSpareSlot() async throws {
        let peer = try ChatPeer(["--buf-size", "512", "--buf-count", "4"], script: "smp_device.py")
        let (host, connector, client) = try await manager(peer)
        defer { host.close() }
        let parameters = try await client.parameters()
        XCTAssertEqual(parameters, SMPParameters(bufferSize: 512, bufferCount: 4))
        let bootloader = try await client.bootloader()
        XCTAssertEqual(bootloader.name, "MCUboot")
        let before = try await client.images()
        XCTAssertEqual(before.map(\.version), ["1.0.0"])
        let bytes = try image(version: "1.2.3")
        let file = try MCUbootImage.read(bytes)
        let seen = ProgressLog()
        try await client.uploadImage(bytes, sha: nil, upgrade: true, parameters: parameters) { seen.add($0) }
        XCTAssertNotNil(peer.wait(for: { $0.hasPrefix("IMAGE ") }), peer.output)
        XCTAssertEqual(seen.all.last?.done, bytes.count)
        let after = try await client.images()
        XCTAssertEqual(after.count, 2)
        XCTAssertEqual(after[1].version, "1.2.3")
        XCTAssertEqual(after[1].hash, file.hash, "the device's hash of the image is the file's")
        _ = try await client.setImage(file.hash, confirm: false)
        XCTAssertNotNil(peer.wait(for: { $0 == "TEST \(Hex.compact(file.hash ?? []).lowercased())" }), peer.output)
        withExtendedLifetime(connector) {}
    }

    func testAnImageNotNewerThanTheOneRunningIsRefusedInWordsInEitherErrorForm() async throws {
        for form in [[], ["--v1-errors"]] {
            let peer = try ChatPeer(form, script: "smp_device.py")
            let (host, connector, client) = try await manager(peer)
            defer { host.close() }
            let bytes = try image(version: "0.9.0", size: 3_000)
            do {
                let parameters = try await client.parameters()
                try await client.uploadImage(bytes, sha: nil, upgrade: true, parameters: parameters) { _ in }
                XCTFail("an older image with upgrade")
            } catch {
                XCTAssertEqual(error.message, form.isEmpty ? "The device refused the image: it is not newer than the one running."
                                                            : "The device is not in a state to do this now.", "\(form)")
            }
            withExtendedLifetime(connector) {}
            peer.stop()
        }
    }

    /// The command line's whole update over Bluetooth in Test and Confirm: the board restarts into
    /// the image, FavBlue connects again, confirms it, and says what runs now.
    func testTheCommandLineUpdatesABoardThroughItsRestart() throws {
        let peer = try ChatPeer([], script: "smp_device.py")
        let folder = try scratch()
        let file = folder.appending(path: "app.signed.bin")
        try Data(try image(version: "3.1.0", size: 8_000)).write(to: file)
        let (status, out, err) = try mcumgr(peer, "image", "upload", file.path)
        XCTAssertEqual(status, 0, err + peer.output)
        XCTAssertTrue(out.hasPrefix("Now running 3.1.0.\n"), out)
        XCTAssertTrue(out.contains("image 0 slot 0: 3.1.0"), out)
        XCTAssertTrue(err.contains("favblue-scan: Restarting the device…\n"), err)
        // Some twenty parts of 512 bytes: a progress line each tenth of the way, not each part.
        let progress = err.split(separator: "\n").filter { $0.hasSuffix("%)") }
        XCTAssertLessThanOrEqual(progress.count, 11, err)
        XCTAssertEqual(progress.last.map(String.init), "favblue-scan: \(try Data(contentsOf: file).count) of \(try Data(contentsOf: file).count) bytes (100 %)")
        XCTAssertTrue(err.contains("favblue-scan: Confirming the image…\n"), err)
        XCTAssertNotNil(peer.wait(for: { $0 == "CONFIRM" }), peer.output)
        XCTAssertNotNil(peer.wait(for: { $0 == "RUNNING 3.1.0" }), peer.output)
    }

    /// An nRF5340's dfu_application.zip on the command line, deflated as the nRF Connect SDK
    /// writes it: each core's image goes to its own number, one restart runs both, both are confirmed.
    func testTheCommandLineUpdatesBothCoresFromAnNRFConnectPackage() throws {
        let peer = try ChatPeer(["--cores", "2"], script: "smp_device.py")
        let folder = try scratch()
        let app = folder.appending(path: "app_update.bin"), net = folder.appending(path: "net_core_app_update.bin")
        try Data(try image(version: "3.2.0", size: 8_000)).write(to: app)
        try Data(try image(version: "1.7.0", size: 5_000)).write(to: net)
        let package = folder.appending(path: "dfu_application.zip")
        let (zipped, _, zipError) = try runTool("/usr/bin/python3", ["-c", """
            import json, sys, zipfile
            with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as z:
                z.writestr("manifest.json", json.dumps({"format-version": 1, "files": [
                    {"image_index": "1", "file": "net_core_app_update.bin"}, {"image_index": "0", "file": "app_update.bin"}]}))
                z.write(sys.argv[2], "net_core_app_update.bin")
                z.write(sys.argv[3], "app_update.bin")
            """, package.path, net.path, app.path])
        XCTAssertEqual(zipped, 0, zipError)
        let (status, out, err) = try mcumgr(peer, "image", "upload", package.path)
        XCTAssertEqual(status, 0, err + peer.output)
        XCTAssertTrue(out.hasPrefix("Now running 3.2.0.\n"), out)
        XCTAssertTrue(out.contains("image 0 slot 0: 3.2.0"), out)
        XCTAssertTrue(out.contains("image 1 slot 0: 1.7.0"), out)
        XCTAssertTrue(err.contains("favblue-scan: image 0: 3.2.0, "), err)
        XCTAssertTrue(err.contains("favblue-scan: image 1: 1.7.0, "), err)
        XCTAssertNotNil(peer.wait(for: { $0 == "RUNNING 1.7.0 image 1" }), peer.output)
        XCTAssertNotNil(peer.wait(for: { $0 == "CONFIRM image 1" }), peer.output)
        XCTAssertTrue(peer.output.contains("CONFIRM\n"), peer.output)
    }

    /// The command line over Bluetooth: image-checked before any byte is sent, uploaded, then marked.
    func testTheCommandLineUploadsAnImageOverBluetoothAndMarksItForATest() throws {
        let peer = try ChatPeer([], script: "smp_device.py")
        let folder = try scratch()
        let file = folder.appending(path: "app.signed.bin")
        try Data(try image(version: "2.0.0", size: 8_000)).write(to: file)
        let (status, out, err) = try mcumgr(peer, "image", "upload", file.path, "--mode", "test-only")
        XCTAssertEqual(status, 0, err)
        XCTAssertTrue(err.hasPrefix("favblue-scan: 2.0.0, "), err)
        XCTAssertTrue(out.hasPrefix("2.0.0 runs after the next restart (reset).\n"), out)
        XCTAssertTrue(out.contains("image 0 slot 1: 2.0.0"), out)
        XCTAssertTrue(out.contains("will run once after a restart"), out)
        XCTAssertNotNil(peer.wait(for: { $0.hasPrefix("TEST ") }), peer.output)
        XCTAssertNotNil(peer.wait(for: { $0 == "LONGEST_WRITE 244" }), "writes fill ATT_MTU − 3 (247 − 3): \(peer.output)")
        XCTAssertTrue(err.contains(" bytes in "), "the upload's time and rate: \(err)")
        let notAnImage = folder.appending(path: "notes.txt")
        try Data("not an image, but long enough to have a header of its own".utf8).write(to: notAnImage)
        let (refused, _, why) = try mcumgr(peer, "image", "upload", notAnImage.path)
        XCTAssertEqual(refused, 2)
        XCTAssertEqual(why, "favblue-scan: This is not an MCUboot image: it does not start with MCUboot's magic number.\n")
    }
}
