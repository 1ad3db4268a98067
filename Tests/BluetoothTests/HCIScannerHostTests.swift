// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

@testable import Bluetooth
import Domain
import Foundation
import XCTest

/// The scanner as one client of a shared host, beside another, against a scripted LE-only controller.
final class HCIScannerHostTests: XCTestCase {
    /// Answers every command with success; LMP features say "LE, no BR/EDR" (Core v5.4, Vol 2,
    /// Part C, §3.3), LE features say legacy scanning only. Once scanning is on, it sends one report.
    private static func runController(_ link: FileDescriptorTransport) {
        let report: [UInt8] = [0x3E, 20, 0x02, 1, 0x00, 0x00, 1, 2, 3, 4, 5, 6, 8, 0x07, 0x09] + Array("Shared".utf8) + [0xC0]
        while let (type, bytes) = try? link.receive(timeout: 10) {
            guard type == .command, bytes.count >= 3 else { continue }
            let opcode = UInt16(bytes[0]) | UInt16(bytes[1]) << 8
            var parameters: [UInt8] = [0]
            if opcode == HCICommand.readLocalFeaturesOp { parameters += [0, 0, 0, 0, 0x60, 0, 0, 0] }
            if opcode == HCICommand.leReadLocalFeaturesOp { parameters += [UInt8](repeating: 0, count: 8) }
            try? link.send(.event, [0x0E, UInt8(3 + parameters.count), 1, bytes[0], bytes[1]] + parameters)
            if opcode == HCICommand.leSetScanEnableOp, bytes.count > 3, bytes[3] == 1 { try? link.send(.event, report) }
        }
    }

    func testTheScannerSharesItsHostWithAnotherClientAndLeavesItRunning() async throws {
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds), 0)
        let controller = FileDescriptorTransport(fd: fds[0], label: "controller")
        let host = HCIHost(transport: FileDescriptorTransport(fd: fds[1], label: "shared link"))
        let other = EventCounter()
        host.add(other)
        host.start()
        Thread { Self.runController(controller) }.start()
        defer {
            host.close()
            controller.close()
        }

        let scanner = HCIScanner(host: host)
        let seen = Box<Observation>(), states = Box<ScannerState>()
        let watchers = [Task { for await o in scanner.observations { seen.append(o) } },
                        Task { for await s in scanner.states { states.append(s) } }]
        defer { watchers.forEach { $0.cancel() } }
        scanner.start()
        let heard = await waitUntil { !seen.items.isEmpty }
        XCTAssertTrue(heard, "states: \(states.items)")
        XCTAssertEqual(seen.items.first?.name, "Shared")
        XCTAssertEqual(scanner.capabilities, .init(le: true, extendedScanning: false, bredr: false, inquiryMode: nil))
        XCTAssertEqual(other.reports, 1, "the other client heard the same report")

        scanner.stop()
        let paused = await waitUntil { states.items.last == .paused }
        XCTAssertTrue(paused, "\(states.items)")
        XCTAssertEqual(Array(states.items.suffix(2)), [.scanning, .paused], "the watcher may subscribe after the start")
        XCTAssertNil(host.endReason, "a shared host outlives the scan")
        _ = try host.command(.reset)
    }

    func testAScanStartedAsTheLastOneStopsLeavesTheControllerScanning() async throws {
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds), 0)
        let controller = FileDescriptorTransport(fd: fds[0], label: "controller")
        let enables = EnableLog()
        Thread {
            while let (type, bytes) = try? controller.receive(timeout: 10) {
                guard type == .command, bytes.count >= 3 else { continue }
                let opcode = UInt16(bytes[0]) | UInt16(bytes[1]) << 8
                var parameters: [UInt8] = [0]
                if opcode == HCICommand.readLocalFeaturesOp { parameters += [0, 0, 0, 0, 0x60, 0, 0, 0] }
                if opcode == HCICommand.leReadLocalFeaturesOp { parameters += [UInt8](repeating: 0, count: 8) }
                if opcode == HCICommand.leSetScanEnableOp, bytes.count > 3 { enables.append(bytes[3]) }
                try? controller.send(.event, [0x0E, UInt8(3 + parameters.count), 1, bytes[0], bytes[1]] + parameters)
            }
        }.start()
        let hostEnd = fds[1]
        let link = HCILink(open: { () throws(ScanFailure) in FileDescriptorTransport(fd: hostEnd, label: "link") })
        defer {
            link.close()
            controller.close()
        }

        // The background scan hands over to the Scanner's: one stops as the other starts.
        let background = HCIScanner(link: link)
        let backgroundStates = Box<ScannerState>()
        let watcher = Task { for await s in background.states { backgroundStates.append(s) } }
        defer { watcher.cancel() }
        background.start()
        let scanning = await waitUntil { backgroundStates.items.last == .scanning }
        XCTAssertTrue(scanning)
        let page = HCIScanner(link: link)
        let pageStates = Box<ScannerState>()
        let pageWatcher = Task { for await s in page.states { pageStates.append(s) } }
        defer { pageWatcher.cancel() }
        background.stop()
        page.start()
        let pageScanning = await waitUntil { pageStates.items.last == .scanning }
        XCTAssertTrue(pageScanning, "\(pageStates.items)")
        // Real time on purpose: a wrong "scan off" from the emulated controller is an absence, so
        // there is nothing to await; 600 ms is several of its command round trips.
        try await Task.sleep(for: .milliseconds(600))
        XCTAssertEqual(enables.all.last, 1, "the controller is left scanning for the page, not turned off by the scan before: \(enables.all)")
        page.stop()
    }
}

/// Counts the advertising reports it hears.
private final class EventCounter: HCIHostClient, @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var reports: Int { lock.withLock { count } }

    func host(_ host: HCIHost, didReceive event: HCIEvent) {
        if case .leAdvertisingReports(let list) = event { lock.withLock { count += list.count } }
    }

    func hostDidClose(_ host: HCIHost, reason: ScanFailure) {}
}

/// Items gathered by a watcher task, read by the test.
private final class Box<Item: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [Item] = []
    var items: [Item] { lock.withLock { list } }
    func append(_ item: Item) { lock.withLock { list.append(item) } }
}

/// Waits up to 5 s for `condition`.
private func waitUntil(_ condition: @Sendable () -> Bool) async -> Bool {
    // Up to 20 s: under the test command's load (two shards beside the release build on two
    // cores) the host's start and the scan's commands once took longer than 5 s.
    for _ in 0..<400 {
        if condition() { return true }
        // A poll of the host's read thread, not a fixed wait.
        try? await Task.sleep(nanoseconds: 50_000_000)
    }
    return condition()
}

/// The scan-enable values a scripted controller received, in order.
private final class EnableLog: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [UInt8] = []
    func append(_ v: UInt8) { lock.withLock { values.append(v) } }
    var all: [UInt8] { lock.withLock { values } }
}
