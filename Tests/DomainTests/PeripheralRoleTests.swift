// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import TestSupport
import XCTest

/// The owner of FavBlue's peripheral role: what is set up, what runs, and each central's log.
@MainActor
final class PeripheralRoleTests: XCTestCase {
    private final class Keeper: PeripheralSetupsRepository, @unchecked Sendable {
        private let lock = NSLock()
        private var kept = PeripheralFile()
        var file: PeripheralFile { lock.withLock { kept } }
        func load() async throws -> PeripheralFile { file }
        func save(_ file: PeripheralFile) async throws { lock.withLock { kept = file } }
    }

    func testWhatIsSetUpIsKeptAndComesBack() async {
        let keeper = Keeper()
        let role = PeripheralRole(port: FakePeripheral(), store: keeper)
        let id = role.add(AdvertisingPreset.heartRate.advertisement(), server: AdvertisingPreset.heartRate.server())
        await role.flush()
        XCTAssertEqual(keeper.file.advertisements.map(\.id), [id])
        XCTAssertEqual(keeper.file.server?.services.first?.uuid, BluetoothUUID(0x180D))
        let again = PeripheralRole(port: FakePeripheral(), store: keeper)
        await again.load()
        XCTAssertEqual(again.advertisements.map(\.id), [id])
        XCTAssertEqual(again.facts?.maximumAdvertisingLength, 251)
    }

    func testARefusalIsSaidUnderItsAdvertisementAndAStartClearsIt() async {
        let port = FakePeripheral()
        let role = PeripheralRole(port: port, store: nil)
        let id = role.add(AdvertisingPreset.battery.advertisement())
        port.refuseNext = .noFreeSet(1)
        await role.start(id)
        XCTAssertEqual(role.problems[id], "This adapter sends 1 advertisement at a time: stop one first.")
        XCTAssertFalse(role.on.contains(id))
        await role.start(id)
        XCTAssertNil(role.problems[id])
        XCTAssertTrue(role.on.contains(id))
    }

    func testAnEncryptedSensorIsSealedWithTheAdvertisingAddressAndANewCounterEachStart() async throws {
        let port = FakePeripheral()
        port.facts.advertisingAddress = "C0:11:22:33:44:55"
        let role = PeripheralRole(port: port, store: nil, sealer: CountingSealer())
        await role.refreshFacts()
        let id = role.add(AdvertisingPreset.bthome.advertisement(readings: BTHomeReadings(key: [UInt8](repeating: 7, count: 16), counter: 4)))
        await role.start(id)
        await role.start(id)
        let frames = port.advertising.compactMap { $0.data.serviceData.first?.data }
        XCTAssertEqual(frames.count, 1, "the same set, sent anew")
        let frame = try XCTUnwrap(frames.first)
        XCTAssertEqual(frame.first, 0x41, "encrypted BTHome v2")
        XCTAssertEqual(Array(frame.suffix(8).prefix(4)), [6, 0, 0, 0], "counter 4, then 5, then 6")
        XCTAssertEqual(role.advertisements.first?.sensor?.counter, 6, "kept, so a restart never reuses one")
    }

    func testEachCentralHasItsOwnLogAndWhatItWroteIsTheValue() async {
        let port = FakePeripheral()
        let role = PeripheralRole(port: port, store: nil)
        await role.setServer(AdvertisingPreset.chat.server())
        let phone = PeripheralCentral(id: "1", address: "AA:BB:CC:DD:EE:01")
        let laptop = PeripheralCentral(id: "2", address: "AA:BB:CC:DD:EE:02")
        let rx = ServedCharacteristicID(service: 0, characteristic: 1)
        for event in [PeripheralEvent.connected(phone), .connected(laptop), .wrote(phone, rx, Array("<b>hi".utf8), withResponse: true),
                      .disconnected(laptop, reason: "The device ended the connection.")] {
            port.feed.yield(event)
        }
        await port.feed.applied()
        XCTAssertEqual(role.centrals.map(\.central), [phone, laptop])
        XCTAssertEqual(role.centrals.map(\.connected), [true, false])
        XCTAssertEqual(role.centrals[0].entries.map(\.event), [.connected(phone), .wrote(phone, rx, Array("<b>hi".utf8), withResponse: true)])
        XCTAssertEqual(role.value(of: rx), Array("<b>hi".utf8))
        let reached = await role.send(ServedCharacteristicID(service: 0, characteristic: 0))
        XCTAssertEqual(reached, 1)
    }

    func testTheAdaptersLossKeepsWhatWasOnForTryAgain() async {
        let port = FakePeripheral()
        let role = PeripheralRole(port: port, store: nil)
        let beacon = role.add(AdvertisingPreset.iBeacon.advertisement())
        let battery = role.add(AdvertisingPreset.battery.advertisement(), server: AdvertisingPreset.battery.server())
        await role.start(beacon)
        await role.startServing()
        XCTAssertTrue(role.serving)
        // The route says the end first, then the sets it had going off.
        port.feed.yield(.ended("The Bluetooth adapter stopped answering."))
        port.feed.yield(.advertising(id: beacon, on: false))
        await port.feed.applied()
        XCTAssertEqual(role.lost, "The Bluetooth adapter stopped answering.")
        XCTAssertTrue(role.stoppedByLoss(beacon))
        XCTAssertFalse(role.stoppedByLoss(battery), "it was never on")
        XCTAssertTrue(role.on.isEmpty)
        XCTAssertFalse(role.serving)
        await role.tryAgain()
        XCTAssertNil(role.lost)
        XCTAssertTrue(role.on.contains(beacon), "on again")
        XCTAssertFalse(role.on.contains(battery))
        XCTAssertTrue(role.serving, "serving again")
    }

