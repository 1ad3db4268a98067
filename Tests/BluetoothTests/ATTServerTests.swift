// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

@testable import Bluetooth
import Domain
import SecurityToolbox
import TestSupport
import XCTest

/// FavBlue's ATT server, request by request, against the Core's rules (Vol 3, Part F, §3.4):
/// what a central is answered, and what a stranger's malformed PDU gets.
final class ATTServerTests: XCTestCase {
    private let vendor = BluetoothUUID("5E7F1000-1C2B-4A5D-8E9F-0A1B2C3D4E5F")!
    private func vendor(_ n: Int) -> BluetoothUUID { BluetoothUUID(String(format: "5E7F%04X-1C2B-4A5D-8E9F-0A1B2C3D4E5F", 0x1000 + n))! }

    private func server() throws -> ATTServer {
        let setup = ServerSetup(name: "Bench", appearance: 0x0340, services: [
            ServedService(uuid: BluetoothUUID(0x180F), characteristics: [
                ServedCharacteristic(uuid: BluetoothUUID(0x2A19), properties: [.read, .notify], value: [87]),
            ]),
            ServedService(uuid: vendor, characteristics: [
                ServedCharacteristic(uuid: vendor(1), properties: [.read, .write, .writeWithoutResponse, .indicate],
                                     value: Array("hello".utf8), maximumLength: 300, userDescription: "Greeting"),
                ServedCharacteristic(uuid: vendor(2), properties: [.read], readSecurity: .encrypted, value: [1]),
                ServedCharacteristic(uuid: vendor(3), properties: [.read, .write], writeSecurity: .authenticated, value: [2]),
                ServedCharacteristic(uuid: vendor(4), properties: [.read], value: (0..<300).map { UInt8($0 % 256) }),
            ]),
        ])
        return ATTServer(database: try AttributeDatabase(setup))
    }

    /// 1 GAP, 2–3 name, 4–5 appearance, 6 GATT, 7–8 Service Changed, 9 its CCCD, 10 Battery,
    /// 11–12 level, 13 CCCD, 14 vendor, 15–16 greeting, 17 CCCD, 18 description, 19–20, 21–22, 23–24.
    func testTheDatabaseIsGenericAccessAndAttributeThenTheSetupHandleByHandle() throws {
        let tree = try server().database.tree
        XCTAssertEqual(tree.map { "\($0.uuid) \($0.start)–\($0.end)" },
                       ["1800 1–5", "1801 6–9", "180F 10–13", "5E7F1000-1C2B-4A5D-8E9F-0A1B2C3D4E5F 14–24"])
        XCTAssertEqual(tree[3].characteristics.first?.descriptors.map { "\($0.handle) \($0.uuid)" }, ["17 2902", "18 2901"])
    }

    /// With a CMAC, Generic Attribute also has Client Supported Features (6–9 become 6–13): each
    /// link's own value, which a client sets bit by bit and never clears, and a new link starts
    /// from nothing; and the Database Hash, which follows the database.
    func testClientSupportedFeaturesAreEachLinksOwnAndTheHashFollowsTheDatabase() throws {
        let setup = ServerSetup(name: "Bench", appearance: 0x0340, services: [
            ServedService(uuid: BluetoothUUID(0x180F), characteristics: [ServedCharacteristic(uuid: BluetoothUUID(0x2A19), properties: [.read], value: [87])]),
        ])
        let database = try AttributeDatabase(setup, crypto: ToolboxPairingCrypto())
        XCTAssertEqual(database.tree.map { "\($0.uuid) \($0.start)–\($0.end)" }, ["1800 1–5", "1801 6–13", "180F 14–16"])
        XCTAssertEqual(database.tree[1].characteristics.map { "\($0.uuid) \($0.valueHandle)" }, ["2A05 8", "2B29 11", "2B2A 13"])
        var first = ATTServer(database: database), second = ATTServer(database: database)
        XCTAssertEqual(first.receive([0x0A, 11, 0]).answer, [0x0B, 0])
        XCTAssertEqual(first.receive([0x12, 11, 0, 0x05]).answer, [0x13], "robust caching and multiple notifications")
        XCTAssertEqual(first.receive([0x0A, 11, 0]).answer, [0x0B, 0x05])
        XCTAssertEqual(second.receive([0x0A, 11, 0]).answer, [0x0B, 0], "the other link's own")
        XCTAssertEqual(first.receive([0x12, 11, 0, 0x01]).answer, [0x01, 0x12, 11, 0, 0x13], "a bit cleared: Value Not Allowed")
        XCTAssertEqual(first.receive([0x12, 11, 0]).answer, [0x01, 0x12, 11, 0, 0x0D], "no byte")
        first.reset()
        XCTAssertEqual(first.receive([0x0A, 11, 0]).answer, [0x0B, 0], "a new link starts afresh")
        guard let hash = first.receive([0x0A, 13, 0]).answer else { return XCTFail("no hash") }
        XCTAssertEqual(hash.count, 17)
        XCTAssertEqual(first.receive([0x12, 13, 0, 1]).answer, [0x01, 0x12, 13, 0, 0x03], "read only")
        let other = try AttributeDatabase(ServerSetup(name: "Bench", appearance: 0x0340, services: []), crypto: ToolboxPairingCrypto())
        var otherServer = ATTServer(database: other)
        XCTAssertNotEqual(otherServer.receive([0x0A, 13, 0]).answer, hash, "another database, another hash")
        let renamed = try AttributeDatabase(ServerSetup(name: "Other name", appearance: 0x0340, services: setup.services),
                                            crypto: ToolboxPairingCrypto())
        var renamedServer = ATTServer(database: renamed)
        XCTAssertEqual(renamedServer.receive([0x0A, 13, 0]).answer, hash, "values are not hashed, only the layout")
    }

