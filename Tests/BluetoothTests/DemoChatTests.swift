// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

@testable import Bluetooth
import Domain
import Foundation
import TestSupport
import XCTest

/// The `demo` source without hardware: its scanner lists "FavBlue Demo Chat" next to the
/// replayed devices, and its connector connects to that device alone, which answers each line.
final class DemoChatTests: XCTestCase {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    private static let demoCapture = root.appending(path: "data/demo.btsnoop").path
    private let other = try! DeviceID(parsing: "F0:F1:F2:F3:F4:F5", kind: .leRandom)

    // MARK: Scanner

    /// Everything a scanner reports until its streams end (a replay that ran out) or `seconds` pass.
    private func collect(_ scanner: DeviceScanner, seconds: Double = 30) async -> [Observation] {
        let stream = scanner.observations
        let task = Task {
            var seen: [Observation] = []
            for await observation in stream { seen.append(observation) }
            return seen
        }
        scanner.start()
        // A bound, not a wait: a replay that runs out ends the stream long before.
        let timeout = Task {
            try? await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
            task.cancel()
        }
        let seen = await task.value
        timeout.cancel()
        return seen
    }

    func testTheDemoScannerListsTheChatDeviceWithItsNameAndServiceAlongsideTheReplaysDevices() async throws {
        let scanner = ScannerFactory.make(.demo, demoCapture: Self.demoCapture, fast: true)
        let seen = await collect(scanner)
        let demo = try XCTUnwrap(seen.first { $0.id == DemoChatDevice.id }, "the demo device is heard")
        XCTAssertEqual(demo.name, "FavBlue Demo Chat")
        XCTAssertEqual(demo.id.address, "C0:FA:B1:0E:DE:01")
        XCTAssertEqual(demo.id.kind, .leRandom)
        XCTAssertEqual(demo.services.map(\.uuid), [ChatService.chat.uuid])
        XCTAssertEqual(demo.services.first?.name, "FavBlue Chat", "named from the service table like any advert")
        XCTAssertEqual(demo.connectable, true)
        XCTAssertEqual(demo.flags, 0x06)
        XCTAssertFalse(demo.isScanResponse)
        let rssi = try XCTUnwrap(demo.rssi)
        XCTAssertTrue((-55...(-49)).contains(rssi), "\(rssi) dBm")
        XCTAssertEqual(ADParser.parse(demo.rawData).name, "FavBlue Demo Chat", "the name is in the advertised bytes")
        XCTAssertEqual(seen.first?.id, DemoChatDevice.id, "heard as soon as the scan starts, even in a fast replay")
        let replayed = Set(seen.map(\.id)).subtracting([DemoChatDevice.id])
        XCTAssertGreaterThan(replayed.count, 5, "the capture's devices are listed too")
    }

    func testABtsnoopReplayStaysExactWithoutTheDemoDevice() async {
        let scanner = ScannerFactory.make(.btsnoop(path: Self.demoCapture), demoCapture: nil, fast: true)
        XCTAssertTrue(scanner is ReplayScanner)
        let seen = await collect(scanner)
        XCTAssertFalse(seen.isEmpty)
        XCTAssertFalse(seen.contains { $0.id == DemoChatDevice.id })
        let (table, _) = ReplayScanner(path: Self.demoCapture, realTime: false).table()
        XCTAssertEqual(seen.count, table.devices.values.reduce(0) { $0 + $1.reports }, "every report, and no other")
    }

    func testTheDemoDeviceAdvertisesAboutOnceASecondAndFallsSilentWhenTheScanStops() async throws {
        let path = try capture(at: [0, 6, 7])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let scanner = DemoScanner(capture: path, realTime: true)
        let demo = DemoCounter(scanner)
        var states = scanner.states.makeAsyncIterator()
        scanner.start()
        while let state = await states.next(), state != .scanning {}
        // Real time on purpose: the demo device's advertising rate in the real-time replay is what is tested.
        try await Task.sleep(nanoseconds: 2_500_000_000)
        let heard = demo.count
        XCTAssertTrue((2...4).contains(heard), "heard \(heard) times in 2.5 s")
        scanner.stop()
        var end: ScannerState?
        while let state = await states.next() {
            end = state
            if state != .scanning { break }
        }
        XCTAssertEqual(end, .paused)
        let atStop = demo.count
        // Real time on purpose: silence over a second and a half of the real-time replay.
        try await Task.sleep(nanoseconds: 1_500_000_000)
        XCTAssertEqual(demo.count, atStop, "silent while paused")

        scanner.start()
        while let state = await states.next(), state != .scanning {}
        // Real time on purpose: heard again within the first advertising interval.
        try await Task.sleep(nanoseconds: 300_000_000)
        XCTAssertGreaterThan(demo.count, atStop, "heard again as soon as scanning resumes")
        scanner.stop()
    }

