// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

@testable import Bluetooth
import Domain
import Foundation
import XCTest

/// LE scanning against Bumble's virtual controllers, with in-process advertising peers.
final class BumbleLETests: XCTestCase {
    private func scan(transport: String, source: ScanSource, extra: [String], seconds: Double = 8)
        async throws -> (DeviceTable, [ScannerState], HCIScanner) {
        let peer = try PeerProcess(try Peers.python(), [Peers.script, transport, "--count", "3", "--prefix", "Fav"] + extra)
        defer { peer.stop() }
        let scanner = ScannerFactory.make(source, demoCapture: nil) as! HCIScanner
        let (table, states) = await Peers.collect(scanner, seconds: seconds) { table in
            table.devices.values.filter { $0.name != nil && $0.manufacturer != nil }.count == 3
        }
        return (table, states, scanner)
    }

    private func assertFoundThreePeers(_ table: DeviceTable, file: StaticString = #filePath, line: UInt = #line) {
        let names = Set(table.devices.values.compactMap(\.name))
        XCTAssertEqual(names, ["Fav 1", "Fav 2", "Fav 3"], file: file, line: line)
        for device in table.devices.values {
            XCTAssertEqual(device.id.kind, .leRandom, file: file, line: line)
            XCTAssertNotNil(device.rssi, file: file, line: line)
            XCTAssertNotNil(device.txPower, "TX power is advertised", file: file, line: line)
            XCTAssertFalse(device.services.isEmpty, "service UUIDs are advertised", file: file, line: line)
            XCTAssertNotNil(device.manufacturer, "manufacturer data is advertised", file: file, line: line)
            XCTAssertEqual(device.last.flags, 0x06, file: file, line: line)
        }
        let heart = table.devices.values.first { $0.name == "Fav 3" }
        XCTAssertEqual(heart?.services.map(\.uuid).filter { $0.count == 4 }, ["180D", "180F"], file: file, line: line)
        XCTAssertEqual(heart?.services.first?.name, "Heart Rate", file: file, line: line)
        XCTAssertEqual(heart?.manufacturer?.companyName, "Polar Electro OY", file: file, line: line)
    }

    func testLegacyReportsOverTCP() async throws {
        let port = Peers.freePort()
        let (table, states, scanner) = try await scan(transport: "tcp-server:127.0.0.1:\(port)",
                                                      source: .h4TCP(host: "127.0.0.1", port: port), extra: ["--legacy-reports"])
        XCTAssertFalse(scanner.capabilities.extendedScanning, "the controller lacks extended advertising")
        XCTAssertTrue(states.contains(.scanning), "\(states)")
        assertFoundThreePeers(table)
    }

    func testExtendedReportsCarryMoreThan31BytesOverTCP() async throws {
        let port = Peers.freePort()
        let (table, _, scanner) = try await scan(transport: "tcp-server:127.0.0.1:\(port)",
                                                 source: .h4TCP(host: "127.0.0.1", port: port), extra: ["--extended"])
        XCTAssertTrue(scanner.capabilities.extendedScanning)
        assertFoundThreePeers(table)
        XCTAssertTrue(table.devices.values.allSatisfy { $0.last.rawData.count > 31 }, "long advertising data arrives whole")
        XCTAssertTrue(table.devices.values.allSatisfy { $0.services.map(\.uuid).contains("6E400001-B5A3-F393-E0A9-E50E24DCCA9E") },
                      "the 128-bit service list past byte 31 is decoded")
    }

    func testUnixSocketTransport() async throws {
        let path = NSTemporaryDirectory() + "favblue-h4-\(UUID().uuidString.prefix(8)).sock"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (table, _, _) = try await scan(transport: "unix-server:\(path)", source: .h4Unix(path: path), extra: [])
        assertFoundThreePeers(table)
    }

    func testSerialLineTransportOverAPty() async throws {
        let path = NSTemporaryDirectory() + "favblue-pty-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (table, _, _) = try await scan(transport: "pty:\(path)", source: .h4Serial(device: path, baud: 115_200), extra: [])
        assertFoundThreePeers(table)
    }

    func testAutoScanScansInWindowsAndWaitsBetweenThem() async throws {
        let port = Peers.freePort()
        let peer = try PeerProcess(try Peers.python(), [Peers.script, "tcp-server:127.0.0.1:\(port)", "--count", "2"])
        defer { peer.stop() }
        let scanner = ScannerFactory.make(.h4TCP(host: "127.0.0.1", port: port), demoCapture: nil,
                                          mode: .periodic(windowSeconds: 1.5, intervalSeconds: 4))
        let (table, states) = await Peers.collect(scanner, seconds: 9)
        let active = states.filter { $0 == .scanning || $0 == .waiting }
        XCTAssertGreaterThanOrEqual(active.count, 3, "\(states)")
        XCTAssertEqual(Array(active.prefix(3)), [.scanning, .waiting, .scanning],
                       "a window of scanning, a wait, then the next window: \(states)")
        XCTAssertEqual(table.devices.count, 2, "the peers are found within a window")
    }

    func testAControllerThatVanishesMidScanFailsWithAReason() async throws {
        let port = Peers.freePort()
        let peer = try PeerProcess(try Peers.python(), [Peers.script, "tcp-server:127.0.0.1:\(port)", "--count", "1"])
        let scanner = ScannerFactory.make(.h4TCP(host: "127.0.0.1", port: port), demoCapture: nil)
        let killer = Task {
            // Real time on purpose: the peer is killed mid-scan after three seconds.
            try? await Task.sleep(nanoseconds: 3_000_000_000)
            peer.kill9()
        }
        let (table, states) = await Peers.collect(scanner, seconds: 10)
        killer.cancel()
        XCTAssertFalse(table.devices.isEmpty, "it scanned before the controller went away")
        guard case .failed(.disconnected(let detail))? = states.last else { return XCTFail("\(states)") }
        XCTAssertFalse(detail.isEmpty)
    }

    func testARefusedConnectionIsReportedNotHung() async {
        let scanner = ScannerFactory.make(.h4Unix(path: "/nonexistent/favblue.sock"), demoCapture: nil)
        let started = Date()
        let (_, states) = await Peers.collect(scanner, seconds: 5)
        guard case .failed(.unavailable(let detail))? = states.last else { return XCTFail("\(states)") }
        XCTAssertTrue(detail.contains("/nonexistent/favblue.sock"))
        XCTAssertLessThan(Date().timeIntervalSince(started), 5)
    }

    func testRawHCIFailsWithAClearMessageWithoutBluetoothSockets() async {
        let (_, states) = await Peers.collect(ScannerFactory.make(.hci(0), demoCapture: nil), seconds: 3)
        guard case .failed(let failure)? = states.last else { return XCTFail("\(states)") }
        XCTAssertFalse(failure.message.isEmpty)
        XCTAssertFalse(failure.suggestion.isEmpty)
    }
}
