// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import TestSupport
import ViewModels
import XCTest

/// Act as a Device in words, and the advertisement editor, over a peripheral that does what the test says.
@MainActor
final class PeripheralViewModelTests: XCTestCase {
    private func model(_ port: FakePeripheral = FakePeripheral()) async -> (PeripheralViewModel, PeripheralRole) {
        let role = PeripheralRole(port: port, store: nil)
        await role.refreshFacts()
        let names: (BluetoothUUID) -> String? = { $0 == BluetoothUUID(0x2A37) ? "Heart Rate Measurement" : nil }
        return (PeripheralViewModel(role: role, names: names, company: { String(format: "Company 0x%04X", $0) }), role)
    }

    private func waitUntil(_ condition: () -> Bool) async {
        for _ in 0..<200 where !condition() { try? await Task.sleep(for: .milliseconds(5)) }
    }

    func testAPresetIsListedWithItsKindAndBytesAndItsSwitchSendsIt() async {
        let port = FakePeripheral()
        let (model, _) = await model(port)
        XCTAssertEqual(model.adapterSummary, "This adapter sends 4 advertisements at a time, each up to 251 bytes.")
        let id = model.add(.heartRate)
        let row = model.advertisements.first
        XCTAssertEqual(model.advertisements.map(\.id), [id])
        XCTAssertEqual(row?.title, "Heart Rate Monitor")
        XCTAssertEqual(row?.subtitle, "Connectable · 20 of 31 bytes")
        XCTAssertEqual(row?.isOn, false)
        XCTAssertNil(row?.problem)
        await model.setOn(id, true)
        await waitUntil { model.advertisements.first?.isOn == true }
        XCTAssertEqual(port.advertising.map(\.id), [id])
        XCTAssertEqual(model.services.first?.characteristics.map(\.title), ["Heart Rate Measurement", "2A38"])
        XCTAssertEqual(model.services.first?.characteristics.first?.properties, "Notify")
    }

    func testWhatACentralWroteIsLoggedAsTextWithItsControlCharactersVisibleAndItsHex() async {
        let port = FakePeripheral()
        let (model, _) = await model(port)
        model.add(.chat)
        let central = PeripheralCentral(id: "c1", address: "F0:F1:F2:F3:F4:F9")
        port.feed.yield(.connected(central))
        port.feed.yield(.wrote(central, ServedCharacteristicID(service: 0, characteristic: 1), Array("<b>hi\n".utf8), withResponse: true))
        await waitUntil { model.centrals.first?.lines.count == 2 }
        let row = try? XCTUnwrap(model.centrals.first)
        XCTAssertEqual(row?.title, "F0:F1:F2:F3:F4:F9")
        XCTAssertEqual(row?.subtitle, "Connected")
        XCTAssertTrue(row?.lines.last?.hasSuffix("Wrote “\u{2068}<b>hi\u{240A}\u{2069}” (3C 62 3E 68 69 0A) to \u{2068}Messages from the central\u{2069}")
                      ?? false, row?.lines.last ?? "no line")
        port.feed.yield(.disconnected(central, reason: "The central left."))
        await waitUntil { model.centrals.first?.subtitle == "Disconnected" }
        XCTAssertEqual(model.centrals.first?.subtitle, "Disconnected")
    }

    func testSendSaysHowManyCentralsItReached() async {
        let port = FakePeripheral()
        let (model, _) = await model(port)
        model.add(.heartRate)
        let measurement = ServedCharacteristicID(service: 0, characteristic: 0)
        port.subscribers = 0
        let none = await model.send(measurement)
        XCTAssertEqual(none, "No connected device follows it: nothing was sent.")
        port.subscribers = 2
        let two = await model.send(measurement)
        XCTAssertEqual(two, "Sent to 2 connected devices.")
        XCTAssertEqual(port.sends.last?.1, [0x00, 72])
    }

    /// What Send sent is in the log of each central that follows it, as text with its hex; a
    /// central that stopped following, or never did, is not said to have been sent it.
    func testWhatSendSentIsInTheLogOfEachCentralThatFollowsIt() async {
        let port = FakePeripheral()
        let (model, role) = await model(port)
        model.add(.chat)
        let toCentral = ServedCharacteristicID(service: 0, characteristic: 0)
        let phone = PeripheralCentral(id: "1", address: "F0:F1:F2:F3:F4:F9"), tablet = PeripheralCentral(id: "2", address: "F0:F1:F2:F3:F4:FA")
        for central in [phone, tablet] { port.feed.yield(.connected(central)) }
        port.feed.yield(.subscribed(phone, toCentral, indicate: false))
        await port.feed.applied()
        await role.setValue(Array("pong".utf8), of: toCentral)
        port.subscribers = 1
        _ = await model.send(toCentral)
        XCTAssertTrue(model.centrals[0].lines.last?.hasSuffix(
            "Was sent “\u{2068}pong\u{2069}” (70 6F 6E 67) by notification of \u{2068}Messages to the central\u{2069}") ?? false,
                      model.centrals[0].lines.last ?? "no line")
        XCTAssertEqual(model.centrals[1].lines.count, 1, "the tablet follows nothing: \(model.centrals[1].lines)")
    }

