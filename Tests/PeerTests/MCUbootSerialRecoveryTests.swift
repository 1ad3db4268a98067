// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import DeviceLinks
import Domain
import Foundation
import XCTest

/// MCUboot's serial recovery, with Zephyr's SMP server as its application, on QEMU's emulated
/// Cortex-M3 board (mps2-an385), as PyPI smpclient's source distribution ships it (fetched by
/// meson-helpers/bootstrap). Its console is a pseudo-terminal, reached as a serial line is.
final class QEMUBoard {
    private let process = Process()
    let terminal: String
    static let build = "zephyr_4.4.0_smp_server_0eae053d_mps2_an385_serial_recovery_buf1024"

    static var folder: String {
        (ProcessInfo.processInfo.environment["FAVBLUE_VENV"] ?? Peers.root.appending(path: ".venv-peers").path) + "/smp-server"
    }

    init() throws {
        let hex = "\(Self.folder)/\(Self.build).hex", application = "\(Self.folder)/\(Self.build).signed.bin"
        try Peers.require(FileManager.default.fileExists(atPath: application), "no MCUboot build at \(application): run meson-helpers/bootstrap")
        try Peers.require(FileManager.default.isExecutableFile(atPath: "/usr/bin/qemu-system-arm"), "no qemu-system-arm: run meson-helpers/bootstrap")
        // The manifest's command, with the console on a pseudo-terminal instead of a TCP socket.
        process.executableURL = URL(fileURLWithPath: "/usr/bin/qemu-system-arm")
        process.arguments = ["-cpu", "cortex-m3", "-machine", "mps2-an385", "-nographic", "-chardev", "pty,id=con",
                             "-serial", "chardev:con", "-serial", "null", "-monitor", "none",
                             "-device", "loader,file=\(hex)", "-device", "loader,file=\(application),addr=0x20050000"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        // QEMU names its terminal first: "char device redirected to /dev/pts/N (label con)".
        var said = ""
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, !said.contains("(label con)") {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            said += String(decoding: chunk, as: UTF8.self)
        }
        guard let range = said.range(of: #"/dev/pts/[0-9]+"#, options: .regularExpression) else {
            process.terminate()
            throw PeerError.notReady("qemu-system-arm", said)
        }
        terminal = String(said[range])
    }

    /// Waits until MCUboot answers on its console: QEMU names the terminal before the emulated
    /// board has booted, and on a loaded machine a first request can come before it listens.
    func waitUntilItAnswers(within seconds: Double = 60) async throws {
        let deadline = Date().addingTimeInterval(seconds)
        var last = ""
        while Date() < deadline {
            let client = SMPClient(transport: try SerialSMPTransport(path: terminal), timeout: .seconds(2))
            do {
                _ = try await client.images()
                await client.close()
                return
            } catch {
                last = error.message
                await client.close()
            }
        }
        throw PeerError.notReady("MCUboot's serial recovery", last)
    }

    deinit {
        if process.isRunning {
            // Killed: with its console unread, QEMU may wait on the terminal and never see a SIGTERM.
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// The application's image payload made again as version `version` with imgtool (hash only,
    /// loaded to RAM where this MCUboot loads it), so the bootloader can tell it is newer.
    static func newerImage(version: String) throws -> [UInt8] {
        let signed = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "\(folder)/\(build).signed.bin")))
        let image = try MCUbootImage.read(signed)
        let start = Int(image.headerSize)
        let folder = FileManager.default.temporaryDirectory.appending(path: "mcuboot-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let raw = folder.appending(path: "app.bin"), out = folder.appending(path: "app-\(version).bin")
        try Data(signed[start..<start + Int(image.imageSize)]).write(to: raw)
        let venv = ProcessInfo.processInfo.environment["FAVBLUE_VENV"] ?? Peers.root.appending(path: ".venv-peers").path
        let imgtool = Process()
        imgtool.executableURL = URL(fileURLWithPath: "\(venv)/bin/imgtool")
        imgtool.arguments = ["sign", "--header-size", "0x\(String(image.headerSize, radix: 16))",
                             "--load-addr", "0x\(String(image.loadAddress, radix: 16))", "--version", version,
                             "--slot-size", "0x40000", "--pad-header", raw.path, out.path]
        try imgtool.run()
        imgtool.waitUntilExit()
        guard imgtool.terminationStatus == 0 else { throw PeerError.notReady("imgtool", "exit \(imgtool.terminationStatus)") }
        return try [UInt8](Data(contentsOf: out))
    }
}

/// An update through a bootloader no one here wrote: Update Firmware's steps against MCUboot's
/// serial recovery, which takes no marks and loads the newer of its two images when it restarts.
final class MCUbootSerialRecoveryTests: XCTestCase {
    func testAnUpdateThroughSerialRecoveryRunsTheNewImageAfterTheRestart() async throws {
        let board = try QEMUBoard()
        let bytes = try QEMUBoard.newerImage(version: "1.2.3")
        let image = try MCUbootImage.read(bytes)
        let terminal = board.terminal
        try await board.waitUntilItAnswers()
        let update = FirmwareUpdate(restartTime: .seconds(30)) { () throws(SMPProblem) -> SMPClient in
            SMPClient(transport: try SerialSMPTransport(path: terminal))
        }
        let steps = StepLog()
        try await update.run(bytes, image: image, mode: .testAndConfirm) { steps.add($0) }
        XCTAssertEqual(steps.all.last, .done(version: "1.2.3", running: true), "\(steps.all.suffix(5))")
        XCTAssertTrue(steps.all.contains(.restarting))
        XCTAssertFalse(steps.all.contains(.confirming), "a bootloader that takes no marks is asked to confirm nothing")
        let client = SMPClient(transport: try SerialSMPTransport(path: terminal))
        let slots = try await client.images()
        await client.close()
        let running = try XCTUnwrap(slots.first(where: \.active), "\(slots)")
        XCTAssertEqual(running.version, "1.2.3")
        XCTAssertEqual(running.hash, image.hash)
        withExtendedLifetime(board) {}
    }
}

/// The steps an update told, in order.
private final class StepLog: @unchecked Sendable {
    private let lock = NSLock()
    private var steps: [FirmwareUpdate.Step] = []
    func add(_ step: FirmwareUpdate.Step) { lock.withLock { steps.append(step) } }
    var all: [FirmwareUpdate.Step] { lock.withLock { steps } }
}
