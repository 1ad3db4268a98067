// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

@testable import Bluetooth
import Domain
import Foundation
import SecurityToolbox
import TestSupport
import XCTest

/// Pairing through FavBlue's own Security Manager with Bumble's, which checks every value FavBlue sends.
final class BumblePairingTests: XCTestCase {
    func testNumericComparisonShowsThePeersNumberAndBondsWithItsKeys() async throws {
        let irk = "00112233445566778899aabbccddeeff"
        let peer = try ChatPeer(["--pairing", "yesno", "--irk", irk])
        let rig = rig(peer)
        let questions = Questions(rig.pairer) { _ in .confirmed }
        let result = await pair(rig)
        XCTAssertEqual(try result.get(), ChatPeer.first, "the peer's static address is its identity: \(peer.output)")
        guard case .confirm(let number)? = questions.list.first else { return XCTFail("asked \(questions.list)") }
        let shown = peer.wait(for: { $0.hasPrefix("COMPARE ") })
        XCTAssertEqual(shown, "COMPARE " + String(format: "%06d", number), "both sides show the same six digits")
        let bond = try XCTUnwrap(rig.bonds.all.first)
        XCTAssertEqual(bond.identity, ChatPeer.first)
        XCTAssertTrue(bond.secureConnections)
        XCTAssertTrue(bond.authenticated, "numeric comparison protects against a man in the middle")
        XCTAssertEqual(bond.keySize, 16)
        let keys = try XCTUnwrap(peerKeys(peer), peer.output)
        XCTAssertEqual(bond.ltk, keys.ltk, "both sides derived the same LTK")
        XCTAssertEqual(bond.irk?.bytes, bytes(Substring(irk)).reversed(), "the peer's identity key, in the order the resolver uses")
        XCTAssertEqual(keys.irk, rig.bonds.keyring.local.irk, "the peer was given FavBlue's identity key, so it can recognise FavBlue")
        XCTAssertNotNil(peer.wait(for: { $0 == "ENCRYPTED 1" }), "the link is encrypted: \(peer.output)")
        XCTAssertTrue(rig.pairer.isPaired(ChatPeer.first))
        XCTAssertNotNil(peer.wait(for: { $0.hasPrefix("CONNECTED \(rig.bonds.keyring.local.address)") }),
                        "the link came from FavBlue's kept identity address: \(peer.output)")
        // The key it gave recognises the private addresses it will use.
        let prand: UInt32 = 0x40_1234
        let hash = try Toolbox.ah(irk: try XCTUnwrap(bond.irk).bytes, prand: prand)
        let rpa = DeviceID(octets: [24, 16, 8, 0].dropFirst().map { UInt8(truncatingIfNeeded: prand >> $0) }
                               + [16, 8, 0].map { UInt8(truncatingIfNeeded: hash >> $0) }, kind: .leRandom)
        XCTAssertEqual(rig.bonds.keyring.bond(for: rpa)?.identity, ChatPeer.first, "\(rpa) resolves to the identity")
        // The pairer takes the question down before `pair` returns; the feed drained, it was heard.
        await rig.pairer.prompts.applied()
        let withdrawn = questions.withdrawals > 0
        XCTAssertTrue(withdrawn, "the question is taken down when pairing ends")
        withExtendedLifetime(questions) {}
    }

    func testJustWorksBondsAndTheNextLinkIsEncryptedWithTheStoredKey() async throws {
        let peer = try ChatPeer(["--pairing", "none"])
        let rig = rig(peer)
        let questions = Questions(rig.pairer) { _ in nil }
        let paired = await pair(rig)
        XCTAssertEqual(try paired.get(), ChatPeer.first, peer.output)
        XCTAssertEqual(questions.list, [], "Just Works asks nothing")
        let bond = try XCTUnwrap(rig.bonds.all.first)
        XCTAssertFalse(bond.authenticated, "Just Works is not protected against a man in the middle")
        XCTAssertEqual(bond.ltk, try XCTUnwrap(peerKeys(peer), peer.output).ltk)
        await rig.log.wait(for: { if case .connected = $0 { return true } else { return false } })
        rig.connector.disconnect()
        await rig.log.wait(for: { $0 == .idle && peer.output.contains("DISCONNECTED") })
        XCTAssertNotNil(peer.wait(for: { $0.hasPrefix("DISCONNECTED") }), peer.output)
        rig.connector.connect(to: ChatPeer.first)
        let encryptions = { peer.lines.filter { $0 == "ENCRYPTED 1" }.count }
        XCTAssertNotNil(peer.wait(for: { _ in encryptions() == 2 }), "the second link is encrypted without pairing again: \(peer.output)")
        XCTAssertEqual(peer.lines.filter { $0.hasPrefix("PAIRED") }.count, 1, peer.output)
        withExtendedLifetime(questions) {}
    }

