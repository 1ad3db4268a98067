// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

@testable import Bluetooth
import Domain
import Foundation
import SecurityToolbox
import XCTest

/// The SMP timer both roles share (Vol 3, Part H, §3.4): a run that stays still for the
/// timeout fails as timed out; every step starts the timeout again; a run its link has let go
/// of is not failed.
final class PairingRunTests: XCTestCase {
    private let local = SMPSession.Party(type: 1, octets: [0xC1, 0x02, 0x03, 0x04, 0x05, 0x06])
    private let remote = SMPSession.Party(type: 1, octets: [0xF9, 0xF4, 0xF3, 0xF2, 0xF1, 0xF0])
    /// Timers the test fires by hand, in the order they were set, with the delays asked for.
    private final class Timers: @unchecked Sendable {
        private let lock = NSLock()
        private var set: [(seconds: Double, fire: @Sendable () -> Void)] = []
        var after: PairingRun.After { { seconds, fire in self.lock.withLock { self.set.append((seconds, fire)) } } }
        var delays: [Double] { lock.withLock { set.map(\.seconds) } }
        func fire(_ index: Int) { lock.withLock { set[index].fire }() }
    }

    private func run(_ role: SMPSession.Role) -> PairingRun {
        let session = SMPSession(role: role, crypto: ToolboxPairingCrypto(), local: local, remote: remote,
                                 identity: .init(irk: [UInt8](repeating: 0x42, count: 16), address: local))
        if role == .initiator {
            _ = session.start()
        } else {
            // A central's Pairing Request: the responder is under way.
            _ = session.receive([0x01, 0x03, 0x00, 0x01, 0x10, 0x03, 0x03])
        }
        return PairingRun(session: session)
    }

    private final class Outcomes: @unchecked Sendable {
        let lock = NSLock()
        var failures: [PairingFailure] = []
        func add(_ actions: [SMPAction]) {
            for case .failed(let failure) in actions { lock.withLock { failures.append(failure) } }
        }
        var count: Int { lock.withLock { failures.count } }
    }

    func testAStillRunTimesOutInEitherRoleOnceAndNotBeforeItsLastStep() {
        for role in [SMPSession.Role.initiator, .responder] {
            let run = run(role), lock = NSLock(), outcomes = Outcomes(), timers = Timers()
            XCTAssertTrue(run.session.isRunning, "\(role)")
            lock.withLock { run.restartTimer(after: timers.after, lock: lock, timeout: 0.2, current: { true }, expire: outcomes.add) }
            // A step before it fires: the first timer is stale, the second counts from here.
            lock.withLock { run.restartTimer(after: timers.after, lock: lock, timeout: 0.2, current: { true }, expire: outcomes.add) }
            XCTAssertEqual(timers.delays, [0.2, 0.2], "\(role)")
            timers.fire(0)
            XCTAssertEqual(outcomes.count, 0, "\(role): the first timer's time is up, but not the last step's")
            timers.fire(1)
            XCTAssertEqual(outcomes.lock.withLock { outcomes.failures }, [.timedOut], "\(role)")
            XCTAssertFalse(run.session.isRunning, "\(role): the session is over")
        }
    }

    func testTheTimeoutTheMakersGetIsTheSpecs30Seconds() {
        let run = run(.initiator), lock = NSLock(), timers = Timers()
        lock.withLock { run.restartTimer(after: timers.after, lock: lock, current: { true }, expire: { _ in }) }
        XCTAssertEqual(timers.delays, [30])
    }

    func testARunItsLinkLetGoOfIsNotFailed() {
        let run = run(.responder), lock = NSLock(), outcomes = Outcomes(), timers = Timers()
        lock.withLock { run.restartTimer(after: timers.after, lock: lock, timeout: 0.05, current: { false }, expire: outcomes.add) }
        timers.fire(0)
        XCTAssertEqual(outcomes.count, 0)
        XCTAssertTrue(run.session.isRunning)
    }
}
