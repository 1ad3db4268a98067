// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

@testable import Bluetooth
import Domain
import Foundation
import SecurityToolbox
import TestSupport
import XCTest

/// FavBlue as the device, on its own host, against a Bumble central on the same virtual air
/// (peers/central_peer.py): the advertisement it finds byte for byte, the server it discovers,
/// reads, writes and subscribes to, and pairing with the number confirmed.
final class BumblePeripheralTests: XCTestCase {
    private var peer: ChatPeer!
    private var link: HCILink!
    private var peripheral: HCIPeripheral!
    private var events: PeripheralEventLog!
    private let bonds = BumblePairingTests.Bonds()

    /// With `hashing`, Generic Attribute has Client Supported Features and the Database Hash, as in the app.
    private func start(_ arguments: [String] = [], hashing: Bool = false) throws {
        peer = try ChatPeer(arguments, script: "central_peer.py")
        startHost(attributes: LocalAttributes(crypto: hashing ? ToolboxPairingCrypto() : nil))
    }

    /// FavBlue's host and peripheral on the central's controller, with the bonds kept so far
    /// (again after `link.close()`: FavBlue started anew).
    private func startHost(attributes: LocalAttributes) {
        let port = peer.port
        let debug: @Sendable (String) -> Void = { line in
            if ProcessInfo.processInfo.environment["FAVBLUE_DEBUG"] != nil { FileHandle.standardError.write(Data((line + "\n").utf8)) }
        }
        link = HCILink(open: { () throws(ScanFailure) -> HCITransport in try TransportOpener.tcp(host: "127.0.0.1", port: port) },
                       attributes: attributes, log: debug)
        let bonds = bonds
        let security = HCISecurity(crypto: ToolboxPairingCrypto(), keyring: bonds.keyring, keep: { bonds.keep($0) }, forget: { bonds.forget($0) })
        peripheral = HCIPeripheral(link: link, security: security, log: debug)
        events = PeripheralEventLog(peripheral.events)
    }

    /// The central takes notifications at the heart-rate measurement's value without writing its
    /// configuration, and FavBlue's Send of `value` reaches it: a subscription that held.
    private func assertNotifiedWithoutSubscribing(_ value: [UInt8]) async throws {
        let handle = try XCTUnwrap(peripheral.servedTree.flatMap(\.characteristics).first { $0.uuid == BluetoothUUID(0x2A37) }?.valueHandle)
        peer.type("LISTEN \(handle)")
        XCTAssertNotNil(peer.wait(for: { $0 == "LISTENING \(handle)" }, timeout: 15), peer.output)
        let sent = await peripheral.send(value, of: ServedCharacteristicID(service: 0, characteristic: 0))
        XCTAssertEqual(sent, 1, "sent to the bonded central")
        XCTAssertNotNil(peer.wait(for: { $0 == "HEARD \(handle) \(Hex.lower(value))" }, timeout: 15),
                        "notified without subscribing again: \(peer.output)")
    }

    override func tearDown() {
        link?.close()
        peer?.stop()
    }

    /// Scans until FavBlue's advertisement with `hex` appears; returns the address it came from.
    /// (The report's kind is the central's controller's choice, not what FavBlue sent.)
    /// The address advertising `hex`, other than `other` (an original advertising the same bytes as its clone).
    private func find(_ hex: String, other: String? = nil) throws -> String {
        peer.type("SCAN")
        let line = try XCTUnwrap(peer.wait(for: { line in
            line.hasPrefix("ADV ") && line.hasSuffix(" \(hex)") && other.map { !line.hasPrefix("ADV \($0) ") } ?? true
        }, timeout: 15), "no advertisement \(hex): \(peer.output)")
        let words = line.split(separator: " ")
        peer.type("STOPSCAN")
        return String(words[1])
    }

    /// Advertises the heart-rate server and has the central find it and connect; returns the
    /// address it connected to.
    private func advertiseAndConnect() async throws -> String {
        let ad = AdvertisingPreset.heartRate.advertisement(name: "FavBlue Pulse")
        try await peripheral.startAdvertising(ad)
        let address = try find(Hex.lower(ad.data.encoded))
        peer.type("CONNECT \(address)")
        XCTAssertNotNil(peer.wait(for: { $0 == "CONNECTED \(address)" }, timeout: 15), peer.output)
        return address
    }

    /// The same, then the central starts pairing.
    private func advertiseConnectAndPair() async throws -> String {
        let address = try await advertiseAndConnect()
        peer.type("PAIR")
        return address
    }