    /// Robust caching where FavBlue is the central (Vol 3, Part G, §2.5.2.1): a bonded peripheral
    /// caches FavBlue's own server as a phone does and sets robust caching. FavBlue then serves a
    /// setup, so its database changes. On the next link, encrypted with the bond, the
    /// peripheral's read of the handle it kept is answered Database Out Of Sync once, and the
    /// next read gets the value.
    func testABondedPeripheralThatCachedThisServerIsToldOnceItChanged() async throws {
        let peer = try ChatPeer(["--pairing", "none", "--cache-central"])
        let attributes = LocalAttributes(adapterName: "Bench", crypto: ToolboxPairingCrypto())
        let rig = rig(peer, attributes: attributes)
        let questions = Questions(rig.pairer) { _ in nil }
        let paired = await pair(rig)
        XCTAssertEqual(try paired.get(), ChatPeer.first, peer.output)
        let kept = try XCTUnwrap(peer.wait(for: { $0.hasPrefix("CENTRAL_CACHED ") }, timeout: 15), peer.output)
        let handle = try XCTUnwrap(UInt16(kept.dropFirst("CENTRAL_CACHED ".count)))
        rig.connector.disconnect()
        await rig.log.wait(for: { $0 == .idle && peer.output.contains("DISCONNECTED") })

        try attributes.serve(ServerSetup(name: "Bench", services: [
            ServedService(uuid: BluetoothUUID(0x180F), characteristics: [ServedCharacteristic(uuid: BluetoothUUID(0x2A19), properties: [.read], value: [87])]),
        ]))
        rig.connector.connect(to: ChatPeer.first)
        let reads = { peer.lines.filter { $0.hasPrefix("CENTRAL_READ ") } }
        XCTAssertNotNil(peer.wait(for: { _ in reads().count == 2 }, timeout: 15), peer.output)
        XCTAssertEqual(reads(), ["CENTRAL_READ 010a" + Hex.lower(HCICommand.le16(handle)) + "12",
                                 "CENTRAL_READ 0b" + Hex.lower(Array("Bench".utf8))],
                       "Database Out Of Sync, then the Device Name")
        withExtendedLifetime(questions) {}
    }

    func testLegacyPasskeyTypedHereGivesAnLTKWithEDIVAndRand() async throws {
        let peer = try ChatPeer(["--pairing", "display", "--legacy"])
        let rig = rig(peer)
        let (paired, questions) = await pairTypingThePeersCode(rig, peer)
        XCTAssertEqual(try paired.get(), ChatPeer.first, peer.output)
        XCTAssertEqual(questions.list, [.enterPasskey])
        let bond = try XCTUnwrap(rig.bonds.all.first)
        XCTAssertFalse(bond.secureConnections)
        XCTAssertTrue(bond.authenticated)
        XCTAssertNotNil(bond.ediv)
        XCTAssertNotNil(bond.rand)
        XCTAssertNotNil(bond.ltk)
        XCTAssertNotNil(peer.wait(for: { $0 == "ENCRYPTED 1" }), peer.output)
        withExtendedLifetime(questions) {}
    }

    func testSecureConnectionsPasskeyTypedHereRunsAllTwentyRounds() async throws {
        let peer = try ChatPeer(["--pairing", "display"])
        let rig = rig(peer)
        let (paired, questions) = await pairTypingThePeersCode(rig, peer)
        XCTAssertEqual(try paired.get(), ChatPeer.first, peer.output)
        let bond = try XCTUnwrap(rig.bonds.all.first)
        XCTAssertTrue(bond.secureConnections)
        XCTAssertTrue(bond.authenticated)
        XCTAssertEqual(bond.ltk, try XCTUnwrap(peerKeys(peer), peer.output).ltk)
        withExtendedLifetime(questions) {}
    }

    func testAWrongPasskeyFailsAndKeepsNothing() async throws {
        let peer = try ChatPeer(["--pairing", "display", "--legacy"])
        let rig = rig(peer)
        let questions = Questions(rig.pairer) { question in
            guard let line = peer.wait(for: { $0.hasPrefix("PASSKEY ") }), let code = UInt32(line.dropFirst(8)) else { return .declined }
            return .passkey((code + 1) % 1_000_000)
        }
        let result = await pair(rig)
        XCTAssertEqual(result, .failure(.authenticationFailed), peer.output)
        XCTAssertEqual(rig.bonds.all, [])
        XCTAssertFalse(rig.pairer.isPaired(ChatPeer.first))
        withExtendedLifetime(questions) {}
    }

