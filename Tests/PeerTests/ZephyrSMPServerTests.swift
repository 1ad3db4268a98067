// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import DeviceLinks
import Domain
import Foundation
import TestSupport
import XCTest

/// Zephyr's own SMP server (smp_svr for native_sim, from PyPI smpclient's source distribution,
/// fetched by meson-helpers/bootstrap) on UDP port 1337, one at a time (a lock file), each in a
/// folder of its own so its flash starts empty.
final class ZephyrSMPServer {
    private let process = Process()
    private let lock: Int32
    let folder: URL

    init(build: String = "native_sim_udp") throws {
        let venv = ProcessInfo.processInfo.environment["FAVBLUE_VENV"] ?? Peers.root.appending(path: ".venv-peers").path
        let exe = "\(venv)/smp-server/zephyr_4.4.0_smp_server_0eae053d_\(build).exe"
        try Peers.require(FileManager.default.isExecutableFile(atPath: exe), "no Zephyr SMP server at \(exe): run meson-helpers/bootstrap")
        // The port is fixed: two tests at once (the two shards) would meet on it.
        lock = open("/tmp/favblue-smp-udp.lock", O_CREAT | O_RDWR, 0o600)
        flock(lock, LOCK_EX)
        folder = FileManager.default.temporaryDirectory.appending(path: "smp-server-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let log = folder.appending(path: "log")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        process.executableURL = URL(fileURLWithPath: exe)
        process.currentDirectoryURL = folder
        process.standardOutput = try FileHandle(forWritingTo: log)
        process.standardError = process.standardOutput
        try process.run()
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if (try? String(contentsOf: log, encoding: .utf8))?.contains("Started") == true { return }
            // Polls the server's log for its start.
            Thread.sleep(forTimeInterval: 0.02)
        }
        throw PeerError.notReady("smp_svr", (try? String(contentsOf: log, encoding: .utf8)) ?? "")
    }

    deinit {
        if process.isRunning {
            // native_sim takes SIGTERM as a signal to its simulated board, and goes on.
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: folder)
        flock(lock, LOCK_UN)
        close(lock)
    }
}

/// The Device Manager's client against a device no one here wrote: echo, parameters,
/// statistics, the shell and files, over UDP.
final class ZephyrSMPServerTests: XCTestCase {
    private func client() throws -> (ZephyrSMPServer, SMPClient) {
        let server = try ZephyrSMPServer()
        return (server, SMPClient(transport: try UDPSMPTransport(host: "127.0.0.1")))
    }

    /// The UDP reader is listed under its own name (a name given to a Thread before its start
    /// never reached the kernel, and it was listed as the test program).
    func testTheUDPReaderCarriesItsName() async throws {
        let (server, client) = try client()
        _ = try await client.parameters()
        XCTAssertTrue(untilAsleep(threadNamed: "favblue-smp-udp"), "a thread named favblue-smp-udp waits for datagrams")
        await client.close()
        withExtendedLifetime(server) {}
    }

    func testEchoParametersAndStatisticsAsTheDeviceSaysThem() async throws {
        let (server, client) = try client()
        let (text, time) = try await client.echo("Grüße <b>")
        XCTAssertEqual(text, "Grüße <b>")
        XCTAssertLessThan(time, .seconds(1))
        let parameters = try await client.parameters()
        XCTAssertEqual(parameters, SMPParameters(bufferSize: 2048, bufferCount: 2), "smp_svr's udp build, as its manifest says")
        let groups = try await client.statisticsGroups()
        XCTAssertTrue(groups.contains("smp_svr_stats"), "\(groups)")
        let fields = try await client.statistics("smp_svr_stats")
        XCTAssertEqual(fields.map(\.name), ["ticks"])
        await client.close()
        withExtendedLifetime(server) {}
    }

    func testTheShellRunsACommandAndAnUnknownGroupIsSaidInWords() async throws {
        let (server, client) = try client()
        let (output, code) = try await client.shell(["kernel", "uptime"])
        XCTAssertEqual(code, 0)
        XCTAssertTrue(output.contains("Uptime: "), output)
        do {
            _ = try await client.images()
            XCTFail("this build has no image group")
        } catch {
            XCTAssertEqual(error.message, "The device does not offer this.")
        }
        do {
            _ = try await client.statistics("no_such_group")
            XCTFail("no such group")
        } catch {
            XCTAssertTrue(error.message.hasPrefix("The device"), error.message)
        }
        await client.close()
        withExtendedLifetime(server) {}
    }

    /// A file goes up in parts that fill the device's buffer and comes back the same; a file the
    /// device lacks is said in words.
    func testAFileGoesUpInPartsAndComesBackTheSame() async throws {
        let (server, client) = try client()
        let data = (0..<5_000).map { UInt8(($0 * 7 + 3) % 251) }
        let parameters = try await client.parameters()
        let seen = ProgressLog()
        try await client.uploadFile(data, to: "/lfs1/favblue.bin", parameters: parameters) { seen.add($0) }
        XCTAssertEqual(seen.all.first, TransferProgress(done: 0, total: 5_000, preparing: true))
        XCTAssertEqual(seen.all.last, TransferProgress(done: 5_000, total: 5_000, preparing: false))
        XCTAssertGreaterThanOrEqual(seen.all.count, 5, "4 parts of at most 1,472 bytes a datagram: \(seen.all)")
        let back = try await client.downloadFile("/lfs1/favblue.bin") { _ in }
        XCTAssertEqual(back, data)
        do {
            _ = try await client.downloadFile("/lfs1/none") { _ in }
            XCTFail("no such file")
        } catch {
            XCTAssertEqual(error.message, "The device has no such file.")
        }
        await client.close()
        withExtendedLifetime(server) {}
    }

    /// The command line against the same server: words, JSON, and an exit code for a refusal.
    func testTheCommandLineSaysWhatTheDeviceAnswers() throws {
        let server = try ZephyrSMPServer()
        let (status, out, _) = try runTool(scanToolPath, ["mcumgr", "udp:127.0.0.1", "params", "--json"])
        XCTAssertEqual(status, 0)
        XCTAssertEqual(out, "{\n  \"bufferSize\": 2048,\n  \"bufferCount\": 2\n}\n")
        let (refused, _, err) = try runTool(scanToolPath, ["mcumgr", "udp:127.0.0.1", "image", "list"])
        XCTAssertEqual(refused, 1, "the device refused")
        XCTAssertEqual(err, "favblue-scan: The device does not offer this.\n")
        let (unreachable, _, why) = try runTool(scanToolPath, ["mcumgr", "udp:127.0.0.1:9", "echo", "hi", "--timeout", "0.3"])
        XCTAssertEqual(unreachable, 3, why)
        withExtendedLifetime(server) {}
    }
}

/// Progress reports, as they came.
final class ProgressLog: @unchecked Sendable {
    private let lock = NSLock()
    private var seen: [TransferProgress] = []
    func add(_ p: TransferProgress) { lock.withLock { seen.append(p) } }
    var all: [TransferProgress] { lock.withLock { seen } }
}