    /// Robust caching (Vol 3, Part G, §2.5.2.1): a bonded client that set it and comes back to a
    /// changed database is change-unaware. Its first request on a handle is answered Database
    /// Out Of Sync, a command it sends meanwhile is dropped, and its next request is served;
    /// reading the Database Hash makes it aware at once. A client without robust caching, or
    /// one that comes back to the database it knew, is served as ever.
    func testABondedClientBackToAChangedDatabaseIsToldItIsOutOfSyncOnce() throws {
        let crypto = ToolboxPairingCrypto()
        let battery = ServedService(uuid: BluetoothUUID(0x180F), characteristics: [
            ServedCharacteristic(uuid: BluetoothUUID(0x2A19), properties: [.read, .writeWithoutResponse], value: [87]),
        ])
        let before = try AttributeDatabase(ServerSetup(name: "Bench", services: [battery]), crypto: crypto)
        let after = try AttributeDatabase(ServerSetup(name: "Bench", services: [ServedService(uuid: vendor), battery]), crypto: crypto)
        XCTAssertNotEqual(before.hash, after.hash)
        // The first link: the client sets robust caching; its side is kept as the link ends.
        var first = ATTServer(database: before)
        XCTAssertEqual(first.receive([0x12, 11, 0, 0x01]).answer, [0x13])
        let kept = first.memory
        XCTAssertEqual(kept, ATTServer.Memory(features: 1, knownHash: before.hash))

        // Back to the same database: aware.
        var same = ATTServer(database: before)
        same.recall(kept)
        XCTAssertTrue(same.changeAware)
        XCTAssertEqual(same.receive([0x0A, 16, 0]).answer, [0x0B, 87])

        // Back to a changed one: the vendor service before Battery moved the level.
        let level = try XCTUnwrap(after.tree.first { $0.uuid == BluetoothUUID(0x180F) }?.characteristics.first?.valueHandle)
        var changed = ATTServer(database: after)
        changed.recall(kept)
        XCTAssertFalse(changed.changeAware)
        let (answer, notes) = changed.receive([0x0A] + HCICommand.le16(level))
        XCTAssertEqual(answer, [0x01, 0x0A] + HCICommand.le16(level) + [0x12], "Database Out Of Sync")
        XCTAssertEqual(notes, [.refused(request: 0x0A, handle: level, .databaseOutOfSync)])
        XCTAssertNil(changed.receive([0x52] + HCICommand.le16(level) + [1]).answer, "a command is dropped")
        XCTAssertEqual(changed.receive([0x0A] + HCICommand.le16(level)).answer, [0x0B, 87], "the next request is served")
        XCTAssertTrue(changed.changeAware)
        XCTAssertEqual(changed.memory.knownHash, after.hash, "and kept as aware")

        // Reading the Database Hash by its type makes it aware at once.
        var reading = ATTServer(database: after)
        reading.recall(kept)
        let hash = reading.receive([0x08, 1, 0, 0xFF, 0xFF, 0x2A, 0x2B]).answer
        XCTAssertEqual(hash.map { Array($0.dropFirst(4)) }, after.hash)
        XCTAssertTrue(reading.changeAware)
        XCTAssertEqual(reading.receive([0x0A] + HCICommand.le16(level)).answer, [0x0B, 87])

        // Without robust caching, a changed database is served as ever.
        var plain = ATTServer(database: after)
        plain.recall(ATTServer.Memory(features: 0, knownHash: before.hash))
        XCTAssertTrue(plain.changeAware)
        XCTAssertEqual(plain.receive([0x0A] + HCICommand.le16(level)).answer, [0x0B, 87])
    }