    func testTheDeviceSayingNoToTheNumbersIsSaidInWords() async throws {
        let peer = try ChatPeer(["--pairing", "yesno", "--refuse"])
        let rig = rig(peer)
        let questions = Questions(rig.pairer) { _ in .confirmed }
        let result = await pair(rig)
        guard case .failure(let failure) = result else { return XCTFail("paired: \(peer.output)") }
        // Bumble says Confirm Value Failed when its user says no.
        XCTAssertEqual(failure, .authenticationFailed, peer.output)
        XCTAssertEqual(rig.bonds.all, [])
        withExtendedLifetime(questions) {}
    }

    func testSayingNoHereTellsTheDeviceAndFailsAsDeclined() async throws {
        let peer = try ChatPeer(["--pairing", "yesno"])
        let rig = rig(peer)
        let questions = Questions(rig.pairer) { _ in .declined }
        let result = await pair(rig)
        XCTAssertEqual(result, .failure(.declined))
        XCTAssertNotNil(peer.wait(for: { $0.hasPrefix("PAIRING_FAILED") }), "the device heard Pairing Failed: \(peer.output)")
        withExtendedLifetime(questions) {}
    }

    func testADeviceThatNeedsEncryptionChatsOncePaired() async throws {
        let peer = try ChatPeer(["--pairing", "keyboard-display", "--secure", "--service", "chat"])
        let rig = rig(peer)
        let questions = Questions(rig.pairer) { _ in .confirmed }
        rig.connector.connect(to: ChatPeer.first)
        await rig.log.wait(for: { if case .connected = $0 { return true } else { return false } })
        do {
            try await rig.connector.send("before")
            XCTFail("a protected characteristic took a write on a plain link")
        } catch {
            XCTAssertEqual(error, .needsPairing, "the write offers Pair instead of a dead end")
        }
        let paired = await pair(rig)
        XCTAssertEqual(try paired.get(), ChatPeer.first, peer.output)
        XCTAssertEqual(peer.lines.filter { $0.hasPrefix("CONNECTED") }.count, 1, "paired on the link there was")
        try await rig.connector.send("after")
        XCTAssertNotNil(peer.wait(for: { $0.hasPrefix("RX chat ") && $0.hasSuffix("after") }), peer.output)
        withExtendedLifetime(questions) {}
    }

    func testForgetDeletesTheBond() async throws {
        let peer = try ChatPeer(["--pairing", "none"])
        let rig = rig(peer)
        _ = try await pair(rig).get()
        XCTAssertTrue(rig.pairer.isPaired(ChatPeer.first))
        try await rig.pairer.forget(ChatPeer.first)
        XCTAssertFalse(rig.pairer.isPaired(ChatPeer.first))
        XCTAssertEqual(rig.bonds.all, [])
    }

    func testACodeShownHereIsTypedOnTheDeviceAndKeyPressesDoNotAskAgain() async throws {
        let peer = try ChatPeer(["--pairing", "keyboard"])
        let rig = rig(peer)
        let questions = Questions(rig.pairer) { question in
            if case .displayPasskey(let code, nil) = question, peer.wait(for: { $0 == "TYPE" }) != nil {
                peer.type(String(format: "%06d", code))
            }
            return nil
        }
        let paired = await pair(rig)
        XCTAssertEqual(try paired.get(), ChatPeer.first, peer.output)
        guard case .displayPasskey? = questions.list.first else { return XCTFail("\(questions.list)") }
        XCTAssertTrue(try XCTUnwrap(rig.bonds.all.first).authenticated)
        // The pairer takes the question down before `pair` returns; the feed drained, it was heard.
        await rig.pairer.prompts.applied()
        let withdrawn = questions.withdrawals > 0
        XCTAssertTrue(withdrawn, "the code is taken down once paired")
        withExtendedLifetime(questions) {}
    }

