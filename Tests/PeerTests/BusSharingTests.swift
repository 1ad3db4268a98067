// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

@testable import Bluetooth
import Domain
import Foundation
@testable import HomeServices
import TestSupport
import XCTest

/// Share with the House against a real broker: what this computer hears is published in the
/// BTtoMQTT format and read back by mosquitto_sub as a gateway's would be; a favorite is a
/// Home Assistant device tracker whose discovery document holds documented keys only, "home"
/// while heard, and renamed with its nickname.
@MainActor
final class BusSharingTests: XCTestCase {
    private let keys = DeviceID(octets: [0xC0, 0xDE, 0xAD, 0xBE, 0xEF, 0x02], kind: .leRandom)

    /// A mosquitto_sub reading `count` messages on `topic` (retained ones at once), started
    /// and subscribed: it returns once the broker acknowledged the subscription, so nothing
    /// published after is missed.
    private final class Subscriber: @unchecked Sendable {
        let process = Process()
        let out = Pipe()
        var read = ""
        /// What every message's line starts with: the topic up to its first wildcard.
        let prefix: String

        init(_ broker: Broker, _ topic: String, count: Int) throws {
            prefix = String(topic.prefix { $0 != "+" && $0 != "#" })
            // Line-buffered, so the SUBACK line comes when it happens, not when the pipe fills.
            process.executableURL = URL(fileURLWithPath: "/usr/bin/stdbuf")
            process.arguments = ["-oL", "/usr/bin/mosquitto_sub", "-h", "127.0.0.1", "-p", String(broker.port), "-t", topic, "-C", String(count), "-W", "15", "-v", "-d"]
            process.standardOutput = out
            try process.run()
            let handle = out.fileHandleForReading
            while !read.contains("SUBACK") {
                let data = handle.availableData
                if data.isEmpty { break }
                read += String(decoding: data, as: UTF8.self)
            }
        }

        /// The messages, as "topic payload" lines, once `count` came (or the wait ran out).
        /// Awaited off the main thread, which the app's side needs meanwhile.
        func lines() async -> [String] {
            let rest = await Task.detached { [self] in
                process.waitUntilExit()
                return String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            }.value
            let all = read + rest
            // -d's own lines say what the client did; the messages' lines start with their topic.
            return all.split(separator: "\n").map(String.init).filter { $0.hasPrefix(prefix) }
        }
    }

