// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

@testable import Bluetooth
import Domain
import Foundation
import XCTest

/// BR/EDR inquiry between two of BlueZ's virtual controllers (btvirt -s).
final class BtvirtInquiryTests: XCTestCase {
    static let socket = "/tmp/bt-server-bredr"
    private var btvirt: PeerProcess?
    private var target: HCITransport?
    /// Controller A's address, so a test reads its row and no other (btvirt may list more than one).
    private var targetAddress: [UInt8] = []

    override func setUpWithError() throws {
        try Peers.require(FileManager.default.isExecutableFile(atPath: "/usr/bin/btvirt"), "btvirt is not installed (bluez-test-tools)")
        for suffix in ["bredr", "bredrle", "le", "amp", "mon"] { try? FileManager.default.removeItem(atPath: "/tmp/bt-server-\(suffix)") }
        btvirt = try PeerProcess("/usr/bin/stdbuf", ["-oL", "/usr/bin/btvirt", "-s"], readyFile: Self.socket)
        // Controller A: discoverable, named, with an extended inquiry response.
        let link = try TransportOpener.unix(path: Self.socket)
        target = link
        let eir: [UInt8] = [0x0B, 0x09] + Array("Old Stereo".utf8) + [0x03, 0x03, 0x0B, 0x11]
        for command in [HCICommand.reset, .readBDAddr, .writeLocalName("Old Stereo"), .writeEIR(eir), .writeScanEnable(0x03)] {
            try link.send(.command, command.packet)
            let deadline = Date().addingTimeInterval(3)
            while Date() < deadline {
                guard let (_, bytes) = try link.receive(timeout: 0.5), bytes.first == 0x0E else { continue }
                // Command Complete: event, length, credits, opcode, status, then Read BD_ADDR's address.
                if command.opcode == HCICommand.readBDAddrOp, bytes.count >= 12 { targetAddress = Array(bytes[6..<12]) }
                break
            }
        }
    }

    override func tearDown() {
        target?.close()
        btvirt?.stop()
        for suffix in ["bredr", "bredrle", "le", "amp", "mon"] { try? FileManager.default.removeItem(atPath: "/tmp/bt-server-\(suffix)") }
        super.tearDown()
    }

    private func inquire(mode: UInt8) async throws -> (DeviceAggregate?, HCIScanner) {
        let scanner = HCIScanner(open: { () throws(ScanFailure) in try TransportOpener.unix(path: Self.socket) }, inquiryMode: mode)
        let (table, states) = await Peers.collect(scanner, seconds: 20) { table in
            table.devices.values.contains { $0.name == "Old Stereo" && $0.reports >= 1 }
        }
        XCTAssertTrue(states.contains(.scanning), "\(states)")
        guard targetAddress.count == 6 else {
            XCTFail("controller A did not say its address")
            return (nil, scanner)
        }
        let target = DeviceID(wireBytes: targetAddress, kind: .bredr)
        return (table.devices.values.first { $0.id == target }, scanner)
    }

    func testExtendedInquiryFindsTheNameAndRSSIFromEIR() async throws {
        let (device, scanner) = try await inquire(mode: 2)
        XCTAssertFalse(scanner.capabilities.le, "btvirt's BR/EDR controller rejects LE commands: skipped, not fatal")
        XCTAssertEqual(device?.name, "Old Stereo")
        XCTAssertNotNil(device?.rssi)
        XCTAssertEqual(device?.services.map(\.uuid), ["110B"])
    }

    func testInquiryWithRSSIThenARemoteNameRequest() async throws {
        let (device, _) = try await inquire(mode: 1)
        XCTAssertNotNil(device?.rssi)
        XCTAssertEqual(device?.name, "Old Stereo", "the name comes from a remote name request")
    }

    func testStandardInquiryThenARemoteNameRequest() async throws {
        let (device, _) = try await inquire(mode: 0)
        XCTAssertNil(device?.rssi, "standard inquiry results carry no RSSI")
        XCTAssertEqual(device?.name, "Old Stereo")
    }
}