    func testADeviceThatLostItsKeyIsOfferedPairingAgain() async throws {
        let bonds = Bonds()
        let first = try ChatPeer(["--pairing", "none"])
        let earlier = rig(first, bonds: bonds)
        let paired = await pair(earlier)
        XCTAssertEqual(try paired.get(), ChatPeer.first, first.output)
        let oldKey = try XCTUnwrap(bonds.all.first?.ltk)
        try earlier.link.host().close()
        first.stop()
        // The same device, reset: it has no keys any more.
        let reset = try ChatPeer(["--pairing", "none"])
        let later = rig(reset, bonds: bonds)
        let changes = Questions(later.pairer) { _ in nil }
        XCTAssertTrue(later.pairer.isPaired(ChatPeer.first))
        later.connector.connect(to: ChatPeer.first)
        await later.log.wait(for: { if case .connected = $0 { return true } else { return false } })
        XCTAssertFalse(later.pairer.isPaired(ChatPeer.first), "a device that lost its key reads Not paired: \(reset.output)")
        // The device's refusal came before the connection was reported; the feed drained, it was heard.
        await later.pairer.prompts.applied()
        XCTAssertEqual(changes.lostKeys, [ChatPeer.first], "the pages hear why")
        let again = await pair(later)
        XCTAssertEqual(try again.get(), ChatPeer.first, reset.output)
        XCTAssertTrue(later.pairer.isPaired(ChatPeer.first))
        XCTAssertNotEqual(bonds.all.first?.ltk, oldKey, "the new bond replaced the old one")
        XCTAssertEqual(bonds.all.count, 1)
        withExtendedLifetime(changes) {}
    }

    func testCancelPairingWhileConnectingStopsAtOnce() async throws {
        let peer = try ChatPeer(["--pairing", "none"])
        let rig = rig(peer)
        let absent = try DeviceID(parsing: "F0:F1:F2:F3:F4:F9", kind: .leRandom)
        let started = Date()
        let pairer = rig.pairer
        let task = Task { () -> Result<DeviceID, PairingFailure> in
            do throws(PairingFailure) { return .success(try await pairer.pair(absent)) } catch { return .failure(error) }
        }
        await rig.log.wait(for: { $0 == .connecting(absent) })
        await rig.pairer.cancelPairing(absent)
        let outcome = await task.value
        XCTAssertEqual(outcome, .failure(.declined))
        XCTAssertLessThan(Date().timeIntervalSince(started), 8, "sooner than the 10 s connection timeout")
        let idle = await rig.log.wait(timeout: 5) { $0.states.last == .idle }
        XCTAssertTrue(idle, "the page no longer reads Connecting: \(rig.log.states)")
    }

    func testAPrivateDeviceIsPairedWhereItIsHeardAndReachedAgainAfterItRotates() async throws {
        let irk = "00112233445566778899aabbccddeeff"
        let peer = try ChatPeer(["--pairing", "none", "--irk", irk, "--private", "--rotate", "4"])
        let heard = try XCTUnwrap(peer.wait(for: { $0.hasPrefix("PRIVATE ") }))
        let rpa = try DeviceID(parsing: String(heard.dropFirst(8)), kind: .leRandom)
        XCTAssertEqual(AddressType(rpa), .resolvablePrivate)
        let rig = rig(peer)
        let paired = await pair(rig, rpa)
        XCTAssertEqual(try paired.get(), ChatPeer.first, "pairing reveals the identity behind \(rpa): \(peer.output)")
        XCTAssertEqual(rig.bonds.keyring.bond(for: rpa)?.identity, ChatPeer.first)
        let moved = await rig.log.wait(for: { if case .connected(ChatPeer.first, _) = $0 { return true } else { return false } })
        XCTAssertNotNil(moved, "the link is the identity's once pairing revealed it: \(rig.log.states)")
        rig.connector.disconnect()
        await rig.log.wait(timeout: 5) { $0.states.last == .idle }
        // The next address it takes resolves to the same identity, and the link to it is encrypted with the bond.
        let rotations = peer.lines.filter { $0.hasPrefix("ROTATED ") }.count
        let line = try XCTUnwrap(peer.wait(for: { _ in peer.lines.filter { $0.hasPrefix("ROTATED ") }.count > rotations },
                                           timeout: 10).flatMap { _ in peer.lines.last { $0.hasPrefix("ROTATED ") } })
        let now = try DeviceID(parsing: String(line.dropFirst(8)), kind: .leRandom)
        XCTAssertNotEqual(now, rpa)
        XCTAssertEqual(rig.bonds.keyring.bond(for: now)?.identity, ChatPeer.first, "\(now) resolves with the key it gave")
        rig.addresses.note(now, for: ChatPeer.first)
        rig.connector.connect(to: ChatPeer.first)
        let again = await rig.log.wait {
            $0.states.filter { if case .connected(ChatPeer.first, _) = $0 { return true } else { return false } }.count == 2
        }
        XCTAssertTrue(again, "the connection is reported under the identity: \(rig.log.states)")
        XCTAssertNotNil(peer.wait(for: { _ in peer.lines.filter { $0 == "ENCRYPTED 1" }.count == 2 }),
                        "the link to the new address is encrypted with the bond: \(peer.output)")
    }