    /// A bonded client's configurations persist across connections (Vol 3, Part G, §3.3.3.3):
    /// back to the same characteristic at the same handles, it is notified without writing
    /// them again, and told as subscribed; where another attribute took the handle, nothing is.
    func testABondedClientsSubscriptionsHoldOnItsNextLink() throws {
        let heart = ServedService(uuid: BluetoothUUID(0x180D), characteristics: [
            ServedCharacteristic(uuid: BluetoothUUID(0x2A37), properties: [.notify], value: [0, 60]),
        ])
        let before = try AttributeDatabase(ServerSetup(name: "Bench", services: [heart]))
        let measurement = try XCTUnwrap(before.valueHandles[ServedCharacteristicID(service: 0, characteristic: 0)])
        let cccd = try XCTUnwrap(before.configurationHandles[ServedCharacteristicID(service: 0, characteristic: 0)])
        var first = ATTServer(database: before)
        XCTAssertEqual(first.receive([0x12] + HCICommand.le16(cccd) + [0x01, 0x00]).answer, [0x13])
        let kept = first.memory
        XCTAssertEqual(kept.subscriptions, [ATTServer.Subscription(configuration: cccd, valueHandle: measurement,
                                                                   type: BluetoothUUID(0x2A37), bits: 1)])

        var same = ATTServer(database: before)
        XCTAssertEqual(same.configuration(at: cccd), 0)
        XCTAssertEqual(same.recall(kept), [.subscribed(ServedCharacteristicID(service: 0, characteristic: 0), indicate: false)])
        XCTAssertEqual(same.configuration(at: cccd), 1, "notified without writing it again")
        XCTAssertEqual(same.receive([0x0A] + HCICommand.le16(cccd)).answer, [0x0B, 0x01, 0x00], "and reads it back")

        // The same handles now hold another characteristic: no subscription to it.
        let battery = ServedService(uuid: BluetoothUUID(0x180F), characteristics: [
            ServedCharacteristic(uuid: BluetoothUUID(0x2A19), properties: [.notify], value: [87]),
        ])
        let after = try AttributeDatabase(ServerSetup(name: "Bench", services: [battery]))
        XCTAssertEqual(after.configurationHandles[ServedCharacteristicID(service: 0, characteristic: 0)], cccd)
        var changed = ATTServer(database: after)
        XCTAssertEqual(changed.recall(kept), [])
        XCTAssertEqual(changed.configuration(at: cccd), 0)
    }

    /// What a bonded client kept is found again by its identity, on any controller's links.
    func testTheServerRemembersEachBondedClientByIdentity() throws {
        let attributes = LocalAttributes(adapterName: "Bench", crypto: ToolboxPairingCrypto())
        let phone = try XCTUnwrap(DeviceID(parsing: "C0:11:22:33:44:55", kind: .leRandom))
        XCTAssertNil(attributes.recall(phone))
        let memory = ATTServer.Memory(features: 1, knownHash: attributes.database.hash)
        attributes.keep(memory, of: phone)
        XCTAssertEqual(attributes.recall(phone), memory)
        XCTAssertNil(attributes.recall(try XCTUnwrap(DeviceID(parsing: "C0:11:22:33:44:56", kind: .leRandom))))
    }

