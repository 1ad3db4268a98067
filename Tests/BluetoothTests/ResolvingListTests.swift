// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

@testable import Bluetooth
import Domain
import Foundation
import SecurityToolbox
import TestSupport
import XCTest

/// The controller's resolving list kept in step with the bonds (issue 33, item 2): the HCI
/// commands in order, against a scripted controller, since Bumble's accepts them but resolves
/// nothing; and the fallback to the address heard last.
final class ResolvingListTests: XCTestCase {
    private let watch = try! DeviceID(parsing: "F0:00:00:00:00:01", kind: .leRandom)
    private let phone = try! DeviceID(parsing: "00:1B:DC:00:00:09", kind: .lePublic)
    private let watchKey = try! IdentityResolvingKey(parsing: "000102030405060708090A0B0C0D0E0F")
    private let phoneKey = try! IdentityResolvingKey(parsing: "F0F1F2F3F4F5F6F7F8F9FAFBFCFDFEFF")
    /// Where the watch is heard now.
    private let watchRPA = try! DeviceID(parsing: "4D:00:00:00:00:07", kind: .leRandom)

    private func bond(_ identity: DeviceID, _ irk: IdentityResolvingKey?) -> Bond {
        Bond(identity: identity, irk: irk, ltk: nil, authenticated: true, secureConnections: true, createdAt: Date())
    }

    private func keyring(_ bonds: [Bond]) -> HCIKeyring {
        let keyring = HCIKeyring(hashing: AESAddressHashing(), local: LocalIdentity(random: Array(0..<22)))
        keyring.set(bonds)
        return keyring
    }

    private struct Rig {
        let controller: ScriptedController
        let host: HCIHost
        let connector: HCIConnector
        let addresses: HeardAddresses
        let log: EventLog
        let lines: Lines

        /// The resolving-list and scanning commands sent, with their parameters, in order.
        var privacy: [(opcode: UInt16, parameters: [UInt8])] {
            let watched: Set<UInt16> = [HCICommand.readLocalCommandsOp, HCICommand.leReadResolvingListSizeOp,
                                        HCICommand.leSetAddressResolutionEnableOp, HCICommand.leClearResolvingListOp,
                                        HCICommand.leSetRPATimeoutOp, HCICommand.leAddToResolvingListOp,
                                        HCICommand.leRemoveFromResolvingListOp, HCICommand.leSetScanEnableOp]
            return controller.sentCommands.filter { watched.contains($0.opcode) }
        }

        /// The LE Create Connections sent: Peer_Address_Type and the peer.
        var attempts: [(type: UInt8, peer: DeviceID)] {
            controller.sentCommands.filter { $0.opcode == HCICommand.leCreateConnectionOp }.map {
                ($0.parameters[5], DeviceID(wireBytes: $0.parameters[6..<12], kind: $0.parameters[5] & 1 == 1 ? .leRandom : .lePublic))
            }
        }

        func connect(_ device: DeviceID) async {
            connector.connect(to: device)
            await log.wait { log in log.states.contains { if case .connected(device, _) = $0 { true } else { false } } }
        }
    }

    /// Log lines, kept for a test to read.
    final class Lines: @unchecked Sendable {
        private let lock = NSLock()
        private var kept: [String] = []
        func add(_ line: String) { lock.withLock { kept.append(line) } }
        var all: [String] { lock.withLock { kept } }
    }

    private func rig(_ keyring: HCIKeyring, listSize: Int? = 8, configure: (ScriptedController) -> Void = { _ in }) -> Rig {
        let controller = ScriptedController()
        if let listSize { controller.offerResolvingList(size: listSize) }
        configure(controller)
        let host = HCIHost(transport: controller)
        let lines = Lines()
        let connector = HCIConnector(host: host, connectTimeout: 3, attTimeout: 5, log: { lines.add($0) })
        connector.keyring = keyring
        let addresses = HeardAddresses()
        connector.addresses = addresses
        return Rig(controller: controller, host: host, connector: connector, addresses: addresses, log: EventLog(connector),
                   lines: lines)
    }