    func testTheDemoDeviceStaysListedAndConnectableAfterTheCaptureHasPlayedOut() async throws {
        let path = try capture(at: [0, 0.3])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let clock = WallClock(Date())
        let live = await MainActor.run {
            LiveDevices(makeScanner: { _ in ScannerFactory.make(.demo, demoCapture: path) }, sightings: nil,
                        refreshesPerSecond: 50, now: { clock.now })
        }
        await MainActor.run { live.start(mode: .continuous) }
        let playedOut = await playOut(live, timeout: 10)
        XCTAssertTrue(playedOut)
        await MainActor.run {
            XCTAssertEqual(live.state, .finished, "the scanner says the capture has played out")
            live.tick()
            XCTAssertEqual(live[DemoChatDevice.id]?.advertised.name, "FavBlue Demo Chat")
            // An hour on, a live scan would have dropped it; a finished replay keeps what it heard.
            clock.advance(3600)
            live.tick()
            XCTAssertNotNil(live[DemoChatDevice.id], "still listed")
            live.stop()
        }

        let connector = ConnectorFactory.make(.demo, link: nil)
        let log = EventLog(connector)
        connector.connect(to: DemoChatDevice.id)
        await log.wait { $0.states.contains(.connected(DemoChatDevice.id, service: .chat)) }
        XCTAssertEqual(connector.state, .connected(DemoChatDevice.id, service: .chat))
        connector.disconnect()
    }

    // MARK: Connector

    func testConnectingToTheDemoDeviceReachesConnectedWithChatThenListsItsServices() async {
        let connector = ConnectorFactory.make(.demo, link: nil)
        XCTAssertTrue(connector is DemoChatConnector)
        let log = EventLog(connector)
        connector.connect(to: DemoChatDevice.id)
        XCTAssertEqual(connector.state, .connecting(DemoChatDevice.id), "connecting at once")
        await log.wait { $0.services != nil }
        XCTAssertEqual(log.states, [.idle, .connecting(DemoChatDevice.id), .connected(DemoChatDevice.id, service: .chat)])
        XCTAssertEqual(log.services?.map(\.uuid), ["1800", "180A", ChatService.chat.uuid])
        XCTAssertEqual(log.services?.map(\.name), ["Generic Access", "Device Information", "FavBlue Chat"])
        XCTAssertTrue(connector.state.canChat)
        // The browser finds the same services, with values to read.
        let tree = try? await connector.discoverServices()
        XCTAssertEqual(tree?.map(\.uuid), log.services?.map(\.id))
        XCTAssertEqual(tree?.last?.characteristics.map(\.name), ["FavBlue Chat TX", "FavBlue Chat RX"])
        let name = try? await connector.readValue(at: 3)
        XCTAssertEqual(name.map { String(decoding: $0, as: UTF8.self) }, DemoChatDevice.name)
    }

    /// The demo's board is named as a real one is once discovered: "SMP Service" and
    /// "SMP Characteristic", not "Unknown" (it read so, with Name… offered, where a board did not).
    func testTheDemoBoardsServicesAreNamedAsARealBoardsAre() async {
        let connector = ConnectorFactory.make(.demo, link: nil)
        let log = EventLog(connector)
        connector.connect(to: DemoBoard.id)
        await log.wait { $0.services != nil }
        let tree = try? await connector.discoverServices()
        XCTAssertEqual(tree?.map(\.name), ["Generic Access", "SMP Service"])
        XCTAssertEqual(tree?.last?.characteristics.map(\.name), ["SMP Characteristic"])
        XCTAssertEqual(tree?.last?.characteristics.first?.name, AttributeNames.characteristic(GATTSMPTransport.characteristic),
                       "as FavBlue's own host names it")
    }

