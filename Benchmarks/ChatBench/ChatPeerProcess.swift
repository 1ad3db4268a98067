// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation

/// Bumble's chat peripheral (Tests/PeerTests/peers/chat_peer.py) on a local TCP port.
/// Its output goes to a temporary file rather than a pipe, so no reader thread competes
/// with the figures and the peer never blocks on a full pipe.
final class ChatPeerProcess: @unchecked Sendable {
    /// The peer's static random address, as chat_peer.py gives it.
    static let address = try! DeviceID(parsing: "F0:F1:F2:F3:F4:F5", kind: .leRandom)

    /// The package root: this file sits in Benchmarks/ChatBench.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The TCP port its virtual controller listens on.
    let port = freePort()
    private let process = Process()
    private let outputPath = NSTemporaryDirectory() + "favblue-chat-peer-\(UUID().uuidString).log"

    /// Starts chat_peer.py with `arguments` and waits until it advertises.
    init(_ arguments: [String]) throws {
        let venv = ProcessInfo.processInfo.environment["FAVBLUE_VENV"] ?? Self.root.appending(path: ".venv-peers").path
        let python = venv + "/bin/python"
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw BenchError.setup("no Bumble venv at \(venv) (set FAVBLUE_VENV or run meson-helpers/bootstrap)")
        }
        let script = Self.root.appending(path: "Tests/PeerTests/peers/chat_peer.py").path
        guard FileManager.default.fileExists(atPath: script) else { throw BenchError.setup("no peer script at \(script)") }
        guard FileManager.default.createFile(atPath: outputPath, contents: nil),
              let output = FileHandle(forWritingAtPath: outputPath) else {
            throw BenchError.setup("cannot write the peer's log at \(outputPath)")
        }
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [script, "--transport", "tcp-server:127.0.0.1:\(port)"] + arguments
        process.standardOutput = output
        process.standardError = output
        try process.run()
        guard wait(forLineStarting: "READY", timeout: 30) else {
            stop()
            throw BenchError.setup("chat_peer.py did not start: \(self.output)")
        }
    }

    deinit { stop() }

    /// Everything the peer printed so far.
    var output: String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }

    /// Polls the output for a line starting with `prefix`; says whether one came in time.
    func wait(forLineStarting prefix: String, timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline, process.isRunning {
            if output.split(separator: "\n").contains(where: { $0.hasPrefix(prefix) }) { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return false
    }

    /// SIGTERM, then SIGKILL after two seconds (Bumble may sit out SIGTERM); removes the log.
    func stop() {
        if process.isRunning {
            process.terminate()
            let deadline = Date().addingTimeInterval(2)
            while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(atPath: outputPath)
    }

    /// A TCP port nobody listens on right now: the kernel picks one for a socket bound to port 0.
    private static func freePort() -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Int32 in
                _ = bind(fd, pointer, length)
                return getsockname(fd, pointer, &length)
            }
        }
        return UInt16(bigEndian: address.sin_port)
    }
}

/// Why the benchmark stopped.
enum BenchError: Error, CustomStringConvertible {
    case setup(String)
    case connection(String)

    var description: String {
        switch self {
        case .setup(let detail), .connection(let detail): return detail
        }
    }
}
