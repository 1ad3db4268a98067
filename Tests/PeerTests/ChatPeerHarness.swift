// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

@testable import Bluetooth
import Domain
import Foundation
import XCTest

/// Bumble's chat peripheral (peers/chat_peer.py), or another of peers/ (gatt_peer.py), on its
/// own virtual air, exposed over H4/TCP, with every line it prints kept for the test to wait on.
final class ChatPeer: @unchecked Sendable {
    /// The peers' static random addresses, as chat_peer.py gives them.
    static let first = try! DeviceID(parsing: "F0:F1:F2:F3:F4:F5", kind: .leRandom)
    static let second = try! DeviceID(parsing: "F0:F1:F2:F3:F4:F6", kind: .leRandom)

    let port = Peers.freePort()
    private let process = Process()
    private let pipe = Pipe()
    private let input = Pipe()
    private let lock = NSLock()
    private var text = ""

    /// gatt_peer.py's static random address.
    static let gattPeer = try! DeviceID(parsing: "F0:F1:F2:F3:F4:F7", kind: .leRandom)

    /// Starts `script` (of peers/) with `arguments` and waits until it advertises.
    init(_ arguments: [String] = [], script name: String = "chat_peer.py") throws {
        let script = Peers.root.appending(path: "Tests/PeerTests/peers/\(name)").path
        process.executableURL = URL(fileURLWithPath: try Peers.python())
        process.arguments = [script, "--transport", "tcp-server:127.0.0.1:\(port)"] + arguments
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = input
        pipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            guard let self, !data.isEmpty else { return }
            lock.withLock { text += String(decoding: data, as: UTF8.self) }
        }
        try process.run()
        guard wait(for: { $0.hasPrefix("READY") }, timeout: 20) != nil else {
            throw PeerError.notReady(name, output)
        }
    }

    deinit { stop() }

    /// Everything printed so far.
    var output: String { lock.withLock { text } }

    /// The lines printed whole so far: a line the pipe has handed over only in part (say
    /// "PASSKEY " before its digits) is not one yet.
    var lines: [String] {
        let text = output
        guard let end = text.lastIndex(of: "\n") else { return [] }
        return text[..<end].split(separator: "\n").map(String.init)
    }

    /// Waits up to `timeout` seconds for a line matching `match`; returns it, or nil.
    @discardableResult
    func wait(for match: (String) -> Bool, timeout: Double = 10) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let line = lines.first(where: match) { return line }
            // Polls the peer's output, not a fixed wait.
            Thread.sleep(forTimeInterval: 0.05)
        }
        return nil
    }

    /// A fresh host and connector on this peer's exposed controller.
    func connector(record: BtsnoopWriter? = nil, attributes: LocalAttributes = LocalAttributes()) throws -> (HCIHost, HCIConnector) {
        let log: @Sendable (String) -> Void = { line in
            if ProcessInfo.processInfo.environment["FAVBLUE_DEBUG"] != nil { FileHandle.standardError.write(Data((line + "\n").utf8)) }
        }
        let host = HCIHost(transport: try TransportOpener.tcp(host: "127.0.0.1", port: port), record: record, log: log)
        return (host, HCIConnector(host: host, attributes: attributes, log: log))
    }

    /// Types `line` on the peer's keyboard (its stdin), as its user would.
    func type(_ line: String) {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// Ends the peer the way a user would.
    func stop() {
        if process.isRunning {
            // Bumble may sit out SIGTERM; it gets two seconds, then SIGKILL.
            process.terminate()
            let deadline = Date().addingTimeInterval(2)
            // Polls for the peer process to exit.
            while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
        pipe.fileHandleForReading.readabilityHandler = nil
    }

    /// Kills the peer at once, as a controller that vanishes.
    func kill9() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
