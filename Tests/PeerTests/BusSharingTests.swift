// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

@testable import Bluetooth
import Domain
import Foundation
import TestSupport
import XCTest

/// Share with the House against a real broker: what this computer hears is published in the
/// BTtoMQTT format and read back by mosquitto_sub as a gateway's would be; a favorite is a
/// Home Assistant device tracker whose discovery document holds documented keys only, "home"
/// while heard, and renamed with its nickname.
@MainActor
final class BusSharingTests: XCTestCase {
    private let keys = DeviceID(octets: [0xC0, 0xDE, 0xAD, 0xBE, 0xEF, 0x02], kind: .leRandom)

    /// Reads `count` messages on `topic` (retained ones at once), as "topic payload" lines.
    private func subscribe(_ broker: Broker, _ topic: String, count: Int) throws -> (Process, Pipe) {
        let process = Process(), out = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/mosquitto_sub")
        process.arguments = ["-h", "127.0.0.1", "-p", String(broker.port), "-t", topic, "-C", String(count), "-W", "15", "-v"]
        process.standardOutput = out
        try process.run()
        return (process, out)
    }

    private func lines(_ sub: (Process, Pipe)) -> [String] {
        sub.0.waitUntilExit()
        return String(decoding: sub.1.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: "\n").map(String.init)
    }

    func testWhatThisComputerHearsIsPublishedAsAGatewaysAndAFavoriteIsAHomeAssistantTracker() async throws {
        let broker = try Broker()
        let scanner = FakeScanner()
        let live = LiveDevices(makeScanner: { _ in scanner }, sightings: nil, refreshesPerSecond: 50)
        let favorites = Favorites(useCases: FavoritesUseCases(repository: FakeFavoritesRepository()), live: live, sightings: nil)
        await favorites.load()
        _ = await favorites.add(keys, name: "Keys", nickname: "My keys")
        live.start(mode: .continuous)
        let reports = try subscribe(broker, "home/laptop/BTtoMQTT/+", count: 1)
        try await Task.sleep(for: .milliseconds(300))
        let sharing = BusSharing(broker: MQTTAddress(tls: false, user: nil, host: "127.0.0.1", port: broker.port, prefix: "home"),
                                 gateway: "laptop", live: live, favorites: favorites, own: "This Computer", log: { _ in })
        defer { sharing.stop() }
        try await Task.sleep(for: .milliseconds(500))
        for second in 0..<4 {
            scanner.feed(Observation(id: keys, timestamp: Date().addingTimeInterval(Double(second)), rssi: -58, name: "Keys", txPower: 4,
                                     manufacturerData: [ManufacturerData(companyID: 0x0059, companyName: "Nordic", data: [1, 2, 3])]))
            await live.drain()
            try await Task.sleep(for: .milliseconds(200))
        }

        let published = lines(reports)
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
        let config = lines(try subscribe(broker, HomeAssistant.configTopic(keys), count: 1))
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
        XCTAssertEqual(lines(try subscribe(broker, stateTopic, count: 1)), ["\(stateTopic) home"])

        // A new nickname renames the tracker.
        _ = await favorites.rename(keys, to: "Car keys")
        try await Task.sleep(for: .milliseconds(500))
        let renamed = lines(try subscribe(broker, HomeAssistant.configTopic(keys), count: 1))
        XCTAssertTrue(renamed.first?.contains("\"name\":\"Car keys\"") ?? false, "\(renamed)")
        live.stop()
    }
}