    private func add(_ identity: DeviceID, _ irk: IdentityResolvingKey, local: [UInt8]) -> [UInt8] {
        HCICommand.leAddToResolvingList(identity: identity, peerIRK: irk.bytes, localIRK: local).parameters
    }

    func testAtStartTheListIsFilledWithEveryBondThatHasAKeyAndResolutionTurnedOn() async {
        let keyring = keyring([bond(watch, watchKey), bond(phone, phoneKey), bond(try! DeviceID(parsing: "00:00:00:00:00:42", kind: .lePublic), nil)])
        let rig = rig(keyring)
        defer { rig.host.close() }
        await rig.connect(watch)
        let local = keyring.local.irk
        XCTAssertEqual(rig.privacy.map(\.opcode), [
            HCICommand.readLocalCommandsOp, HCICommand.leReadResolvingListSizeOp, HCICommand.leSetAddressResolutionEnableOp,
            HCICommand.leClearResolvingListOp, HCICommand.leSetRPATimeoutOp, HCICommand.leAddToResolvingListOp,
            HCICommand.leAddToResolvingListOp, HCICommand.leSetAddressResolutionEnableOp,
        ])
        let adds = rig.privacy.filter { $0.opcode == HCICommand.leAddToResolvingListOp }.map(\.parameters)
        XCTAssertEqual(adds, [add(phone, phoneKey, local: local), add(watch, watchKey, local: local)], "the one without a key is left out")
        XCTAssertEqual(adds.last?.prefix(7), [1] + watch.wireBytes[...], "a static identity is type 1, least significant octet first")
        XCTAssertEqual(Array(adds.last![7..<23]), watchKey.bytes.reversed(), "the key as the wire has it")
        XCTAssertEqual(rig.privacy.first { $0.opcode == HCICommand.leSetRPATimeoutOp }?.parameters, [0x84, 0x03], "900 s")
        XCTAssertEqual(rig.privacy.last?.parameters, [1], "resolution on once the list is full")
        XCTAssertEqual(rig.attempts.first?.type, 3, "the watch is connected by its random static identity")
        XCTAssertEqual(rig.attempts.first?.peer, watch)
        XCTAssertTrue(rig.lines.all.contains { $0.contains("resolving list: the controller follows 2 bonded device(s)") }, "\(rig.lines.all)")
    }

    func testAConnectionByIdentityThatTheControllerFindsAtAPrivateAddressIsFiledUnderTheIdentity() async {
        let rig = rig(keyring([bond(watch, watchKey)])) { $0.resolvedAt = self.watchRPA.wireBytes }
        defer { rig.host.close() }
        rig.addresses.note(watchRPA, for: watch)
        await rig.connect(watch)
        XCTAssertEqual(rig.connector.state, .connected(watch, service: .chat), "reported under the identity")
        XCTAssertEqual(rig.attempts.map(\.peer), [watch], "not at the private address heard: the controller resolves it")
        XCTAssertEqual(rig.connector.lock.withLock { rig.connector.link?.address }, watchRPA, "the link knows where it was found")
        XCTAssertTrue(rig.lines.all.contains { $0.contains("at \(watchRPA)") }, "\(rig.lines.all)")
    }

    func testAListThatNeverResolvesIsDistrustedOnceTheHostHearsTheDeviceElsewhere() async {
        // The controller claims the list, and an attempt by identity never completes (as Bumble's).
        let rig = rig(keyring([bond(watch, watchKey)])) { $0.answers = { _, type in type < 2 } }
        defer { rig.host.close() }
        // The host hears the watch at a private address it resolves itself, twice.
        rig.addresses.note(watchRPA, for: watch)
        rig.addresses.count(watchRPA, for: watch)
        rig.addresses.count(watchRPA, for: watch)
        let started = Date()
        rig.connector.connect(to: watch)
        await rig.log.wait { log in log.states.contains { if case .connected(self.watch, _) = $0 { true } else { false } } }
        XCTAssertLessThan(Date().timeIntervalSince(started), 2.5, "not the whole timeout")
        XCTAssertEqual(rig.attempts.map(\.type), [3, 1], "by identity first, then at the address heard")
        XCTAssertEqual(rig.attempts.last?.peer, watchRPA)
        XCTAssertTrue(rig.lines.all.contains { $0.contains("resolving on the host for the rest of this session") }, "\(rig.lines.all)")
        // The next connection does not ask the controller to resolve.
        rig.connector.disconnect()
        await rig.log.wait { log in log.states.last == .idle }
        rig.connector.connect(to: watch)
        await rig.log.wait { log in log.states.filter { if case .connected = $0 { true } else { false } }.count >= 2 }
        XCTAssertEqual(rig.attempts.map(\.type), [3, 1, 1], "the list is no longer trusted this session")
    }