    /// What a bonded client kept is handed out to be stored as its link ends, and comes back whole
    /// from the store after a restart; a record that does not read is left out (that client
    /// starts afresh), and one known since is not replaced by an older record.
    func testABondedClientsMemoryIsStoredAndRestoredWhole() throws {
        let phone = try XCTUnwrap(DeviceID(parsing: "C0:11:22:33:44:55", kind: .leRandom))
        let watch = try XCTUnwrap(DeviceID(parsing: "C0:11:22:33:44:56", kind: .leRandom))
        let memory = ATTServer.Memory(features: 1, knownHash: Array(0..<16), subscriptions: [
            ATTServer.Subscription(configuration: 9, valueHandle: 8, type: BluetoothUUID(0x2A05), bits: 2),
            ATTServer.Subscription(configuration: 22, valueHandle: 21, type: try XCTUnwrap(BluetoothUUID("5E7F3001-1C2B-4A5D-8E9F-0A1B2C3D4E5F")), bits: 1),
        ])
        let shelf = ServedClientsShelf()
        let before = LocalAttributes(adapterName: "Bench")
        before.keeping(shelf.keep)
        before.keep(memory, of: phone)

        let after = LocalAttributes(adapterName: "Bench")
        after.restore(shelf.all.merging([watch: Data("{\"features\": 1".utf8)]) { $1 })
        XCTAssertEqual(after.recall(phone), memory, "restored whole")
        XCTAssertNil(after.recall(watch), "a record that does not read is left out")
        let newer = ATTServer.Memory(features: 0, knownHash: nil)
        after.keep(newer, of: phone)
        after.restore(shelf.all)
        XCTAssertEqual(after.recall(phone), newer, "not replaced by what the store had")

        // A record as the store holds it: UUIDs as text; one that is no UUID spoils the record.
        let kept = #"{"features":1,"knownHash":null,"subscriptions":[{"configuration":9,"valueHandle":8,"type":"2A05","bits":2}]}"#
        XCTAssertEqual(ATTServer.Memory(stored: Data(kept.utf8)), ATTServer.Memory(features: 1, knownHash: nil, subscriptions: [
            ATTServer.Subscription(configuration: 9, valueHandle: 8, type: BluetoothUUID(0x2A05), bits: 2),
        ]))
        XCTAssertNil(ATTServer.Memory(stored: Data(kept.replacingOccurrences(of: "2A05", with: "2A0G").utf8)))
    }

    func testDiscoveryRequestsAreAnsweredAsTheCoreLaysThemOut() throws {
        var s = try server()
        XCTAssertEqual(s.receive([0x10, 0x01, 0x00, 0xFF, 0xFF, 0x00, 0x28]).answer,
                       [0x11, 6, 1, 0, 5, 0, 0x00, 0x18, 6, 0, 9, 0, 0x01, 0x18, 10, 0, 13, 0, 0x0F, 0x18],
                       "16-bit services together; the 128-bit one in the next response")
        XCTAssertEqual(s.receive([0x10, 14, 0, 0xFF, 0xFF, 0x00, 0x28]).answer, [0x11, 20, 14, 0, 24, 0] + vendor.full)
        XCTAssertEqual(s.receive([0x06, 1, 0, 0xFF, 0xFF, 0x00, 0x28, 0x0F, 0x18]).answer, [0x07, 10, 0, 13, 0], "Find By Type Value")
        XCTAssertEqual(s.receive([0x08, 10, 0, 13, 0, 0x03, 0x28]).answer, [0x09, 7, 11, 0, 0x12, 12, 0, 0x19, 0x2A], "Read By Type 0x2803")
        XCTAssertEqual(s.receive([0x04, 13, 0, 13, 0]).answer, [0x05, 1, 13, 0, 0x02, 0x29], "Find Information")
        XCTAssertEqual(s.receive([0x10, 25, 0, 0xFF, 0xFF, 0x00, 0x28]).answer, [0x01, 0x10, 25, 0, 0x0A], "past the last: Attribute Not Found")
    }

    /// Discovery ends with Attribute Not Found past the last handle: that is the answer every
    /// central waits for, not a refusal, so the log does not say "Refused" for it.
    func testTheEndOfDiscoveryIsNoRefusalButARealRefusalIs() throws {
        var s = try server()
        for request: [UInt8] in [[0x10, 25, 0, 0xFF, 0xFF, 0x00, 0x28], [0x08, 25, 0, 0xFF, 0xFF, 0x03, 0x28], [0x04, 25, 0, 0xFF, 0xFF],
                                 [0x06, 25, 0, 0xFF, 0xFF, 0x00, 0x28, 0x0F, 0x18]] {
            let (answer, notes) = s.receive(request)
            XCTAssertEqual(answer, [0x01, request[0], 25, 0, 0x0A], "Attribute Not Found")
            XCTAssertEqual(notes, [], "not told as a refusal: \(request)")
        }
        let (_, notes) = s.receive([0x0A, 20, 0])  // needs encryption
        XCTAssertEqual(notes, [.refused(request: 0x0A, handle: 20, .insufficientEncryption)])
    }