    func testEachLineSentIsAnsweredByTheDemoDevice() async throws {
        let (connector, log) = await connected()
        let sent = Date()
        try await connector.send("hello")
        await log.wait { !$0.received.isEmpty }
        let reply = try XCTUnwrap(log.received.first)
        XCTAssertEqual(reply.body, .text("You said: hello"))
        XCTAssertEqual(reply.direction, .incoming)
        XCTAssertEqual(reply.delivery, .sent)
        XCTAssertEqual(reply.device, DemoChatDevice.id)
        XCTAssertGreaterThan(reply.time.timeIntervalSince(sent), 0.2, "a moment later, as from a device")

        try await connector.send("one\ntwo")
        try await connector.send("  ")
        await log.wait { $0.received.count >= 4 }
        XCTAssertEqual(log.received.map(\.body), [.text("You said: hello"), .text("You said: one"), .text("You said: two"),
                                                  .text("That message was empty.")])
    }

    func testConnectingToAnotherDeviceFailsAtOnceSayingWhy() async throws {
        let connector = DemoChatConnector()
        connector.connect(to: other)
        let expected = "In the demo, only “FavBlue Demo Chat” and “FavBlue Demo Board” can be connected."
        XCTAssertEqual(connector.state, .failed(.notSupported(expected)))
        XCTAssertEqual(connector.state.summary, expected)
        do {
            try await connector.send("hello")
            XCTFail("nothing to send to")
        } catch {
            XCTAssertEqual(error, .notConnected)
        }
        // Real time on purpose: the demo connector would have connected within this.
        try await Task.sleep(nanoseconds: 800_000_000)
        XCTAssertEqual(connector.state, .failed(.notSupported(expected)), "and stays failed")
    }

    func testConnectingElsewhereEndsTheDemoConnectionFirst() async {
        let (connector, log) = await connected()
        connector.connect(to: other)
        await log.wait { if case .failed = $0.states.last { true } else { false } }
        XCTAssertEqual(Array(log.states.suffix(3)), [.disconnecting(DemoChatDevice.id), .idle,
                                                     .failed(.notSupported("In the demo, only “FavBlue Demo Chat” and “FavBlue Demo Board” can be connected."))])
    }

    func testDisconnectGoesToIdleAndDropsRepliesStillOnTheWay() async throws {
        let (connector, log) = await connected()
        try await connector.send("hello")
        connector.disconnect()
        XCTAssertEqual(connector.state, .disconnecting(DemoChatDevice.id))
        await log.wait { $0.states.last == .idle }
        XCTAssertEqual(Array(log.states.suffix(2)), [.disconnecting(DemoChatDevice.id), .idle])
        // Real time on purpose: longer than the demo device takes to reply.
        try await Task.sleep(nanoseconds: 600_000_000)
        XCTAssertTrue(log.received.isEmpty, "no reply after the connection ended")
        do {
            try await connector.send("anyone?")
            XCTFail("not connected any more")
        } catch {
            XCTAssertEqual(error, .notConnected)
        }
    }

    func testCancelWhileConnectingGoesToIdleAndStaysThere() async throws {
        let connector = DemoChatConnector()
        let log = EventLog(connector)
        connector.connect(to: DemoChatDevice.id)
        // Real time on purpose: cancel part-way through the demo's half-second connection, then
        // wait past the moment it would have completed.
        try await Task.sleep(nanoseconds: 200_000_000)
        connector.cancel()
        XCTAssertEqual(connector.state, .idle)
        // Past the moment the given-up connection would have completed.
        try await Task.sleep(nanoseconds: 800_000_000)
        XCTAssertEqual(connector.state, .idle, "the connection given up does not come back")
        XCTAssertEqual(log.states, [.idle, .connecting(DemoChatDevice.id), .idle])
        XCTAssertNil(log.services)
    }

    // MARK: Helpers

    private func connected() async -> (DemoChatConnector, EventLog) {
        let connector = DemoChatConnector()
        let log = EventLog(connector)
        connector.connect(to: DemoChatDevice.id)
        await log.wait { $0.states.contains(.connected(DemoChatDevice.id, service: .chat)) }
        XCTAssertEqual(connector.state, .connected(DemoChatDevice.id, service: .chat))
        return (connector, log)
    }

    private func capture(at seconds: [Double]) throws -> String {
        try TickCapture.write(at: seconds, prefix: "demo")
    }
}


/// Counts the demo device's advertisements a scanner reports.
private final class DemoCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var heard = 0
    private var task: Task<Void, Never>?

    init(_ scanner: DeviceScanner) {
        let stream = scanner.observations
        task = Task { [weak self] in
            for await observation in stream where observation.id == DemoChatDevice.id {
                self?.lock.withLock { self?.heard += 1 }
            }
        }
    }

    deinit { task?.cancel() }

    var count: Int { lock.withLock { heard } }
}
