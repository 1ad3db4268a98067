// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Bluetooth
import Domain
import Foundation
import TestSupport
import XCTest

/// Pairing through BlueZ against the dbusmock bluez5 template with Tests/Fixtures/dbusmock/bluez_pairing.py:
/// FavBlue's own Agent1 on the connection that calls Pair, each question as a prompt, and the
/// identity address bluetoothd gives the device once it is bonded.
final class BlueZPairerTests: XCTestCase {
    private var mock: MockBlueZ!
    private let address = "C4:11:22:33:44:55"
    private var device: DeviceID { try! DeviceID(parsing: address, kind: .leRandom) }
    private let path = "/org/bluez/hci0/dev_C4_11_22_33_44_55"

    override func setUp() async throws {
        mock = try MockBlueZ()
        try await mock.startMock()
        try await mock.loadPairing()
        try await mock.addAdapter()
        try await mock.addDevice(address, name: "Fitness Band")
        try await mock.set(path, "org.bluez.Device1", "AddressType", .string("random"))
    }

    override func tearDown() {
        mock?.stop()
    }

    /// A pairer whose bus already lists the device.
    private func pairer() async throws -> BlueZPairer {
        let bus = BlueZBus(address: mock.address)
        _ = try await bus.connect()
        let pairer = BlueZPairer(bus: bus, pairTimeout: .seconds(30))
        try await MockBlueZ.eventually(5, "the device listed") { bus.objects.devicePath(for: device, adapter: "/org/bluez/hci0") != nil }
        return pairer
    }

    /// Answers every question as `answer` says, and returns what was asked, in order, once
    /// `withdrawals` questions were taken back (each pairing ends by taking its question back).
    private func answering(_ pairer: BlueZPairer, withdrawals: Int = 1,
                           _ answer: @escaping @Sendable (PairingQuestion) -> PairingAnswer?) -> Task<[PairingPromptEvent], Never> {
        Task {
            var seen: [PairingPromptEvent] = []
            var ended = 0
            for await event in pairer.prompts {
                // Paired changing is told to every page; the questions are what these tests follow.
                if case .changed = event { continue }
                seen.append(event)
                if case .ask(let prompt) = event, let reply = answer(prompt.question) { prompt.answer(reply) }
                if case .withdrawn = event { ended += 1 }
                if ended >= withdrawals { break }
            }
            return seen
        }
    }

    func testConfirmingTheNumberPairsAndTheDeviceMovesToItsIdentityAddress() async throws {
        try await mock.scriptPairing(path, "confirm", code: 4_321, identity: "F0:11:22:33:44:55/public")
        let pairer = try await pairer()
        let asked = answering(pairer) { _ in .confirmed }
        let identity = try await pairer.pair(device)
        XCTAssertEqual(identity, try DeviceID(parsing: "F0:11:22:33:44:55", kind: .lePublic))
        let managerCalls = try await mock.arguments("/org/bluez", "RegisterAgent")
        XCTAssertEqual(managerCalls.first?.last, .string("KeyboardDisplay"))
        let calls = try await mock.calls("/org/bluez")
        XCTAssertFalse(calls.contains("RequestDefaultAgent"), "never the desktop's default agent")
        XCTAssertTrue(pairer.isPaired(identity))
        let events = await asked.value
        guard case .ask(let prompt)? = events.first else { return XCTFail("no question: \(events)") }
        XCTAssertEqual(prompt.question, .confirm(passkey: 4_321))
        XCTAssertEqual(prompt.device, device)
    }

    func testAWrongPasskeyFailsInPlainWordsAndTheRightOneThenPairs() async throws {
        try await mock.scriptPairing(path, "passkey", code: 7)
        let pairer = try await pairer()
        nonisolated(unsafe) var typed: UInt32 = 123_456
        let asked = answering(pairer, withdrawals: 2) { _ in .passkey(typed) }
        do {
            _ = try await pairer.pair(device)
            XCTFail("a wrong passkey paired")
        } catch {
            XCTAssertEqual(error, .authenticationFailed)
        }
        typed = 7
        let identity = try await pairer.pair(device)
        XCTAssertEqual(identity, device, "no identity address was given: the device keeps its own")
        let answered = try await mock.arguments(path, "Typed")
        XCTAssertEqual(answered.map { "\($0)" }.count, 2, "both passkeys reached the device: \(answered)")
        XCTAssertTrue("\(answered)".contains("123456") && "\(answered)".contains("7"), "\(answered)")
    }

    func testCancelFromBlueZTakesTheQuestionBackWithAReason() async throws {
        try await mock.scriptPairing(path, "cancel", code: 999_999)
        let pairer = try await pairer()
        let asked = answering(pairer) { _ in nil }
        do {
            _ = try await pairer.pair(device)
            XCTFail("a cancelled pairing paired")
        } catch {
            XCTAssertEqual(error, .declined)
        }
        let events = await asked.value
        XCTAssertEqual(events.count, 2, "a question, then its withdrawal: \(events)")
        guard case .withdrawn(_, let reason)? = events.last else { return XCTFail("not withdrawn: \(events)") }
        XCTAssertNotNil(reason)
    }

    func testADisplayedPasskeyUpdatesOneQuestionAndEndsWhenPaired() async throws {
        try await mock.scriptPairing(path, "display", code: 42)
        let pairer = try await pairer()
        let asked = answering(pairer) { _ in nil }
        _ = try await pairer.pair(device)
        let events = await asked.value
        let ids = Set(events.compactMap { event -> Int? in if case .ask(let p) = event { return p.id } else { return nil } })
        XCTAssertEqual(ids.count, 1, "one dialog, updated in place: \(events)")
        guard case .ask(let last)? = events.dropLast().last else { return XCTFail("\(events)") }
        XCTAssertEqual(last.question, .displayPasskey(passkey: 42, typed: 6))
        guard case .withdrawn? = events.last else { return XCTFail("the question stays after pairing: \(events)") }
    }

    func testForgetRemovesTheDeviceFromBlueZAndSaysThePairingChanged() async throws {
        let pairer = try await pairer()
        let told = Task { () -> Bool in
            for await event in pairer.prompts { if case .changed = event { return true } }
            return false
        }
        try await pairer.forget(device)
        let calls = try await mock.calls("/org/bluez/hci0")
        XCTAssertTrue(calls.contains("RemoveDevice"))
        let changed = await told.value
        XCTAssertTrue(changed, "pages learn the device is no longer paired")
        XCTAssertFalse(pairer.isPaired(device))
    }

    func testARefusingDeviceSaysSo() async throws {
        try await mock.scriptPairing(path, "reject")
        let pairer = try await pairer()
        do {
            _ = try await pairer.pair(device)
            XCTFail("paired")
        } catch {
            XCTAssertEqual(error, .rejected)
            XCTAssertEqual(error.message, "the device refused to pair.")
        }
    }
}