    /// The central drops the link, connects again and asks for encryption with the bond.
    private func connectAgainAndEncrypt(_ address: String) {
        peer.type("DISCONNECT")
        XCTAssertNotNil(peer.wait(for: { $0.hasPrefix("DISCONNECTED") }), peer.output)
        peer.type("CONNECT \(address)")
        XCTAssertNotNil(peer.wait(for: { $0 == "CONNECTED \(address)" }, timeout: 15), peer.output)
        peer.type("ENCRYPT")
    }

    private static let heart = ServerSetup(name: "FavBlue Pulse", appearance: 0x0340, services: [
        ServedService(uuid: BluetoothUUID(0x180D), characteristics: [
            ServedCharacteristic(uuid: BluetoothUUID(0x2A37), properties: [.notify], value: [0x00, 60]),
            ServedCharacteristic(uuid: BluetoothUUID(0x2A38), properties: [.read], value: [0x01]),
        ]),
        ServedService(uuid: BluetoothUUID("5E7F3000-1C2B-4A5D-8E9F-0A1B2C3D4E5F")!, characteristics: [
            ServedCharacteristic(uuid: BluetoothUUID("5E7F3001-1C2B-4A5D-8E9F-0A1B2C3D4E5F")!, properties: [.read, .write, .writeWithoutResponse],
                                 value: Array("hello".utf8), userDescription: "Greeting"),
            ServedCharacteristic(uuid: BluetoothUUID("5E7F3002-1C2B-4A5D-8E9F-0A1B2C3D4E5F")!, properties: [.indicate]),
            ServedCharacteristic(uuid: BluetoothUUID("5E7F3003-1C2B-4A5D-8E9F-0A1B2C3D4E5F")!, properties: [.read],
                                 readSecurity: .encrypted, value: Array("secret".utf8)),
        ]),
    ])

    func testALegacyAdvertisementIsFoundWithTheExactBytesConfigured() async throws {
        try start(["--legacy"])
        let ad = Advertisement(label: "Test", data: AdvertisingFields(flags: 0x06, localName: "FavBlue Test",
                                                                     serviceUUIDs: [BluetoothUUID(0x180D)]))
        try await peripheral.startAdvertising(ad)
        let address = try find(Hex.lower(ad.data.encoded))
        XCTAssertTrue(address.hasPrefix("F") || address.hasPrefix("C") || address.hasPrefix("D") || address.hasPrefix("E"),
                      "a static random address: \(address)")
        let facts = try await peripheral.adapterFacts()
        XCTAssertEqual(facts.features[.extendedAdvertising], false, "so FavBlue sent it with the legacy commands")
        XCTAssertEqual(facts.limits.maximumExtendedLength, 31)
    }

    func testAnExtendedAdvertisementCarriesMoreThanALegacyOneHolds() async throws {
        try start()
        let facts = try await peripheral.adapterFacts()
        XCTAssertEqual(facts.features[.extendedAdvertising], true)
        XCTAssertEqual(facts.maximumAdvertisingLength, 0x0672, "LE Read Maximum Advertising Data Length, as the controller says")
        let ad = Advertisement(label: "Long", kind: .nonConnectable, extended: true,
                               data: AdvertisingFields(localName: "FavBlue Extended",
                                                       manufacturerData: [ManufacturerField(companyID: 0xFFFF, data: (0..<150).map { UInt8($0) })]))
        try await peripheral.startAdvertising(ad)
        _ = try find(Hex.lower(ad.data.encoded))
        // A second advertisement beside it, in a set of its own.
        let second = Advertisement(label: "Second", kind: .nonConnectable, extended: true, data: AdvertisingFields(localName: "Second set"))
        try await peripheral.startAdvertising(second)
        _ = try find(Hex.lower(second.data.encoded))
    }

