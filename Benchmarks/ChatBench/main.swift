// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

// Chat benchmark (release build) through FavBlue's own HCI host against Bumble's chat peer,
// a virtual LE controller on a local TCP port (Tests/PeerTests/peers/chat_peer.py):
//   1. Connect to subscribed: from `connect(to:)` to `.connected(device, service: .chat)`,
//      which is reported only after the CCCD write; CONNECTS connections on one host,
//      each ended before the next, min/median/max; split at LE Connection Complete into the
//      link (Bumble completes it on the peer's next advertisement, every 20 ms here) and
//      FavBlue's MTU exchange, discovery and subscription;
//   2. round trip: send "msg N", wait for the peer's "echo: msg N"; MESSAGES messages one
//      after another, p50/p95/max and messages per second; then MESSAGES sends back to back
//      with the echoes gathered as they come.
//
//   ChatBench [CONNECTS [MESSAGES]]       defaults 10 and 1000
//
// The peer runs in the Bumble venv at $FAVBLUE_VENV, else .venv-peers in the package root.
// FAVBLUE_DEBUG=1 prints the connector's log, timed, on stderr.
// Bumble's air has no radio timing: the figures are FavBlue's stack plus Bumble's Python.

import Bluetooth
import Domain
import Foundation

typealias Events = Feed<ConnectionEvent>.AsyncIterator

extension Duration {
    var milliseconds: Double { Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15 }
}

/// The nearest-rank percentile `p` (0…1) of `values`.
func percentile(_ values: [Double], _ p: Double) -> Double {
    let sorted = values.sorted()
    return sorted[max(0, Int((p * Double(sorted.count)).rounded(.up)) - 1)]
}

/// Reads events until a state matching `match` arrives; a failure ends the run.
func waitForState(_ events: inout Events, _ match: (ConnectionState) -> Bool) async throws {
    while let event = await events.next() {
        guard case .state(let state) = event else { continue }
        if match(state) { return }
        if case .failed(let failure) = state { throw BenchError.connection("connection failed: \(failure.message)") }
    }
    throw BenchError.connection("the event stream ended")
}

/// Reads events until the echo of `text` arrives; anything else received ends the run.
func waitForEcho(of text: String, _ events: inout Events) async throws {
    while let event = await events.next() {
        switch event {
        case .received(let message):
            guard message.body == .text("echo: " + text) else { throw BenchError.connection("unexpected message \(message.body)") }
            return
        case .state(let state):
            if case .failed(let failure) = state { throw BenchError.connection("connection failed: \(failure.message)") }
        case .services, .notified, .signal, .servicesChanged, .retrying, .unanswered:
            continue
        }
    }
    throw BenchError.connection("the event stream ended")
}

func isConnectedToChat(_ state: ConnectionState) -> Bool { state == .connected(ChatPeerProcess.address, service: .chat) }

func run(connects: Int, messages: Int, peer: ChatPeerProcess, watchdog: Watchdog) async throws {
    let clock = ContinuousClock()
    let t0 = Date()
    let debug = ProcessInfo.processInfo.environment["FAVBLUE_DEBUG"] != nil
    let log: @Sendable (String) -> Void = { line in
        guard debug else { return }
        FileHandle.standardError.write(Data(String(format: "%8.1f ms %@\n", Date().timeIntervalSince(t0) * 1000, line).utf8))
    }
    let linkTimer = LinkTimer()
    let host = HCIHost(transport: try TransportOpener.tcp(host: "127.0.0.1", port: peer.port), record: linkTimer, log: log)
    let connector = HCIConnector(host: host, log: log)
    defer { host.close() }

    // 1. Connect to subscribed. The last connection stays for the chat.
    var times: [Double] = []
    var links: [Double] = []
    var setups: [Double] = []
    var events = connector.events.makeAsyncIterator()
    for round in 0..<connects {
        if round > 0 {
            connector.disconnect()
            watchdog.arm("disconnection \(round)", seconds: 15)
            try await waitForState(&events) { $0 == .idle }
            // Not timed: Bumble restarts advertising once it hears the disconnection.
            try await Task.sleep(for: .milliseconds(100))
        }
        watchdog.arm("connection \(round + 1)", seconds: 30)
        let start = clock.now
        connector.connect(to: ChatPeerProcess.address)
        try await waitForState(&events, isConnectedToChat)
        let end = clock.now
        guard let linked = linkTimer.connected, linked > start else { throw BenchError.connection("no LE Connection Complete seen") }
        times.append((end - start).milliseconds)
        links.append((linked - start).milliseconds)
        setups.append((end - linked).milliseconds)
        // The list of services follows `connected` on the worker; wait so it delays no send.
        while let event = await events.next() {
            if case .services = event { break }
        }
    }
    func summary(_ values: [Double]) -> String {
        String(format: "min %.1f ms, median %.1f ms, max %.1f ms", values.min()!, percentile(values, 0.5), values.max()!)
    }
    print("connect to subscribed, \(connects) connections: \(summary(times))"
          + String(format: " (first %.1f ms, with reading the controller)", times[0]))
    print("  of which the link, up to LE Connection Complete: \(summary(links))")
    print("  of which MTU, discovery and subscription: \(summary(setups))")

    // 2. Round trips, after a few untimed ones.
    for n in 0..<20 {
        watchdog.arm("warm-up message \(n)", seconds: 30)
        try await connector.send("warm \(n)")
        try await waitForEcho(of: "warm \(n)", &events)
    }
    var trips: [Double] = []
    let loopStart = clock.now
    for n in 0..<messages {
        watchdog.arm("echo of msg \(n)", seconds: 30)
        let start = clock.now
        try await connector.send("msg \(n)")
        try await waitForEcho(of: "msg \(n)", &events)
        trips.append((clock.now - start).milliseconds)
    }
    let loop = (clock.now - loopStart).milliseconds
    print(String(format: "round trip, %d messages one after another: p50 %.2f ms, p95 %.2f ms, max %.2f ms; %.0f messages/s",
                 messages, percentile(trips, 0.5), percentile(trips, 0.95), trips.max()!, Double(messages) / loop * 1000))

    // Back to back: each send still waits for its Write Response, but not for the echo.
    watchdog.arm("back-to-back messages", seconds: 120)
    let burstStart = clock.now
    for n in 0..<messages { try await connector.send("burst \(n)") }
    for n in 0..<messages { try await waitForEcho(of: "burst \(n)", &events) }
    let burst = (clock.now - burstStart).milliseconds
    print(String(format: "back to back, %d messages: last echo after %.0f ms; %.0f messages/s",
                 messages, burst, Double(messages) / burst * 1000))
    watchdog.disarm()
    connector.disconnect()
}

let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let connects = max(1, arguments.first ?? 10)
let messages = max(1, arguments.dropFirst().first ?? 1000)
do {
    let peer = try ChatPeerProcess(["--service", "chat", "--advertising-interval", "20"])
    let watchdog = Watchdog { what in
        FileHandle.standardError.write(Data("timed out waiting for \(what)\n\(peer.output)\n".utf8))
        peer.stop()
        exit(1)
    }
    print("peer: chat_peer.py on 127.0.0.1:\(peer.port), service chat, advertising every 20 ms")
    do {
        try await run(connects: connects, messages: messages, peer: peer, watchdog: watchdog)
    } catch {
        FileHandle.standardError.write(Data("\(error)\n\(peer.output)\n".utf8))
        peer.stop()
        exit(1)
    }
    peer.stop()
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(1)
}