    func testALinkTheDeviceNeverAnswersIsDroppedAndMadeOnceMoreAtTheNewestAddress() async {
        let keyring = keyring([Bond(identity: watch, irk: watchKey, ltk: Array(repeating: 7, count: 16), authenticated: true,
                                    secureConnections: true, createdAt: Date())])
        let rig = rig(keyring, listSize: nil) { $0.unansweredEncryptions = 1 }
        defer { rig.host.close() }
        rig.addresses.note(watchRPA, for: watch)
        let started = Date()
        await rig.connect(watch)
        XCTAssertLessThan(Date().timeIntervalSince(started), 3.5, "2 s of silence, not the whole timeout")
        XCTAssertEqual(rig.attempts.map(\.peer), [watchRPA, watchRPA], "made again at the newest address")
        XCTAssertEqual(rig.controller.encryptionRequests, 2)
        XCTAssertEqual(rig.log.unanswered, [watch], "said, for the status line")
        XCTAssertTrue(rig.lines.all.contains { $0.contains("did not answer the encryption") }, "\(rig.lines.all)")
    }

    func testALinkWhoseFirstATTRequestIsNeverAnsweredIsMadeOnceMore() async {
        let rig = rig(keyring([]), listSize: nil) { $0.unansweredATT = 1 }
        defer { rig.host.close() }
        let started = Date()
        await rig.connect(watch)
        XCTAssertLessThan(Date().timeIntervalSince(started), 4, "2 s of silence, not the ATT timeout")
        XCTAssertEqual(rig.attempts.count, 2, "a second link")
        XCTAssertEqual(rig.log.unanswered, [watch])
        XCTAssertTrue(rig.lines.all.contains { $0.contains("did not answer the first ATT request") }, "\(rig.lines.all)")
    }

    func testPairingAddsTheNewBondAndForgetRemovesIt() async {
        let keyring = keyring([bond(watch, watchKey)])
        let rig = rig(keyring)
        defer { rig.host.close() }
        await rig.connect(watch)
        let before = rig.privacy.count
        keyring.set([bond(watch, watchKey), bond(phone, phoneKey)])
        await eventually { rig.privacy.count > before }
        XCTAssertEqual(rig.privacy.dropFirst(before).map(\.opcode), [HCICommand.leAddToResolvingListOp])
        XCTAssertEqual(rig.privacy.last?.parameters, add(phone, phoneKey, local: keyring.local.irk))
        let added = rig.privacy.count
        keyring.set([bond(phone, phoneKey)])
        await eventually { rig.privacy.count > added }
        XCTAssertEqual(rig.privacy.dropFirst(added).map(\.opcode), [HCICommand.leRemoveFromResolvingListOp])
        XCTAssertEqual(rig.privacy.last?.parameters, [1] + watch.wireBytes)
    }

    func testTheListChangesOnlyWhileScanningIsOff() async {
        let keyring = keyring([bond(watch, watchKey)])
        let rig = rig(keyring)
        defer { rig.host.close() }
        let scanner = HCIScanner(host: rig.host, resetController: false)
        let states = scanner.states
        scanner.start()
        for await state in states where state == .scanning { break }
        await rig.connect(watch)
        keyring.set([bond(watch, watchKey), bond(phone, phoneKey)])
        let adds = { rig.privacy.filter { $0.opcode == HCICommand.leAddToResolvingListOp }.count }
        await eventually { adds() == 2 && rig.privacy.last?.opcode == HCICommand.leSetScanEnableOp }
        scanner.stop()
        // Every change sits between scanning turned off and on again.
        var scanning = false
        for command in rig.privacy {
            if command.opcode == HCICommand.leSetScanEnableOp { scanning = command.parameters.first == 1; continue }
            if [HCICommand.leClearResolvingListOp, HCICommand.leAddToResolvingListOp].contains(command.opcode) {
                XCTAssertFalse(scanning, "a change while scanning: \(rig.privacy.map(\.opcode))")
            }
        }
        XCTAssertEqual(adds(), 2)
    }