    func testACentralDiscoversTheServerAsConfiguredReadsWritesAndIsSentWhatTheUserSends() async throws {
        try start()
        try await peripheral.serve(Self.heart)
        _ = try await advertiseAndConnect()
        peer.type("MTU 247")
        XCTAssertNotNil(peer.wait(for: { $0 == "MTU 247" }), peer.output)

        peer.type("DUMP")
        let dump = try XCTUnwrap(peer.wait(for: { $0.hasPrefix("DUMP ") }, timeout: 15), peer.output)
        let theirs = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(dump.dropFirst(5).utf8)) as? [[Any]])
        XCTAssertEqual(theirs.map { "\($0[0]) \($0[1])" }, Self.table(peripheral.servedTree), "the central's dump is the served tree")
        XCTAssertEqual(theirs.filter { $0[1] as? String == "2800" }.map { $0[2] as? String },
                       ["1800", "1801", "180D", "5E7F3000-1C2B-4A5D-8E9F-0A1B2C3D4E5F"])

        let greeting = "5E7F3001-1C2B-4A5D-8E9F-0A1B2C3D4E5F"
        peer.type("READ \(greeting)")
        XCTAssertNotNil(peer.wait(for: { $0 == "VALUE \(greeting) \(Hex.lower(Array("hello".utf8)))" }), peer.output)
        let long = (0..<400).map { UInt8($0 % 251) }
        peer.type("WRITE \(greeting) \(Hex.lower(long))")
        XCTAssertNotNil(peer.wait(for: { $0 == "WROTE \(greeting)" }), peer.output)
        peer.type("READ \(greeting)")
        XCTAssertNotNil(peer.wait(for: { $0 == "VALUE \(greeting) \(Hex.lower(long))" }), "a long value, written in parts and read back whole")
        peer.type("WRITE \(greeting) 3c623e6869 cmd")
        await events.wait { if case .wrote(_, _, Array("<b>hi".utf8), false) = $0 { return true } else { return false } }

        peer.type("SUBSCRIBE 2A37")
        XCTAssertNotNil(peer.wait(for: { $0 == "SUBSCRIBED 2A37" }), peer.output)
        peer.type("SUBSCRIBE 5E7F3002-1C2B-4A5D-8E9F-0A1B2C3D4E5F indicate")
        XCTAssertNotNil(peer.wait(for: { $0 == "SUBSCRIBED 5E7F3002-1C2B-4A5D-8E9F-0A1B2C3D4E5F" }), peer.output)
        let sent = await peripheral.send([0x00, 72], of: ServedCharacteristicID(service: 0, characteristic: 0))
        XCTAssertEqual(sent, 1)
        XCTAssertNotNil(peer.wait(for: { $0 == "NOTIFIED 2A37 0048" }), peer.output)
        for n in 1...3 { await peripheral.send([UInt8(n)], of: ServedCharacteristicID(service: 1, characteristic: 1)) }
        for n in 1...3 {
            XCTAssertNotNil(peer.wait(for: { $0 == "NOTIFIED 5E7F3002-1C2B-4A5D-8E9F-0A1B2C3D4E5F 0\(n)" }), "indication \(n), each after its confirmation")
        }
        await events.wait { if case .confirmed(_, ServedCharacteristicID(service: 1, characteristic: 1)) = $0 { return true } else { return false } }

        peer.type("READ 5E7F3003-1C2B-4A5D-8E9F-0A1B2C3D4E5F")
        XCTAssertNotNil(peer.wait(for: { $0 == "ERROR 5E7F3003-1C2B-4A5D-8E9F-0A1B2C3D4E5F 0f" }), "an open link is refused: \(peer.output)")
        peer.type("RAWREAD 0")
        XCTAssertNotNil(peer.wait(for: { $0 == "RESPONSE 010a000001" }), "handle 0: Invalid Handle")

        let seen = events.all
        XCTAssertTrue(seen.contains { if case .connected = $0 { return true } else { return false } })
        XCTAssertTrue(seen.contains { if case .mtu(_, 247) = $0 { return true } else { return false } })
        XCTAssertTrue(seen.contains { if case .subscribed(_, ServedCharacteristicID(service: 0, characteristic: 0), false) = $0 { return true } else { return false } })
        peer.type("DISCONNECT")
        await events.wait { if case .disconnected = $0 { return true } else { return false } }
    }

    func testPairingWithTheNumberConfirmedKeepsABondThatEncryptsTheNextLink() async throws {
        try start()
        try await peripheral.serve(Self.heart)
        let asked = Asked()
        peripheral.ask = { prompt in
            asked.add(prompt.question)
            if case .confirm = prompt.question { prompt.answer(.confirmed) }
        }
        let address = try await advertiseConnectAndPair()
        let compare = try XCTUnwrap(peer.wait(for: { $0.hasPrefix("COMPARE ") }, timeout: 15), peer.output)
        XCTAssertNotNil(peer.wait(for: { $0 == "PAIRED" }, timeout: 15), peer.output)
        XCTAssertEqual(asked.all.compactMap { if case .confirm(let n) = $0 { return String(format: "%06d", n) } else { return nil } },
                       [String(compare.dropFirst(8))], "FavBlue's user was asked about the number the central shows")
        await events.wait { if case .encrypted(_, true) = $0 { return true } else { return false } }
        let bond = try XCTUnwrap(bonds.all.first)
        XCTAssertEqual(bond.identity.address, "F0:F1:F2:F3:F4:F9", "the central's identity")
        XCTAssertTrue(bond.authenticated)
        XCTAssertTrue(bond.secureConnections)

        connectAgainAndEncrypt(address)
        XCTAssertNotNil(peer.wait(for: { $0 == "ENCRYPTED" }, timeout: 15), "the bond's key, asked for by the controller: \(peer.output)")
        peer.type("DUMP")
        XCTAssertNotNil(peer.wait(for: { $0.hasPrefix("DUMP ") }, timeout: 15))
        peer.type("READ 5E7F3003-1C2B-4A5D-8E9F-0A1B2C3D4E5F")
        XCTAssertNotNil(peer.wait(for: { $0 == "VALUE 5E7F3003-1C2B-4A5D-8E9F-0A1B2C3D4E5F \(Hex.lower(Array("secret".utf8)))" }),
                        "the value that needs encryption, on the encrypted link: \(peer.output)")
    }

    /// Robust caching (Vol 3, Part G, §2.5.2.1), as a phone uses it: a bonded central sets it, and
    /// comes back after the user changed what is served. Its first read on a handle it kept is
    /// answered Database Out Of Sync, so it does not take another attribute's value for the one it
    /// knew; its next read is served.
    func testABondedCentralBackAfterTheServerChangedIsToldOnceItIsOutOfSync() async throws {
        try start(hashing: true)
        try await peripheral.serve(Self.heart)
        peripheral.ask = { prompt in if case .confirm = prompt.question { prompt.answer(.confirmed) } }
        let address = try await advertiseConnectAndPair()
        XCTAssertNotNil(peer.wait(for: { $0 == "PAIRED" }, timeout: 15), peer.output)
        peer.type("WRITE 2B29 01")
        XCTAssertNotNil(peer.wait(for: { $0 == "WROTE 2B29" }, timeout: 15), "robust caching set: \(peer.output)")

        var changed = Self.heart
        changed.services.insert(ServedService(uuid: BluetoothUUID(0x180F), characteristics: [
            ServedCharacteristic(uuid: BluetoothUUID(0x2A19), properties: [.read], value: [87]),
        ]), at: 0)
        try await peripheral.serve(changed)
        let location = try XCTUnwrap(peripheral.servedTree.flatMap(\.characteristics).first { $0.uuid == BluetoothUUID(0x2A38) }?.valueHandle)
        connectAgainAndEncrypt(address)
        XCTAssertNotNil(peer.wait(for: { $0 == "ENCRYPTED" }, timeout: 15), peer.output)
        let handle = Hex.lower(HCICommand.le16(location))
        peer.type("RAWREAD \(location)")
        XCTAssertNotNil(peer.wait(for: { $0 == "RESPONSE 010a\(handle)12" }, timeout: 15), "Database Out Of Sync: \(peer.output)")
        await events.wait {
            if case .refused(_, "What is served changed since it last connected, so it was told to find the services again.") = $0 { true } else { false }
        }
        peer.type("RAWREAD \(location)")
        XCTAssertNotNil(peer.wait(for: { $0 == "RESPONSE 0b01" }, timeout: 15), "then the Body Sensor Location: \(peer.output)")

        // A central that comes back to the database it knew is served at once.
        let peer = try XCTUnwrap(self.peer)
        func count(_ line: String) -> Int { peer.lines.filter { $0 == line }.count }
        connectAgainAndEncrypt(address)
        XCTAssertNotNil(peer.wait(for: { _ in count("ENCRYPTED") == 2 }, timeout: 15), peer.output)
        peer.type("RAWREAD \(location)")
        XCTAssertNotNil(peer.wait(for: { _ in count("RESPONSE 0b01") == 2 }, timeout: 15), "aware since its last link: \(peer.output)")
        XCTAssertEqual(count("RESPONSE 010a\(handle)12"), 1, "told once")
    }

    /// A bonded central's subscriptions persist across connections (Vol 3, Part G, §3.3.3.3), as
    /// a phone expects: it subscribes once, comes back, and is notified with no configuration
    /// written again; the page counts it as subscribed on its new link.
    func testABondedCentralIsNotifiedOnItsNextLinkWithoutSubscribingAgain() async throws {
        try start()
        try await peripheral.serve(Self.heart)
        peripheral.ask = { prompt in if case .confirm = prompt.question { prompt.answer(.confirmed) } }
        let address = try await advertiseConnectAndPair()
        XCTAssertNotNil(peer.wait(for: { $0 == "PAIRED" }, timeout: 15), peer.output)
        peer.type("SUBSCRIBE 2A37")
        XCTAssertNotNil(peer.wait(for: { $0 == "SUBSCRIBED 2A37" }, timeout: 15), peer.output)
        let measurement = ServedCharacteristicID(service: 0, characteristic: 0)
        func subscriptions() -> Int {
            events.all.filter { if case .subscribed(_, measurement, false) = $0 { true } else { false } }.count
        }
        let wait = await events.waitFor { _ in subscriptions() == 1 }
        XCTAssertTrue(wait, "subscribed on the first link")

        connectAgainAndEncrypt(address)
        XCTAssertNotNil(peer.wait(for: { $0 == "ENCRYPTED" }, timeout: 15), peer.output)
        let held = await events.waitFor { _ in subscriptions() == 2 }
        XCTAssertTrue(held, "the subscription held on the new link: \(events.all)")
        try await assertNotifiedWithoutSubscribing([0x00, 72])
    }

    /// The same across a restart of FavBlue: what its server kept of the bonded central is stored
    /// as the link ends and read back by the next host, so the phone is notified without
    /// subscribing again.
    func testABondedCentralIsNotifiedAfterFavBlueRestartsWithoutSubscribingAgain() async throws {
        let shelf = ServedClientsShelf()
        try start()
        link.attributes.keeping(shelf.keep)
        try await peripheral.serve(Self.heart)
        peripheral.ask = { prompt in if case .confirm = prompt.question { prompt.answer(.confirmed) } }
        _ = try await advertiseConnectAndPair()
        let peer = try XCTUnwrap(self.peer)
        XCTAssertNotNil(peer.wait(for: { $0 == "PAIRED" }, timeout: 15), peer.output)
        peer.type("SUBSCRIBE 2A37")
        XCTAssertNotNil(peer.wait(for: { $0 == "SUBSCRIBED 2A37" }, timeout: 15), peer.output)
        peer.type("DISCONNECT")
        XCTAssertNotNil(peer.wait(for: { $0.hasPrefix("DISCONNECTED") }), peer.output)
        let stored = await events.waitFor { _ in !shelf.all.isEmpty }
        XCTAssertTrue(stored, "kept as the link ended")

        // FavBlue starts again on the same controller, with the same bonds and what was stored.
        link.close()
        let restarted = LocalAttributes()
        restarted.restore(shelf.all)
        startHost(attributes: restarted)
        try await peripheral.serve(Self.heart)
        _ = try await advertiseAndConnect()
        peer.type("ENCRYPT")
        XCTAssertNotNil(peer.wait(for: { $0 == "ENCRYPTED" }, timeout: 15), peer.output)
        let measurement = ServedCharacteristicID(service: 0, characteristic: 0)
        let held = await events.waitFor { if case .subscribed(_, measurement, false) = $0 { true } else { false } }
        XCTAssertTrue(held, "the subscription held across the restart: \(events.all)")
        try await assertNotifiedWithoutSubscribing([0x00, 75])
    }

    /// A bonded central that subscribed to Service Changed, back after what is served changed, is
    /// told the whole range changed (Vol 3, Part G, §7.1), as Android expects of a device it
    /// caches; back to the database it knew, it is told nothing.
    func testABondedCentralSubscribedToServiceChangedIsToldOnItsNextLinkWhenTheServerChanged() async throws {
        try start(hashing: true)
        try await peripheral.serve(Self.heart)
        peripheral.ask = { prompt in if case .confirm = prompt.question { prompt.answer(.confirmed) } }
        let address = try await advertiseConnectAndPair()
        let peer = try XCTUnwrap(self.peer)
        XCTAssertNotNil(peer.wait(for: { $0 == "PAIRED" }, timeout: 15), peer.output)
        peer.type("SUBSCRIBE 2A05 indicate")
        XCTAssertNotNil(peer.wait(for: { $0 == "SUBSCRIBED 2A05" }, timeout: 15), peer.output)
        peer.type("LOUD")
        XCTAssertNotNil(peer.wait(for: { $0 == "LOUD" }, timeout: 15), peer.output)
        let serviceChanged = try XCTUnwrap(peripheral.servedTree.flatMap(\.characteristics).first { $0.uuid == BluetoothUUID(0x2A05) }?.valueHandle)
        func count(_ line: String) -> Int { peer.lines.filter { $0 == line }.count }

        // The same database: a read answered after the encryption shows nothing came before it.
        let location = try XCTUnwrap(peripheral.servedTree.flatMap(\.characteristics).first { $0.uuid == BluetoothUUID(0x2A38) }?.valueHandle)
        connectAgainAndEncrypt(address)
        XCTAssertNotNil(peer.wait(for: { _ in count("ENCRYPTED") == 1 }, timeout: 15), peer.output)
        peer.type("RAWREAD \(location)")
        XCTAssertNotNil(peer.wait(for: { $0 == "RESPONSE 0b01" }, timeout: 15), peer.output)
        XCTAssertFalse(peer.lines.contains { $0.hasPrefix("INDICATED") }, "nothing changed, nothing told: \(peer.output)")

        var changed = Self.heart
        changed.services.insert(ServedService(uuid: BluetoothUUID(0x180F), characteristics: [
            ServedCharacteristic(uuid: BluetoothUUID(0x2A19), properties: [.read], value: [87]),
        ]), at: 0)
        try await peripheral.serve(changed)
        connectAgainAndEncrypt(address)
        XCTAssertNotNil(peer.wait(for: { _ in count("ENCRYPTED") == 2 }, timeout: 15), peer.output)
        XCTAssertNotNil(peer.wait(for: { $0 == "INDICATED \(serviceChanged) 0100ffff" }, timeout: 15),
                        "Service Changed, 0x0001 to 0xFFFF: \(peer.output)")

        // Confirmed, it knows this database: its next link is told nothing.
        let moved = try XCTUnwrap(peripheral.servedTree.flatMap(\.characteristics).first { $0.uuid == BluetoothUUID(0x2A38) }?.valueHandle)
        connectAgainAndEncrypt(address)
        XCTAssertNotNil(peer.wait(for: { _ in count("ENCRYPTED") == 3 }, timeout: 15), peer.output)
        peer.type("RAWREAD \(moved)")
        XCTAssertNotNil(peer.wait(for: { _ in count("RESPONSE 0b01") == 2 }, timeout: 15), peer.output)
        XCTAssertEqual(peer.lines.filter { $0.hasPrefix("INDICATED") }.count, 1, "told once: \(peer.output)")
    }

    /// A central from before Secure Connections pairs the legacy way (Vol 3, Part H, §2.3.5.5),
    /// as BlueZ lets older phones: FavBlue's user types the code the central shows, FavBlue gives
    /// its own key, and the bond, marked as made the older way, encrypts the next link.
    func testACentralWithoutSecureConnectionsPairsTheLegacyWayWithTheCodeItShows() async throws {
        try start(["--legacy-pairing", "--io", "display"])
        try await peripheral.serve(Self.heart)
        let asked = Asked()
        let peer = peer!
        peripheral.ask = { prompt in
            asked.add(prompt.question)
            guard case .enterPasskey = prompt.question else { return }
            // FavBlue's user reads the code off the central's screen and types it.
            Thread.detachNewThread {
                guard let shown = peer.wait(for: { $0.hasPrefix("PASSKEY ") }, timeout: 15), let code = UInt32(shown.dropFirst(8)) else { return }
                prompt.answer(.passkey(code))
            }
        }
        let address = try await advertiseConnectAndPair()
        XCTAssertNotNil(peer.wait(for: { $0 == "PAIRED" }, timeout: 20), peer.output)
        XCTAssertTrue(asked.all.contains { if case .enterPasskey = $0 { return true } else { return false } }, "\(asked.all)")
        await events.wait { if case .encrypted(_, true) = $0 { return true } else { return false } }
        let bond = try XCTUnwrap(bonds.all.first)
        XCTAssertFalse(bond.secureConnections, "a legacy bond")
        XCTAssertTrue(bond.authenticated, "made with a code")
        XCTAssertNotNil(bond.ediv, "the key FavBlue gave, told apart by its EDIV and Rand")

        connectAgainAndEncrypt(address)
        XCTAssertNotNil(peer.wait(for: { $0 == "ENCRYPTED" }, timeout: 15), "the key FavBlue gave, asked for by EDIV and Rand: \(peer.output)")
        peer.type("READ 5E7F3003-1C2B-4A5D-8E9F-0A1B2C3D4E5F")
        XCTAssertNotNil(peer.wait(for: { $0 == "VALUE 5E7F3003-1C2B-4A5D-8E9F-0A1B2C3D4E5F \(Hex.lower(Array("secret".utf8)))" }),
                        peer.output)
    }

    func testALegacyCentralWithoutInputOrOutputPairsWithoutACode() async throws {
        try start(["--legacy-pairing", "--io", "none"])
        try await peripheral.serve(Self.heart)
        let asked = Asked()
        peripheral.ask = { asked.add($0.question) }
        let address = try await advertiseConnectAndPair()
        XCTAssertNotNil(peer.wait(for: { $0 == "PAIRED" }, timeout: 20), peer.output)
        await events.wait { if case .encrypted(_, false) = $0 { return true } else { return false } }
        let bond = try XCTUnwrap(bonds.all.first)
        XCTAssertFalse(bond.secureConnections)
        XCTAssertFalse(bond.authenticated, "Just Works protects against no one in the middle")
        XCTAssertTrue(asked.all.isEmpty, "nothing to ask: \(asked.all)")
    }

    /// Two centrals at once, each subscribed to its own characteristic: each gets only what it
    /// asked for, and every event names the central it came from.
    func testTwoCentralsAtOnceEachGetTheirOwnNotificationsAndEvents() async throws {
        try start(["--centrals", "2"])
        try await peripheral.serve(Self.heart)
        let address = try await advertiseAndConnect()
        peer.type("2 CONNECT \(address)")
        XCTAssertNotNil(peer.wait(for: { $0 == "2 CONNECTED \(address)" }, timeout: 20), peer.output)
        let indicating = "5E7F3002-1C2B-4A5D-8E9F-0A1B2C3D4E5F"
        peer.type("SUBSCRIBE 2A37")
        peer.type("2 SUBSCRIBE \(indicating) indicate")
        XCTAssertNotNil(peer.wait(for: { $0 == "SUBSCRIBED 2A37" }, timeout: 15), peer.output)
        XCTAssertNotNil(peer.wait(for: { $0 == "2 SUBSCRIBED \(indicating)" }, timeout: 15), peer.output)
        let heartRate = ServedCharacteristicID(service: 0, characteristic: 0), alert = ServedCharacteristicID(service: 1, characteristic: 1)
        let toHeartRate = await peripheral.send([0x00, 72], of: heartRate)
        let toAlert = await peripheral.send(Array("ring".utf8), of: alert)
        XCTAssertEqual(toHeartRate, 1, "one central follows the heart rate")
        XCTAssertEqual(toAlert, 1, "and the other the alert")
        XCTAssertNotNil(peer.wait(for: { $0 == "NOTIFIED 2A37 0048" }), peer.output)
        XCTAssertNotNil(peer.wait(for: { $0 == "2 NOTIFIED \(indicating) \(Hex.lower(Array("ring".utf8)))" }), peer.output)
        let confirmed = await events.waitFor { if case .confirmed(_, alert) = $0 { return true } else { return false } }
        XCTAssertTrue(confirmed, "the indication was confirmed")
        XCTAssertFalse(peer.lines.contains { $0.hasPrefix("NOTIFIED \(indicating)") }, "the first central never asked for the alert")
        XCTAssertFalse(peer.lines.contains { $0.hasPrefix("2 NOTIFIED 2A37") }, "the second never asked for the heart rate")
        let subscriptions = events.all.compactMap { event -> (String?, ServedCharacteristicID, Bool)? in
            if case .subscribed(let central, let id, let indicate) = event { return (central.address, id, indicate) }
            return nil
        }
        XCTAssertEqual(subscriptions.count, 2, "\(subscriptions)")
        XCTAssertTrue(subscriptions.contains { $0 == ("F0:F1:F2:F3:F4:F9", heartRate, false) }, "\(subscriptions)")
        XCTAssertTrue(subscriptions.contains { $0 == ("F0:F1:F2:F3:F4:FA", alert, true) }, "\(subscriptions)")
    }

    func testACentralThatConnectsAndDrops1000TimesLeavesNothingBehind() async throws {
        try start()
        let ad = AdvertisingPreset.battery.advertisement(name: "Cycler")
        try await peripheral.serve(AdvertisingPreset.battery.server(name: "Cycler")!)
        try await peripheral.startAdvertising(ad)
        let address = try find(Hex.lower(ad.data.encoded))
        peer.type("CYCLE \(address) 1000")
        XCTAssertNotNil(peer.wait(for: { $0 == "CYCLED 1000" }, timeout: 400), peer.output.suffix(2000).description)
        XCTAssertEqual(peripheral.lock.withLock { peripheral.links.count }, 0, "every link gone with its Disconnection Complete")
        peer.type("CONNECT \(address)")
        XCTAssertNotNil(peer.wait(for: { $0 == "CONNECTED \(address)" }, timeout: 15), "still advertising, still accepting: \(peer.output.suffix(500))")
        peer.type("READ 2A19")
        _ = peer.wait(for: { $0.hasPrefix("VALUE 2A19") || $0.hasPrefix("EXCEPTION") })
    }

    /// Clone This Device, end to end on one controller: FavBlue connects to Bumble's "Original" as a
    /// central, reads what it can, serves the copy as a peripheral beside that link, and a Bumble
    /// central finds the copy advertising the original's bytes and dumps the same tree and values.
    func testACloneDumpsAndReadsAsTheOriginalDoes() async throws {
        try start(["--original"])
        let source = ScanSource.h4TCP(host: "127.0.0.1", port: peer.port)
        let scanner = ScannerFactory.make(source, demoCapture: nil, link: link)
        let original = try DeviceID(parsing: "F0:F1:F2:F3:F4:F8", kind: .leRandom)
        let heard = Task { () -> [UInt8] in
            for await o in scanner.observations where o.id == original && !o.isScanResponse && !o.rawData.isEmpty { return o.rawData }
            return []
        }
        scanner.start()
        let advertising = await heard.value
        scanner.stop()
        XCTAssertFalse(advertising.isEmpty)

        let connector = HCILinkConnector(link: link)
        let log = EventLog(connector)
        connector.connect(to: original)
        await log.wait(for: { if case .connected = $0 { return true } else { return false } })
        let tree = try await connector.discoverServices()
        var values: [UInt16: [UInt8]] = [:]
        for c in tree.flatMap(\.characteristics) {
            if c.properties.contains(.read) { values[c.valueHandle] = try? await connector.readValue(at: c.valueHandle) }
            for d in c.descriptors where d.uuid != BluetoothUUID(0x2902) { values[d.handle] = try? await connector.readValue(at: d.handle) }
        }
        // The original advertises again once FavBlue lets go of it, for the central to dump it too.
        connector.disconnect()
        await log.wait(for: { $0 == .idle })
        let clone = PeripheralClone.make(name: "Original", services: tree, values: values, advertising: advertising,
                                         scanResponse: [], connectable: true)
        XCTAssertEqual(clone.advertisements.first?.data.encoded, advertising, "the original's bytes, field by field")
        try await peripheral.serve(try XCTUnwrap(clone.server))
        try await peripheral.startAdvertising(try XCTUnwrap(clone.advertisements.first))

        func dump(_ address: String) throws -> [String] {
            peer.type("CONNECT \(address)")
            XCTAssertNotNil(peer.wait(for: { $0 == "CONNECTED \(address)" }, timeout: 15), peer.output)
            let before = peer.lines.filter { $0.hasPrefix("DUMP ") }.count
            peer.type("DUMP")
            let deadline = Date().addingTimeInterval(15)
            while peer.lines.filter({ $0.hasPrefix("DUMP ") }).count == before, Date() < deadline {
                // Polls the central's output, not a fixed wait.
                Thread.sleep(forTimeInterval: 0.05)
            }
            let line = try XCTUnwrap(peer.lines.filter { $0.hasPrefix("DUMP ") }.last)
            for uuid in ["2A19", "5E7F2001-1C2B-4A5D-8E9F-0A1B2C3D4E5F", "5E7F2003-1C2B-4A5D-8E9F-0A1B2C3D4E5F"] {
                let count = peer.lines.filter { $0.hasPrefix("VALUE \(uuid) ") }.count
                peer.type("READ \(uuid)")
                _ = peer.wait(for: { _ in self.peer.lines.filter { $0.hasPrefix("VALUE \(uuid) ") }.count > count })
            }
            peer.type("DISCONNECT")
            _ = peer.wait(for: { _ in self.peer.lines.filter { $0.hasPrefix("DISCONNECTED") }.count > 0 })
            return [line]
        }
        // The original advertises the same bytes again: the copy is the other address sending them.
        let copy = try find(Hex.lower(advertising), other: "F0:F1:F2:F3:F4:F8")
        XCTAssertNotEqual(copy, "F0:F1:F2:F3:F4:F8", "the copy, from FavBlue's own address")
        let theirs = try dump("F0:F1:F2:F3:F4:F8")
        let ours = try dump(copy)
        XCTAssertEqual(ours, theirs, "the copy's GATT dump is the original's")
        for uuid in ["2A19", "5E7F2001-1C2B-4A5D-8E9F-0A1B2C3D4E5F", "5E7F2003-1C2B-4A5D-8E9F-0A1B2C3D4E5F"] {
            let read = peer.lines.filter { $0.hasPrefix("VALUE \(uuid) ") }
            XCTAssertEqual(read.count, 2, "read from both")
            XCTAssertEqual(Set(read).count, 1, "the same value from both: \(read)")
        }
    }

    /// The central's GATT dump as FavBlue's served tree says it: handle and type.
    static func table(_ tree: [GATTService]) -> [String] {
        var out: [String] = []
        for service in tree {
            out.append("\(service.start) 2800")
            for c in service.characteristics {
                out.append("\(c.handle) 2803")
                out.append("\(c.valueHandle) \(c.uuid)")
                out += c.descriptors.map { "\($0.handle) \($0.uuid)" }
            }
        }
        return out
    }
}

extension PeripheralEventLog {
    /// Waits up to `timeout` seconds for an event matching `match`; fails the test if none comes.
    func wait(timeout: Double = 10, file: StaticString = #filePath, line: UInt = #line, for match: (PeripheralEvent) -> Bool) async {
        if await waitFor(timeout: timeout, match) { return }
        XCTFail("no such event among \(all)", file: file, line: line)
    }
}

/// The pairing questions asked.
final class Asked: @unchecked Sendable {
    private let lock = NSLock()
    private var questions: [PairingQuestion] = []
    func add(_ q: PairingQuestion) { lock.withLock { questions.append(q) } }
    var all: [PairingQuestion] { lock.withLock { questions } }
}