    func testAPresetIsFoundUnderTheServersNameUntilGivenOneOfItsOwn() async {
        let port = FakePeripheral()
        let role = PeripheralRole(port: port, store: nil)
        let id = role.add(AdvertisingPreset.heartRate.advertisement(), server: AdvertisingPreset.heartRate.server(name: "Lab Bench"))
        await role.start(id)
        XCTAssertEqual(port.advertising.first?.data.localName, "Lab Bench", "one name before and after connecting")
        var renamed = role.server!
        renamed.name = "UX Lab"
        await role.setServer(renamed)
        XCTAssertEqual(port.advertising.first?.data.localName, "UX Lab", "on air under the server's new name")
        let file = role.file
        XCTAssertEqual(file.advertisements.first?.nameFollowsServer, true, "kept in the file")
        var own = role.advertisements[0]
        own.data.localName = "Bench Monitor"
        own.nameFollowsServer = false
        await role.update(own)
        await role.start(id)
        XCTAssertEqual(port.advertising.first?.data.localName, "Bench Monitor", "a name of its own, set apart")
    }

    func testAnImportWithAProblemBringsNothing() {
        let role = PeripheralRole(port: FakePeripheral(), store: nil)
        role.add(AdvertisingPreset.iBeacon.advertisement())
        XCTAssertThrowsError(try role.importFile("{\n\"children\": {\"a\": {\"uuid\": \"zz\"}}\n}"))
        XCTAssertEqual(role.advertisements.count, 1)
        XCTAssertNil(role.server)
    }
}

/// A sealer whose "ciphertext" is the plaintext: enough to see what is sealed, and with what.
private struct CountingSealer: PayloadSealer {
    func ccmSeal(key: [UInt8], nonce: [UInt8], plaintext: [UInt8], associated: [UInt8], tagLength: Int) -> (ciphertext: [UInt8], tag: [UInt8])? {
        (plaintext, [UInt8](repeating: 0xEE, count: tagLength))
    }
}

/// What the user set up is never replaced without a word: presets join the server, and what
/// would replace it says so first.
@MainActor
final class PeripheralServerJoiningTests: XCTestCase {
    func testEachPresetsServicesJoinTheServerInTheOrderAdded() {
        let role = PeripheralRole(port: FakePeripheral(), store: nil)
        role.add(AdvertisingPreset.heartRate.advertisement(), server: AdvertisingPreset.heartRate.server(name: "UX Lab"))
        role.add(AdvertisingPreset.battery.advertisement(), server: AdvertisingPreset.battery.server())
        role.add(AdvertisingPreset.chat.advertisement(), server: AdvertisingPreset.chat.server())
        XCTAssertEqual(role.server?.services.map(\.uuid.text), ["180D", "180F", "7E57C000-2C8F-4F3C-9F91-8577E1891234"])
        XCTAssertEqual(role.server?.name, "UX Lab", "the server keeps its name")
        XCTAssertEqual(role.server?.appearance, 0x0340)
        role.add(AdvertisingPreset.battery.advertisement(), server: AdvertisingPreset.battery.server())
        XCTAssertEqual(role.server?.services.count, 3, "a service the server has is not added twice")
        XCTAssertNil(role.replaced(by: role.server), "taking the same server loses nothing")
    }

    func testAPresetAddedWhileServingIsServedAtOnce() async {
        let port = FakePeripheral()
        let role = PeripheralRole(port: port, store: nil)
        role.add(AdvertisingPreset.heartRate.advertisement(), server: AdvertisingPreset.heartRate.server())
        await role.startServing()
        role.add(AdvertisingPreset.battery.advertisement(), server: AdvertisingPreset.battery.server())
        await role.flush()
        XCTAssertEqual(port.serving?.services.map(\.uuid.text), ["180D", "180F"])
    }

    func testAServerSetUpWouldBeReplacedByAnotherAndTheRoleSaysWhich() {
        let role = PeripheralRole(port: FakePeripheral(), store: nil)
        let other = ServerSetup(name: "NRF Setup", services: [ServedService(uuid: BluetoothUUID(0x1815))])
        XCTAssertNil(role.replaced(by: other), "nothing set up, nothing lost")
        role.add(AdvertisingPreset.heartRate.advertisement(), server: AdvertisingPreset.heartRate.server(name: "UX Lab"))
        XCTAssertEqual(role.replaced(by: other)?.name, "UX Lab")
    }
}

/// The exported file keeps which advertisements are on, for `favblue-scan serve` to send those alone.
@MainActor
final class PeripheralFileOnAirTests: XCTestCase {
    func testTheFileSaysWhichAdvertisementsAreOnAndReadsItBack() async throws {
        let port = FakePeripheral()
        let role = PeripheralRole(port: port, store: nil)
        await role.refreshFacts()
        let on = role.add(AdvertisingPreset.heartRate.advertisement(), server: AdvertisingPreset.heartRate.server())
        let off = role.add(AdvertisingPreset.iBeacon.advertisement())
        await role.start(on)
        let text = role.file.text
        XCTAssertTrue(text.contains("\"on\": true"), text)
        XCTAssertTrue(text.contains("\"on\": false"), text)
        let read = try PeripheralFile.read(text)
        XCTAssertEqual(read.advertisementsOn.map(\.id), [on])
        XCTAssertFalse(read.on.contains(off))
    }

    func testAFileFromBeforeTheSwitchWasKeptHasEveryAdvertisementOn() async throws {
        let read = try PeripheralFile.read("""
            {"format": "favblue-peripheral", "version": 1, "advertisements": [{"id": "a", "label": "A"}, {"id": "b", "label": "B"}]}
            """)
        XCTAssertEqual(read.advertisementsOn.map(\.id), ["a", "b"])
    }
}