    func testAValueTypedWrongSaysWhyAndKeepsTheOldOne() async {
        let (model, role) = await model()
        model.add(.heartRate)
        let location = ServedCharacteristicID(service: 0, characteristic: 1)
        let problem = await model.setValue("0G", of: location, as: .hex)
        XCTAssertNotNil(problem)
        XCTAssertEqual(role.value(of: location), [0x01])
        let fine = await model.setValue("02", of: location, as: .hex)
        XCTAssertNil(fine)
        XCTAssertEqual(role.value(of: location), [0x02])
    }

    func testABrokenFileSaysItsLineAndImportsNothing() async {
        let (model, role) = await model()
        let id = model.add(.battery)
        let problem = model.importFile("{\n  \"format\": \"favblue-peripheral\",\n  \"version\": 1,\n  \"advertisements\": [\n}")
        XCTAssertEqual(problem?.hasPrefix("Line 5: "), true, problem ?? "imported")
        XCTAssertEqual(role.advertisements.map(\.id), [id], "what was set up stays")
    }

    func testASourceThatCannotAdvertiseSaysWhy() async {
        let (model, _) = await model(FakePeripheral(unavailable: "A replayed capture cannot advertise or serve."))
        XCTAssertEqual(model.unavailable, "A replayed capture cannot advertise or serve.")
    }

    func testAnAdapterWithoutThePeripheralRoleSaysSoInPlainWords() async {
        let port = FakePeripheral()
        port.facts.roles = ["central"]
        let (model, _) = await model(port)
        XCTAssertEqual(model.unavailable, "This adapter cannot be a peripheral: it can only look for other devices.")
    }

    // MARK: The editor

    private func editor(_ port: FakePeripheral = FakePeripheral()) async -> (AdvertisementEditorViewModel, PeripheralRole) {
        let role = PeripheralRole(port: port, store: nil)
        await role.refreshFacts()
        let id = role.add(Advertisement(label: "Test", data: AdvertisingFields(flags: 0x06, localName: "FavBlue")))
        return (AdvertisementEditorViewModel(role: role, id: id, company: { _ in "Acme" }, companies: [(1, "Acme")]), role)
    }

    func testANameTooLongForALegacyAdvertisementSaysByHowMuch() async {
        let (editor, _) = await editor()
        editor.setName(.data, String(repeating: "N", count: 30))
        await editor.settled()
        XCTAssertEqual(editor.problems(.data), ["The name does not fit: 4 bytes over the 31 bytes of a legacy advertisement."])
        XCTAssertEqual(editor.usage(.data), "35 of 31 bytes")
        editor.setExtended(true)
        await editor.settled()
        XCTAssertEqual(editor.problems(.data), [])
        XCTAssertEqual(editor.usage(.data), "35 of 251 bytes")
    }

    func testAFieldTypedWrongSaysWhyBesideItAndKeepsTheLastGoodValue() async {
        let (editor, _) = await editor()
        editor.setUUIDs(.data, "180D")
        await editor.settled()
        editor.setUUIDs(.data, "180D, 12G4")
        await editor.settled()
        XCTAssertEqual(editor.errors[.uuids(.data)], "“12G4” is not a UUID (4, 8 or 32 hex digits).")
        XCTAssertEqual(editor.advertisement?.data.serviceUUIDs, [BluetoothUUID(0x180D)])
        editor.setInterval("5")
        XCTAssertEqual(editor.errors[.interval], "The interval is from 20 to 10,240 milliseconds.")
        editor.setInterval("200")
        await editor.settled()
        XCTAssertNil(editor.errors[.interval])
        XCTAssertEqual(editor.advertisement?.intervalMilliseconds, 200)
    }
}

/// Import… asks before it replaces the server set up; an advertisement says which services it
/// lists that the server lacks.
@MainActor
final class PeripheralImportTests: XCTestCase {
    private let nrfFile = """
        {"format": "favblue-peripheral", "version": 1, "server": {"name": "NRF Setup", "services": [{"uuid": "1815"}]}}
        """

    private func model() async -> (PeripheralViewModel, PeripheralRole) {
        let role = PeripheralRole(port: FakePeripheral(), store: nil)
        await role.refreshFacts()
        let names: (BluetoothUUID) -> String? = { $0 == BluetoothUUID(0x180F) ? "Battery Service" : nil }
        return (PeripheralViewModel(role: role, names: names, company: { String(format: "Company 0x%04X", $0) }), role)
    }