    /// Bumble 0.0.236 cannot check the next legacy link: as a peripheral it looks up the LTK
    /// the central gave (none) instead of the one it gave itself, and refuses. The LTK, EDIV and
    /// Rand FavBlue keeps are the ones the device sent (`SMPSessionInitiatorTests`).
    func testLegacyJustWorksBondsWithoutAQuestion() async throws {
        let peer = try ChatPeer(["--pairing", "none", "--legacy"])
        let rig = rig(peer)
        let questions = Questions(rig.pairer) { _ in nil }
        let paired = await pair(rig)
        XCTAssertEqual(try paired.get(), ChatPeer.first, peer.output)
        XCTAssertEqual(questions.list, [])
        let bond = try XCTUnwrap(rig.bonds.all.first)
        XCTAssertFalse(bond.secureConnections)
        XCTAssertFalse(bond.authenticated)
        XCTAssertNotNil(peer.wait(for: { $0 == "ENCRYPTED 1" }), peer.output)
        withExtendedLifetime(questions) {}
    }

    func testADeviceThatDropsTheLinkMidPairingFailsAsGoneOutOfReach() async throws {
        let peer = try ChatPeer(["--pairing", "yesno", "--disconnect-after", "1"])
        let rig = rig(peer)
        // Nobody answers the numbers; the device drops the link meanwhile.
        let questions = Questions(rig.pairer) { _ in nil }
        let result = await pair(rig)
        XCTAssertEqual(result, .failure(.connectionLost), peer.output)
        XCTAssertEqual(rig.bonds.all, [])
        // The pairer takes the question down before `pair` returns; the feed drained, it was heard.
        await rig.pairer.prompts.applied()
        let withdrawn = questions.withdrawals > 0
        XCTAssertTrue(withdrawn, "the open question is taken down")
    }

    func testADeviceThatAsksToPairIsAskedAboutOnceAndOnceBondedItsLinkIsEncryptedWithoutAQuestion() async throws {
        let peer = try ChatPeer(["--pairing", "yesno", "--request-pairing"])
        let rig = rig(peer)
        let questions = Questions(rig.pairer) { _ in .confirmed }
        rig.connector.connect(to: ChatPeer.first)
        await rig.log.wait(for: { if case .connected = $0 { return true } else { return false } })
        XCTAssertNotNil(peer.wait(for: { $0 == "REQUESTED" }), peer.output)
        await eventually { questions.requested == [ChatPeer.first] }
        XCTAssertEqual(questions.requested, [ChatPeer.first], "the device's request reaches the user, once")
        // The user says yes: pairing runs on the link there is.
        let paired = await pair(rig)
        XCTAssertEqual(try paired.get(), ChatPeer.first, peer.output)
        XCTAssertEqual(peer.lines.filter { $0.hasPrefix("CONNECTED") }.count, 1, "paired on the link the request came over")
        // The peer keeps the bond once our keys have reached it, which may be a moment after ours is kept.
        XCTAssertNotNil(peer.wait(for: { $0.hasPrefix("PAIRED") }), peer.output)
        rig.connector.disconnect()
        await rig.log.wait(timeout: 5) { $0.states.last == .idle }
        XCTAssertNotNil(peer.wait(for: { $0.hasPrefix("DISCONNECTED") }), peer.output)
        rig.connector.connect(to: ChatPeer.first)
        let encryptions = { peer.lines.filter { $0 == "ENCRYPTED 1" }.count }
        XCTAssertNotNil(peer.wait(for: { _ in encryptions() == 2 && peer.lines.filter { $0 == "REQUESTED" }.count == 2 }),
                        "the bonded device's request is answered with encryption: \(peer.output)")
        try await Task.sleep(nanoseconds: 500_000_000)
        await rig.pairer.prompts.applied()
        XCTAssertEqual(questions.requested, [ChatPeer.first], "no question for a bonded device")
        XCTAssertEqual(peer.lines.filter { $0.hasPrefix("PAIRED") }.count, 1, peer.output)
        withExtendedLifetime(questions) {}
    }

    func testSayingNotNowToADevicesRequestTellsTheDevice() async throws {
        let peer = try ChatPeer(["--pairing", "yesno", "--request-pairing"])
        let rig = rig(peer)
        let questions = Questions(rig.pairer) { _ in nil }
        rig.connector.connect(to: ChatPeer.first)
        await eventually { questions.requested == [ChatPeer.first] }
        await rig.pairer.declineRequest(ChatPeer.first)
        XCTAssertNotNil(peer.wait(for: { $0.hasPrefix("PAIRING_FAILED") }), "the device is not left waiting: \(peer.output)")
        withExtendedLifetime(questions) {}
    }
}