    func testReadsWritesAndLongValues() throws {
        var s = try server()
        XCTAssertEqual(s.receive([0x02, 0x00, 0x01]).answer, [0x03, 0x05, 0x02], "the server's MTU, 517")
        XCTAssertEqual(s.mtu, 256)
        XCTAssertEqual(s.receive([0x0A, 12, 0]).answer, [0x0B, 87])
        let (answer, notes) = s.receive([0x12, 16, 0] + Array("hi".utf8))
        XCTAssertEqual(answer, [0x13])
        XCTAssertEqual(notes, [.wrote(ServedCharacteristicID(service: 1, characteristic: 0), Array("hi".utf8), withResponse: true)])
        XCTAssertEqual(s.receive([0x0A, 16, 0]).answer, [0x0B] + Array("hi".utf8))
        // 300 bytes over a 256 MTU: Read, then Read Blob from 255.
        XCTAssertEqual(s.receive([0x0A, 24, 0]).answer?.count, 256)
        XCTAssertEqual(s.receive([0x0C, 24, 0, 255, 0]).answer, [0x0D] + (255..<300).map { UInt8($0 % 256) })
        XCTAssertEqual(s.receive([0x0C, 24, 0, 0x2D, 0x01]).answer, [0x01, 0x0C, 24, 0, 0x07], "an offset past the end: Invalid Offset")
        // A long write in parts, checked whole, then written at once.
        XCTAssertEqual(s.receive([0x16, 16, 0, 0, 0] + [UInt8](repeating: 0x41, count: 200)).answer?.prefix(5), [0x17, 16, 0, 0, 0])
        XCTAssertEqual(s.receive([0x16, 16, 0, 200, 0] + [UInt8](repeating: 0x42, count: 100)).answer?.count, 105)
        XCTAssertEqual(s.receive([0x0A, 16, 0]).answer, [0x0B] + Array("hi".utf8), "nothing written before Execute")
        XCTAssertEqual(s.receive([0x18, 0x01]).notes, [.wrote(ServedCharacteristicID(service: 1, characteristic: 0),
                                                              [UInt8](repeating: 0x41, count: 200) + [UInt8](repeating: 0x42, count: 100),
                                                              withResponse: true)])
        XCTAssertEqual(s.receive([0x0C, 16, 0, 255, 0]).answer?.count, 46)
        XCTAssertEqual(s.receive([0x0E, 12, 0, 20, 0]).answer, [0x01, 0x0E, 20, 0, 0x0F], "Read Multiple refused whole by its first refusal")
        XCTAssertEqual(s.receive([0x20, 12, 0, 16, 0]).answer?.prefix(6), [0x21, 1, 0, 87, 44, 1], "Read Multiple Variable: each value with its length")
    }

    func testSecurityIsCheckedPerAccess() throws {
        var s = try server()
        XCTAssertEqual(s.receive([0x0A, 20, 0]).answer, [0x01, 0x0A, 20, 0, 0x0F], "encryption wanted: Insufficient Encryption")
        XCTAssertEqual(s.receive([0x12, 22, 0, 9]).answer, [0x01, 0x12, 22, 0, 0x05], "a code wanted: Insufficient Authentication")
        s.security = LinkSecurity(encrypted: true, authenticated: false)
        XCTAssertEqual(s.receive([0x0A, 20, 0]).answer, [0x0B, 1])
        XCTAssertEqual(s.receive([0x12, 22, 0, 9]).answer, [0x01, 0x12, 22, 0, 0x05], "Just Works is not enough")
        s.security.authenticated = true
        XCTAssertEqual(s.receive([0x12, 22, 0, 9]).answer, [0x13])
    }

