// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

@testable import Bluetooth
import Domain
import Foundation
import TestSupport
import XCTest

/// A device that changes its address is reached where it is heard now, and followed when it
/// moves while the controller waits for it (issue 33, item 1), against a scripted controller
/// that answers at one address only.
final class ReachingTests: XCTestCase {
    /// A folded row: kept under the first private address it was heard at.
    private let row = try! DeviceID(parsing: "4A:00:00:00:00:01", kind: .leRandom)
    private let second = try! DeviceID(parsing: "5B:00:00:00:00:02", kind: .leRandom)
    private let third = try! DeviceID(parsing: "6C:00:00:00:00:03", kind: .leRandom)

    private struct Rig {
        let controller: ScriptedController
        let host: HCIHost
        let connector: HCIConnector
        let addresses: HeardAddresses
        let log: EventLog

        /// The peers of the LE Create Connections sent so far, in order.
        var attempts: [DeviceID] {
            controller.sentCommands.filter { $0.opcode == HCICommand.leCreateConnectionOp }
                .map { DeviceID(wireBytes: $0.parameters[6..<12], kind: .leRandom) }
        }
    }

    private func rig(answeringAt reachable: DeviceID?, timeout: Double = 5) -> Rig {
        let controller = ScriptedController()
        let wire = reachable?.wireBytes
        controller.answers = { address, _ in address == wire }
        let host = HCIHost(transport: controller)
        let connector = HCIConnector(host: host, connectTimeout: timeout, attTimeout: 5)
        let addresses = HeardAddresses()
        connector.addresses = addresses
        return Rig(controller: controller, host: host, connector: connector, addresses: addresses, log: EventLog(connector))
    }

    func testAConnectionGoesToTheNewestAddressHeardForTheRowNeverToItsKey() async {
        let rig = rig(answeringAt: second)
        defer { rig.host.close() }
        rig.addresses.note(second, for: row)
        rig.connector.connect(to: row)
        let connected = await rig.log.wait { $0.states.contains(.connected(self.row, service: .chat)) }
        XCTAssertTrue(connected, "\(rig.log.states)")
        XCTAssertEqual(rig.attempts, [second], "straight to where it is now, reported under its row")
        XCTAssertEqual(rig.log.retries, [])
    }

    func testAnAttemptFollowsTheDeviceWhenItTakesANewAddressMeanwhile() async {
        let rig = rig(answeringAt: third)
        defer { rig.host.close() }
        rig.addresses.note(second, for: row)
        rig.connector.connect(to: row)
        await eventually { rig.attempts.count == 1 }
        // The device moves while the controller waits for it at the address it left.
        rig.addresses.note(third, for: row)
        let connected = await rig.log.wait { $0.states.contains(.connected(self.row, service: .chat)) }
        XCTAssertTrue(connected, "\(rig.log.states)")
        XCTAssertEqual(rig.attempts, [second, third])
        let opcodes = rig.controller.commands.filter {
            [HCICommand.leCreateConnectionOp, HCICommand.leCreateConnectionCancelOp].contains($0)
        }
        XCTAssertEqual(opcodes, [HCICommand.leCreateConnectionOp, HCICommand.leCreateConnectionCancelOp,
                                 HCICommand.leCreateConnectionOp], "the first attempt is cancelled before the next")
        XCTAssertEqual(rig.log.retries, [third], "the pages hear that it moved")
    }

    func testANewAddressWhileConnectedLeavesTheConnectionAlone() async throws {
        let rig = rig(answeringAt: second)
        defer { rig.host.close() }
        rig.addresses.note(second, for: row)
        rig.connector.connect(to: row)
        await rig.log.wait { $0.states.contains(.connected(self.row, service: .chat)) }
        // It takes a new address mid-connection (mid-pairing, say): the link it has goes on.
        rig.addresses.note(third, for: row)
        try await Task.sleep(nanoseconds: 300_000_000)
        XCTAssertEqual(rig.attempts, [second])
        XCTAssertFalse(rig.controller.commands.contains(HCICommand.leCreateConnectionCancelOp))
        XCTAssertEqual(rig.connector.state, .connected(row, service: .chat))
    }

    func testAtMostThreeTriesWithinTheOneTimeout() async {
        let rig = rig(answeringAt: nil, timeout: 3)
        defer { rig.host.close() }
        let moves = (1...6).map { try! DeviceID(parsing: String(format: "5%X:00:00:00:00:%02X", $0, $0), kind: .leRandom) }
        rig.addresses.note(moves[0], for: row)
        let started = Date()
        rig.connector.connect(to: row)
        // Every time an attempt goes out, the device has moved on again.
        var seen = 0
        let failed = await rig.log.wait(timeout: 8) { log in
            if rig.attempts.count > seen, seen + 1 < moves.count {
                seen = rig.attempts.count
                rig.addresses.note(moves[seen], for: self.row)
            }
            return log.states.contains(.failed(.noAnswer(seconds: 3)))
        }
        XCTAssertTrue(failed, "\(rig.log.states)")
        XCTAssertEqual(rig.attempts, Array(moves.prefix(3)), "three tries, each at the newest address")
        XCTAssertLessThan(Date().timeIntervalSince(started), 4.5, "within the one timeout, not three of them")
    }
}