    func testWhenTheListIsFullTheRestAreReachedAtTheAddressHeardLast() async {
        let rig = rig(keyring([bond(watch, watchKey), bond(phone, phoneKey)]), listSize: 1)
        defer { rig.host.close() }
        rig.addresses.note(watchRPA, for: watch)
        await rig.connect(watch)
        XCTAssertEqual(rig.privacy.filter { $0.opcode == HCICommand.leAddToResolvingListOp }.count, 1, "only as many as there is room for")
        XCTAssertEqual(rig.attempts.first?.type, 1, "the watch did not fit: reached where it was heard")
        XCTAssertEqual(rig.attempts.first?.peer, watchRPA)
        XCTAssertTrue(rig.lines.all.contains { $0.contains("full (1); \(watch) is reached at the address heard last") }, "\(rig.lines.all)")
    }

    func testARefusedAddIsSaidAndThatDeviceIsReachedAtTheAddressHeardLast() async {
        let rig = rig(keyring([bond(watch, watchKey)])) { $0.refuseAdds = 0x07 }
        defer { rig.host.close() }
        rig.addresses.note(watchRPA, for: watch)
        await rig.connect(watch)
        XCTAssertEqual(rig.attempts.map(\.peer), [watchRPA])
        XCTAssertTrue(rig.lines.all.contains { $0.contains("LE Add Device To Resolving List refused with status 0x7") }, "\(rig.lines.all)")
    }

    func testAControllerWithoutTheCommandsIsNotAskedToResolveAndSaysSo() async {
        let rig = rig(keyring([bond(watch, watchKey)]), listSize: nil)
        defer { rig.host.close() }
        rig.addresses.note(watchRPA, for: watch)
        await rig.connect(watch)
        XCTAssertEqual(rig.privacy.map(\.opcode), [HCICommand.readLocalCommandsOp], "it only asked what the controller has")
        XCTAssertEqual(rig.attempts.map(\.peer), [watchRPA])
        XCTAssertTrue(rig.lines.all.contains { $0.contains("resolving list: the controller has none") }, "\(rig.lines.all)")
    }

    func testAfterTheControllerIsResetTheListIsBuiltAgain() async throws {
        let keyring = keyring([bond(watch, watchKey)])
        let controllers = Controllers()
        let link = HCILink(open: { () throws(ScanFailure) -> HCITransport in controllers.next() })
        let connector = HCILinkConnector(link: link)
        connector.keyring = keyring
        let log = EventLog(connector)
        connector.connect(to: watch)
        await log.wait { $0.states.contains(.connected(self.watch, service: .chat)) }
        // The controller goes away and comes back reset (a serial adapter unplugged and put back).
        controllers.all[0].close()
        await log.wait { $0.states.contains { if case .failed = $0 { true } else { false } } }
        connector.connect(to: watch)
        await eventually { controllers.all.count == 2 && controllers.all[1].commands.contains(HCICommand.leAddToResolvingListOp) }
        let again = controllers.all[1].commands.filter { [HCICommand.resetOp, HCICommand.leClearResolvingListOp,
                                                          HCICommand.leAddToResolvingListOp].contains($0) }
        XCTAssertEqual(again, [HCICommand.resetOp, HCICommand.leClearResolvingListOp, HCICommand.leAddToResolvingListOp])
        link.close()
    }

    /// A fresh scripted controller each time the link opens.
    final class Controllers: @unchecked Sendable {
        private let lock = NSLock()
        private var made: [ScriptedController] = []
        var all: [ScriptedController] { lock.withLock { made } }
        func next() -> ScriptedController {
            let controller = ScriptedController()
            controller.offerResolvingList(size: 8)
            lock.withLock { made.append(controller) }
            return controller
        }
    }
}