    func testImportingOverAServerSetUpAsksNamingTheServerThatGoes() async throws {
        let (model, role) = await model()
        model.add(.heartRate)
        model.add(.battery)
        await role.setServer(role.server.map { var s = $0; s.name = "UX Lab"; return s })
        guard case .ready(let setup) = model.readImport(nrfFile, fileName: "nrf.json") else { return XCTFail("not read") }
        XCTAssertEqual(setup.question?.heading, "Replace “\u{2068}UX Lab\u{2069}”?")
        XCTAssertEqual(setup.question?.body,
                       "The server you set up, with its 2 services, goes, and “\u{2068}NRF Setup\u{2069}” takes its place. Your advertisements stay.")
        XCTAssertEqual(role.server?.name, "UX Lab", "nothing changes before the user answers")
        XCTAssertEqual(setup.apply(), "Imported “\u{2068}nrf.json\u{2069}”")
        XCTAssertEqual(role.server?.name, "NRF Setup")
    }

    func testImportingWithNoServerSetUpAsksNothing() async {
        let (model, _) = await model()
        guard case .ready(let setup) = model.readImport(nrfFile, fileName: "nrf.json") else { return XCTFail("not read") }
        XCTAssertNil(setup.question)
    }

    func testAnAdvertisementThatListsAServiceTheServerLacksSaysSoOnItsRow() async {
        let (model, _) = await model()
        model.add(.battery)
        XCTAssertEqual(model.advertisements.first?.subtitle, "Connectable · 16 of 31 bytes")
        _ = model.importFile(nrfFile)
        XCTAssertEqual(model.advertisements.first?.subtitle,
                       "Connectable · 16 of 31 bytes\nLists Battery Service, which the server lacks: a phone that connects will not find it.")
    }
}

/// Serve makes the device findable: with none of the user's connectable advertisements on, the
/// server's name goes on air, and the page says what a phone sees.
@MainActor
final class PeripheralFindableTests: XCTestCase {
    func testServingAloneAdvertisesTheServersNameUntilAnAdvertisementOfTheUsersIsOn() async {
        let port = FakePeripheral()
        let role = PeripheralRole(port: port, store: nil)
        await role.refreshFacts()
        let model = PeripheralViewModel(role: role, names: { _ in nil }, company: { _ in "" })
        let id = model.add(.heartRate)
        await role.setServer(role.server.map { var s = $0; s.name = "UX Lab"; return s })
        XCTAssertTrue(port.advertising.isEmpty, "nothing goes out before Serve")
        await model.setServing(true)
        XCTAssertEqual(port.advertising.map(\.data.localName), ["UX Lab"], "the server's name, connectable")
        XCTAssertEqual(port.advertising.first?.kind, .connectable)
        XCTAssertEqual(model.findable, "Phones find it as “\u{2068}UX Lab\u{2069}”.")
        await model.setOn(id, true)
        XCTAssertEqual(port.advertising.map(\.id), [id], "the user's own advertisement takes over")
        XCTAssertEqual(model.findable, "Phones find it as “\u{2068}FavBlue\u{2069}”, and read “\u{2068}UX Lab\u{2069}” once connected.")
        await model.setOn(id, false)
        XCTAssertEqual(port.advertising.map(\.data.localName), ["UX Lab"], "findable again")
        await model.setServing(false)
        XCTAssertTrue(port.advertising.isEmpty, "nothing on air once it stops serving")
        XCTAssertNil(model.findable)
    }
}

/// Every preset can be switched on as it comes: one that needs extended advertising gets it
/// where the adapter has it, and where it has not, the problem names the data, not its number.
@MainActor
final class PresetFittingTests: XCTestCase {
    private func model(extended: Bool) async -> (PeripheralViewModel, PeripheralRole) {
        let port = FakePeripheral()
        port.facts = AdapterFacts(features: [.extendedAdvertising: extended], advertisingSets: extended ? 4 : 1,
                                  maximumAdvertisingLength: extended ? 1_650 : 31, roles: ["central", "peripheral"], route: "hci")
        let role = PeripheralRole(port: port, store: nil)
        await role.refreshFacts()
        return (PeripheralViewModel(role: role, names: { _ in nil }, company: { _ in "" }), role)
    }

    func testTheBTHomePresetIsExtendedWhereTheAdapterSendsExtendedAdvertisements() async {
        let (model, role) = await model(extended: true)
        let id = model.add(.bthome)
        XCTAssertEqual(role.advertisements.first { $0.id == id }?.extended, true)
        XCTAssertNil(model.advertisements.first?.problem, "it can be switched on as it comes")
    }

    func testOnALegacyAdapterTheProblemNamesTheBTHomeData() async {
        let (model, _) = await model(extended: false)
        model.add(.bthome)
        XCTAssertEqual(model.advertisements.first?.problem, "The BTHome data does not fit: 1 byte over the 31 bytes of a legacy advertisement.")
    }
}
