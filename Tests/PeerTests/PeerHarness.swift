// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

@testable import Bluetooth
import Domain
import Foundation
import XCTest

/// Starts the real peers (Bumble, btvirt) the end-to-end tests scan, and stops them.
final class PeerProcess {
    let process = Process()
    private let output = Pipe()

    /// Starts `executable` and waits until it prints a line containing `ready` (or its file appears).
    init(_ executable: String, _ arguments: [String], ready: String = "ready", readyFile: String? = nil,
         timeout: Double = 20) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        var seen = ""
        if let readyFile {
            while !FileManager.default.fileExists(atPath: readyFile) {
                guard Date() < deadline, process.isRunning else { throw PeerError.notReady(executable, seen) }
                // Polls for the peer process's ready file, not a fixed wait.
                Thread.sleep(forTimeInterval: 0.05)
            }
            return
        }
        let handle = output.fileHandleForReading
        while !seen.contains(ready) {
            guard Date() < deadline, process.isRunning else { throw PeerError.notReady(executable, seen) }
            var pfd = pollfd(fd: handle.fileDescriptor, events: Int16(POLLIN), revents: 0)
            if poll(&pfd, 1, 200) > 0 {
                let data = handle.availableData
                if data.isEmpty { break }
                seen += String(decoding: data, as: UTF8.self)
            }
        }
        guard seen.contains(ready) else { throw PeerError.notReady(executable, seen) }
    }

    /// Stops the peer the way a user would (SIGTERM), then for sure.
    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        let deadline = Date().addingTimeInterval(5)
        // Polls for the peer process to exit.
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// Kills the peer at once, as an unplugged adapter would vanish.
    func kill9() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    deinit { stop() }
}

enum PeerError: Error, CustomStringConvertible {
    case notReady(String, String)
    /// The peer ran, and FavBlue's side never reached it.
    case neverConnected(String)
    var description: String {
        switch self {
        case .notReady(let tool, let output): return "\(tool) did not start: \(output)"
        case .neverConnected(let what): return "never connected: \(what)"
        }
    }
}

enum Peers {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The venv python with Bumble; a missing one fails under CI and skips elsewhere.
    static func python() throws -> String {
        let venv = ProcessInfo.processInfo.environment["FAVBLUE_VENV"] ?? root.appending(path: ".venv-peers").path
        let python = venv + "/bin/python"
        try require(FileManager.default.isExecutableFile(atPath: python), "no Bumble venv at \(venv): run meson-helpers/bootstrap")
        return python
    }

    static func require(_ condition: Bool, _ message: String) throws {
        guard !condition else { return }
        if ProcessInfo.processInfo.environment["CI"] == "true" { throw PeerError.notReady("peer", message) }
        throw XCTSkip(message)
    }

    static var script: String { root.appending(path: "Tests/PeerTests/peers/le_peers.py").path }

    /// A TCP port nobody listens on right now.
    static func freePort() -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Int32 in
                _ = bind(fd, pointer, length)
                return getsockname(fd, pointer, &length)
            }
        }
        return UInt16(bigEndian: address.sin_port)
    }

    /// Runs `scanner` for `seconds` and returns what it found and every state it went through.
    static func collect(_ scanner: DeviceScanner, seconds: Double, stopEarly: ((DeviceTable) -> Bool)? = nil) async -> (DeviceTable, [ScannerState]) {
        let box = Collected()
        let observations = Task {
            for await observation in scanner.observations { await box.add(observation) }
        }
        let states = Task {
            for await state in scanner.states { await box.add(state) }
        }
        scanner.start()
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            // Real time on purpose: a scan against a real peer runs for `seconds`.
            try? await Task.sleep(nanoseconds: 100_000_000)
            if let stopEarly, stopEarly(await box.table) { break }
            if case .failed? = await box.states.last { break }
        }
        scanner.stop()
        // Real time on purpose: the scanner's stop reaches the peer's controller.
        try? await Task.sleep(nanoseconds: 300_000_000)
        observations.cancel()
        states.cancel()
        return (await box.table, await box.states)
    }
}

actor Collected {
    var table = DeviceTable()
    var states: [ScannerState] = []
    func add(_ o: Observation) { table.add(o) }
    func add(_ s: ScannerState) { states.append(s) }
}