    func testSubscriptionsAreTheLinksOwnAndChecked() throws {
        var s = try server()
        let (answer, notes) = s.receive([0x12, 13, 0, 0x01, 0x00])
        XCTAssertEqual(answer, [0x13])
        XCTAssertEqual(notes, [.subscribed(ServedCharacteristicID(service: 0, characteristic: 0), indicate: false)])
        XCTAssertEqual(s.configuration(at: 13), 1)
        XCTAssertEqual(s.receive([0x0A, 13, 0]).answer, [0x0B, 0x01, 0x00])
        XCTAssertEqual(s.receive([0x12, 13, 0, 0x02, 0x00]).answer, [0x01, 0x12, 13, 0, 0xFD], "the level cannot indicate")
        XCTAssertEqual(s.receive([0x12, 13, 0, 0x01]).answer, [0x01, 0x12, 13, 0, 0x0D], "two bytes, no fewer")
        XCTAssertEqual(s.receive([0x12, 13, 0, 0x00, 0x00]).notes, [.unsubscribed(ServedCharacteristicID(service: 0, characteristic: 0))])
    }

    /// Every malformed request a stranger can send gets the error the Core names, or nothing
    /// where a command needs no answer; none traps.
    func testMalformedAndHostilePDUsGetTheCoresAnswers() throws {
        var s = try server()
        XCTAssertNil(s.receive([]).answer)
        XCTAssertEqual(s.receive([0x0A]).answer, [0x01, 0x0A, 0, 0, 0x04], "too short: Invalid PDU")
        XCTAssertEqual(s.receive([0x0A, 0, 0]).answer, [0x01, 0x0A, 0, 0, 0x01], "handle 0: Invalid Handle")
        XCTAssertEqual(s.receive([0x0A, 0x34, 0x12]).answer, [0x01, 0x0A, 0x34, 0x12, 0x01], "no such handle")
        XCTAssertEqual(s.receive([0x08, 9, 0, 5, 0, 0x03, 0x28]).answer, [0x01, 0x08, 9, 0, 0x01], "a reversed range")
        XCTAssertEqual(s.receive([0x08, 1, 0, 5, 0, 0x03]).answer, [0x01, 0x08, 0, 0, 0x04], "a UUID of three bytes")
        XCTAssertEqual(s.receive([0x10, 1, 0, 0xFF, 0xFF, 0x03, 0x28]).answer, [0x01, 0x10, 1, 0, 0x10], "not a grouping type")
        XCTAssertEqual(s.receive([0x12, 12, 0, 1]).answer, [0x01, 0x12, 12, 0, 0x03], "a read-only value: Write Not Permitted")
        XCTAssertNil(s.receive([0x52, 12, 0, 1]).answer, "a command is never answered, refused or not")
        XCTAssertEqual(s.receive([0x12, 16, 0] + [UInt8](repeating: 0, count: 301)).answer, [0x01, 0x12, 16, 0, 0x0D], "past its maximum length")
        XCTAssertEqual(s.receive([0x3F]).answer, [0x01, 0x3F, 0, 0, 0x06], "an unknown request: Request Not Supported")
        XCTAssertNil(s.receive([0x7F, 1, 2]).answer, "an unknown command is ignored")
        XCTAssertEqual(s.receive([0x18, 0x02]).answer, [0x01, 0x18, 0, 0, 0x04], "Execute Write with a flag the Core does not define")
        for _ in 0..<ATTServer.queueLimit { _ = s.receive([0x16, 16, 0, 0, 0, 1]) }
        XCTAssertEqual(s.receive([0x16, 16, 0, 0, 0, 1]).answer, [0x01, 0x16, 16, 0, 0x09], "Prepare Queue Full")
        XCTAssertEqual(s.receive([0x18, 0x00]).answer, [0x19], "cancelled")
        XCTAssertEqual(s.receive([0x16, 16, 0, 0xFF, 0x00, 1]).answer?.first, 0x17)
        XCTAssertEqual(s.receive([0x18, 0x01]).answer, [0x01, 0x18, 16, 0, 0x07], "a part past the value's end: Invalid Offset, nothing written")
        var tiny = try server()
        _ = tiny.receive([0x02, 0x00, 0x00])
        XCTAssertEqual(tiny.mtu, 23, "an MTU of 0 means the default")
        var huge = try server()
        _ = huge.receive([0x02, 0xFF, 0xFF])
        XCTAssertEqual(huge.mtu, 517, "65,535 means the server's own")
        for _ in 0..<2_000 {
            let pdu = (0..<Int.random(in: 0...40)).map { _ in UInt8.random(in: 0...255) }
            _ = s.receive(pdu)
        }
    }
}