    func testWhatThisComputerHearsIsPublishedAsAGatewaysAndAFavoriteIsAHomeAssistantTracker() async throws {
        let broker = try Broker()
        let scanner = FakeScanner()
        let live = LiveDevices(makeScanner: { _ in scanner }, sightings: nil, refreshesPerSecond: 50)
        let favorites = Favorites(useCases: FavoritesUseCases(repository: FakeFavoritesRepository()), live: live, sightings: nil)
        await favorites.load()
        _ = await favorites.add(keys, name: "Keys", nickname: "My keys")
        live.start(mode: .continuous)
        let reports = try Subscriber(broker, "home/laptop/BTtoMQTT/+", count: 1)
        let sharing = BusSharing(broker: MQTTAddress(tls: false, user: nil, host: "127.0.0.1", port: broker.port, prefix: "home"),
                                 gateway: "laptop", live: live, favorites: favorites, own: "This Computer", log: { _ in })
        defer { sharing.stop() }
        // Published at once if the broker took the connection already, else as soon as it does.
        scanner.feed(Observation(id: keys, timestamp: Date(), rssi: -58, name: "Keys", txPower: 4,
                                 manufacturerData: [ManufacturerData(companyID: 0x0059, companyName: "Nordic", data: [1, 2, 3])]))
        await live.drain()

        let published = await reports.lines()
        XCTAssertEqual(published.count, 1, "\(published)")
        let line = try XCTUnwrap(published.first)
        let space = try XCTUnwrap(line.firstIndex(of: " "))
        let topic = String(line[..<space]), payload = Array(line[line.index(after: space)...].utf8)
        XCTAssertEqual(topic, "home/laptop/BTtoMQTT/C0DEADBEEF02")
        let gateway = try BTtoMQTT.gateway(inTopic: Array(topic.utf8), prefix: "home")
        let back = try BTtoMQTT.observation(payload, at: Date(), source: gateway)
        XCTAssertEqual(back.id, keys, "read back as a gateway's report")
        XCTAssertEqual(back.name, "Keys")
        XCTAssertEqual(back.rssi, -58)
        XCTAssertEqual(back.txPower, 4)
        XCTAssertEqual(back.manufacturerData.first?.companyID, 0x0059)
        XCTAssertEqual(back.manufacturerData.first?.data, [1, 2, 3])
        XCTAssertEqual(back.source, "laptop")

        // Home Assistant: the retained discovery document and state.
        let config = try await Subscriber(broker, HomeAssistant.configTopic(keys), count: 1).lines()
        let document = try XCTUnwrap(config.first.map { String($0.split(separator: " ", maxSplits: 1)[1]) })
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(document.utf8)) as? [String: Any])
        XCTAssertTrue(Set(object.keys).isSubset(of: HomeAssistant.keys), "only documented keys: \(object.keys.sorted())")
        for required in ["name", "unique_id", "state_topic", "payload_home", "payload_not_home"] {
            XCTAssertNotNil(object[required], required)
        }
        XCTAssertEqual(object["name"] as? String, "My keys")
        XCTAssertEqual(object["source_type"] as? String, "bluetooth_le")
        XCTAssertFalse(document.contains("C0:DE:AD"), "the address is not published in the tracker's name or id")
        let stateTopic = try XCTUnwrap(object["state_topic"] as? String)
        let state = try await Subscriber(broker, stateTopic, count: 1).lines()
        XCTAssertEqual(state, ["\(stateTopic) home"])
        // A new nickname renames the tracker: the document kept for newcomers says the new name.
        // The same document may be published again meanwhile, so the kept one is asked until it does.
        _ = await favorites.rename(keys, to: "Car keys")
        var kept: [String] = []
        for _ in 0..<50 {
            kept = try await Subscriber(broker, HomeAssistant.configTopic(keys), count: 1).lines()
            if kept.first?.contains("\"name\":\"Car keys\"") == true { break }
            try await Task.sleep(nanoseconds: 100_000_000)
        }
        XCTAssertTrue(kept.first?.contains("\"name\":\"Car keys\"") ?? false, "\(kept)")
        live.stop()
    }

    func testAFavoriteSensorsReadingsAreHomeAssistantSensorsThatGoUnavailableWhenTheyStop() async throws {
        let broker = try Broker()
        let scanner = FakeScanner()
        let live = LiveDevices(makeScanner: { _ in scanner }, sightings: nil, refreshesPerSecond: 50)
        let favorites = Favorites(useCases: FavoritesUseCases(repository: FakeFavoritesRepository()), live: live, sightings: nil)
        await favorites.load()
        let sensor = DeviceID(octets: [0xA4, 0xC1, 0x38, 0x00, 0x11, 0x22], kind: .lePublic)
        _ = await favorites.add(sensor, name: "Living Room", nickname: "Lounge")
        live.start(mode: .continuous)
        let configs = try Subscriber(broker, "homeassistant/sensor/+/config", count: 2)
        let sharing = BusSharing(broker: MQTTAddress(tls: false, user: nil, host: "127.0.0.1", port: broker.port, prefix: "home"),
                                 gateway: "laptop", live: live, favorites: favorites, own: "This Computer", log: { _ in })
        defer { sharing.stop() }
        // BTHome v2: 25.06 °C and 50.55 % (bthome.io/format's example).
        let heard = Date()
        scanner.feed(Observation(id: sensor, timestamp: heard, rssi: -60, name: "Living Room",
                                 serviceData: [ServiceID(BluetoothUUID(0xFCD2), name: nil): Hex.bytes("4002ca0903bf13")!]))
        await live.drain()
        var documents: [String: [String: Any]] = [:]
        for line in await configs.lines() {
            let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
            documents[parts[0]] = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(parts[1].utf8)) as? [String: Any])
        }
        let temperature = try XCTUnwrap(documents[HomeAssistant.sensorConfigTopic(sensor, "temperature")], "\(documents.keys)")
        XCTAssertTrue(Set(temperature.keys).isSubset(of: HomeAssistant.sensorKeys), "only documented keys: \(temperature.keys.sorted())")
        XCTAssertEqual(temperature["device_class"] as? String, "temperature")
        XCTAssertEqual(temperature["unit_of_measurement"] as? String, "°C")
        XCTAssertEqual(temperature["state_class"] as? String, "measurement")
        XCTAssertEqual((temperature["device"] as? [String: Any])?["name"] as? String, "Lounge", "one device per favorite, by its nickname")
        let humidity = try XCTUnwrap(documents[HomeAssistant.sensorConfigTopic(sensor, "humidity")])
        XCTAssertEqual(humidity["unit_of_measurement"] as? String, "%")
        let stateTopic = try XCTUnwrap(temperature["state_topic"] as? String)
        let state = try await Subscriber(broker, stateTopic, count: 1).lines()
        XCTAssertEqual(state, ["\(stateTopic) 25.06"])
        let availabilityTopic = try XCTUnwrap(temperature["availability_topic"] as? String)
        let online = try await Subscriber(broker, availabilityTopic, count: 1).lines()
        XCTAssertEqual(online, ["\(availabilityTopic) online"])

        // Five minutes on without a reading: unavailable.
        let gone = try Subscriber(broker, availabilityTopic, count: 2)
        sharing.now = { heard.addingTimeInterval(BusSharing.readingTimeout + 1) }
        scanner.feed(Observation(id: DeviceID(octets: [1, 2, 3, 4, 5, 6], kind: .lePublic), timestamp: heard, rssi: -70))
        await live.drain()
        let said = await gone.lines()
        XCTAssertEqual(said.last, "\(availabilityTopic) offline")
        live.stop()
    }

    func testAFavoritesStatesAreBinarySensorsAndItsButtonPressesEventsSaidOncePerFrame() async throws {
        let broker = try Broker()
        let scanner = FakeScanner()
        let live = LiveDevices(makeScanner: { _ in scanner }, sightings: nil, refreshesPerSecond: 50)
        let favorites = Favorites(useCases: FavoritesUseCases(repository: FakeFavoritesRepository()), live: live, sightings: nil)
        await favorites.load()
        let sensor = DeviceID(octets: [0xA4, 0xC1, 0x38, 0x00, 0x33, 0x44], kind: .lePublic)
        _ = await favorites.add(sensor, name: "Door sensor", nickname: "Front door")
        live.start(mode: .continuous)
        let doorConfig = try Subscriber(broker, "homeassistant/binary_sensor/+/config", count: 1)
        let buttonConfig = try Subscriber(broker, "homeassistant/event/+/config", count: 1)
        let sharing = BusSharing(broker: MQTTAddress(tls: false, user: nil, host: "127.0.0.1", port: broker.port, prefix: "home"),
                                 gateway: "laptop", live: live, favorites: favorites, own: "This Computer", log: { _ in })
        defer { sharing.stop() }
        // BTHome v2 (bthome.io/format): packet 5, door open (0x1A), button: press (0x3A).
        func frame(_ hex: String) async {
            scanner.feed(Observation(id: sensor, timestamp: Date(), rssi: -60, name: "Door sensor",
                                     serviceData: [ServiceID(BluetoothUUID(0xFCD2), name: nil): Hex.bytes(hex)!]))
            await live.drain()
        }
        await frame("40" + "0005" + "1a01" + "3a01")
        func document(_ subscriber: Subscriber) async throws -> (topic: String, object: [String: Any]) {
            let lines = await subscriber.lines()
            let line = try XCTUnwrap(lines.first)
            let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
            return (parts[0], try XCTUnwrap(JSONSerialization.jsonObject(with: Data(parts[1].utf8)) as? [String: Any]))
        }
        let door = try await document(doorConfig)
        XCTAssertEqual(door.topic, HomeAssistant.readingConfigTopic(sensor, "door", .known("door")))
        XCTAssertTrue(Set(door.object.keys).isSubset(of: HomeAssistant.binarySensorKeys), "\(door.object.keys.sorted())")
        XCTAssertEqual(door.object["device_class"] as? String, "door")
        XCTAssertEqual(door.object["payload_on"] as? String, "ON")
        XCTAssertEqual((door.object["device"] as? [String: Any])?["name"] as? String, "Front door")
        let doorState = try XCTUnwrap(door.object["state_topic"] as? String)
        let opened = try await Subscriber(broker, doorState, count: 1).lines()
        XCTAssertEqual(opened, ["\(doorState) ON"])

        let button = try await document(buttonConfig)
        XCTAssertTrue(Set(button.object.keys).isSubset(of: HomeAssistant.eventKeys), "\(button.object.keys.sorted())")
        XCTAssertEqual(button.object["device_class"] as? String, "button")
        XCTAssertEqual(button.object["event_types"] as? [String], ["press", "double_press", "triple_press", "long_press",
                                                                   "long_double_press", "long_triple_press", "hold_press",
                                                                   "quadruple_press", "quintuple_press", "release"])
        let buttonState = try XCTUnwrap(button.object["state_topic"] as? String)
        // A double press, its frame sent three times as sensors do, then a press: two events.
        let events = try Subscriber(broker, buttonState, count: 2)
        for _ in 0..<3 { await frame("40" + "0006" + "1a00" + "3a02") }
        await frame("40" + "0007" + "1a00" + "3a01")
        let said = await events.lines()
        XCTAssertEqual(said, ["\(buttonState) {\"event_type\":\"double_press\"}", "\(buttonState) {\"event_type\":\"press\"}"])
        let closed = try await Subscriber(broker, doorState, count: 1).lines()
        XCTAssertEqual(closed, ["\(doorState) OFF"], "the door closed")
        live.stop()
    }
}
