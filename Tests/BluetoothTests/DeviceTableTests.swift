// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

@testable import Bluetooth
import Domain
import Foundation
import XCTest

/// The device table folds raw events in directly; a report that repeats its device's last one
/// skips decoding, and the result must be exactly what the full decoder would have built.
final class DeviceTableTests: XCTestCase {
    private let address: [UInt8] = [0x06, 0x05, 0x04, 0x03, 0x02, 0xC1]

    private func legacy(name: String, rssi: Int8, type: UInt8 = 0x00, address: [UInt8]? = nil) -> [UInt8] {
        let ad: [UInt8] = [0x02, 0x01, 0x06, UInt8(name.utf8.count + 1), 0x09] + Array(name.utf8)
        let body: [UInt8] = [0x02, 0x01, type, 0x01] + (address ?? self.address) + [UInt8(ad.count)] + ad + [UInt8(bitPattern: rssi)]
        return [0x3E, UInt8(body.count)] + body
    }

    private func extended(data: [UInt8], txPower: Int8, rssi: Int8, type: UInt16 = 0x0013) -> [UInt8] {
        var body: [UInt8] = [0x0D, 0x01, UInt8(type & 0xFF), UInt8(type >> 8), 0x01] + address + [0x01, 0x00, 0xFF]
        body += [UInt8(bitPattern: txPower), UInt8(bitPattern: rssi), 0, 0, 0, 0, 0, 0, 0, 0, 0, UInt8(data.count)] + data
        return [0x3E, UInt8(body.count)] + body
    }

    private func time(_ seconds: Double) -> Date { Date(timeIntervalSince1970: 1_700_000_000 + seconds) }

    func testRepeatedReportsAreCountedWithTheirSignalAndTime() throws {
        var table = DeviceTable()
        for (i, rssi) in [Int8(-60), -50, -70].enumerated() {
            XCTAssertEqual(try table.add(event: legacy(name: "Kettle", rssi: rssi)[...], at: time(Double(i))), 1)
        }
        let device = try XCTUnwrap(table.devices.values.first)
        XCTAssertEqual(table.devices.count, 1)
        XCTAssertEqual(device.name, "Kettle")
        XCTAssertEqual(device.reports, 3)
        XCTAssertEqual(device.rssi, -70, "the last signal")
        XCTAssertEqual(device.rssiMax, -50)
        XCTAssertEqual(device.firstSeen, time(0))
        XCTAssertEqual(device.lastSeen, time(2))
        XCTAssertEqual(device.last.rssi, -70)
        XCTAssertEqual(device.last.timestamp, time(2))
        XCTAssertEqual(device.last.flags, 0x06)
    }

    func testChangedDataTypeOrTxPowerIsDecodedAgain() throws {
        var table = DeviceTable()
        try table.add(event: legacy(name: "Alpha", rssi: -60)[...], at: time(0))
        try table.add(event: legacy(name: "Beta", rssi: -61)[...], at: time(1))
        XCTAssertEqual(table.devices.values.first?.name, "Beta", "a renamed device shows its new name")
        try table.add(event: legacy(name: "Beta", rssi: -62, type: 0x04)[...], at: time(2))
        XCTAssertEqual(table.devices.values.first?.last.isScanResponse, true, "a scan response with the same data is still a scan response")
        try table.add(event: legacy(name: "Beta", rssi: -63, type: 0x03)[...], at: time(3))
        XCTAssertEqual(table.devices.values.first?.last.connectable, false)

        var ext = DeviceTable()
        let data: [UInt8] = [0x02, 0x01, 0x06] + [UInt8](repeating: 0xAB, count: 40)
        try ext.add(event: extended(data: data, txPower: 4, rssi: -50)[...], at: time(0))
        try ext.add(event: extended(data: data, txPower: -8, rssi: -51)[...], at: time(1))
        try ext.add(event: extended(data: data, txPower: 127, rssi: 127)[...], at: time(2))
        let device = try XCTUnwrap(ext.devices.values.first)
        XCTAssertEqual(device.txPower, -8, "a new TX power is taken; \"not available\" keeps the last known")
        XCTAssertEqual(device.rssi, -51, "a report without RSSI keeps the last reading")
        XCTAssertNil(device.last.rssi)
        XCTAssertEqual(device.reports, 3)
    }

    func testMalformedEventsFailWithTheDecodersErrors() {
        var table = DeviceTable()
        var packet = legacy(name: "Kettle", rssi: -60)
        packet[1] -= 1 // the RSSI falls outside the stated length
        XCTAssertThrowsError(try table.add(event: packet[...], at: time(0))) { XCTAssertTrue($0 is DecodeError) }
        XCTAssertTrue(table.devices.isEmpty)
    }

    /// Folding events in directly gives the same table as decoding each into observations,
    /// on real captures, the demo, and mutated events (bad lengths, types and bytes alike).
    func testEventPathBuildsTheSameTableAsTheObservationPath() throws {
        var streams: [(String, [(ArraySlice<UInt8>, Date)])] = []
        let captures = CaptureTests.captures
        var paths = ["android-legacy-adverts-govee.btsnoop", "android-extended-adverts.btsnoop"]
            .map { captures.appending(path: $0).path }
        if let demo = DemoCapture.path() { paths.append(demo) }
        for path in paths where FileManager.default.fileExists(atPath: path) {
            let packets = try BtsnoopReader(path: path).packets().packets.filter { $0.type == .event && $0.received }
            streams.append((path, packets.map { ($0.bytes[...], $0.timestamp) }))
        }
        XCTAssertFalse(streams.isEmpty, "the demo capture is in data/")

        // A small pseudo-random room: 20 devices, repeats, renames, scan responses, extended
        // reports, and one byte in eight of the events changed at random.
        var seed: UInt64 = 0x5EED
        func next(_ bound: Int) -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int((seed >> 33) % UInt64(bound))
        }
        var mutated: [(ArraySlice<UInt8>, Date)] = []
        for i in 0..<20_000 {
            let device: [UInt8] = [UInt8(next(20)), 0x02, 0x03, 0x04, 0x05, 0xC0]
            var packet: [UInt8]
            switch next(10) {
            case 0: packet = extended(data: [0x02, 0x01, 0x06] + [UInt8](repeating: UInt8(next(3)), count: 35),
                                      txPower: Int8(next(3) == 0 ? 127 : -next(20)), rssi: Int8(-next(90)), type: UInt16(next(0x80)))
            case 1: packet = legacy(name: "Renamed \(next(3))", rssi: Int8(-next(90)), address: device)
            case 2: packet = legacy(name: "Dev", rssi: 127, type: UInt8(next(6)), address: device)
            default: packet = legacy(name: "Dev", rssi: Int8(-next(90)), address: device)
            }
            if next(8) == 0 { packet[next(packet.count)] = UInt8(next(256)) }
            if next(50) == 0 { packet.removeLast(next(packet.count)) }
            mutated.append((packet[...], time(Double(i) / 100)))
        }
        streams.append(("mutated events", mutated))

        for (name, events) in streams {
            var expected = DeviceTable()
            var folded = DeviceTable()
            var fragments = AdvertisingFragments()
            for (event, at) in events {
                let decoded = try? ObservationDecoder.observations(inEvent: event, at: at, fragments: &fragments)
                for o in decoded ?? [] { expected.add(o) }
                let count = try? folded.add(event: event, at: at)
                XCTAssertEqual(count, decoded?.count, "\(name): the same events fail, and the same reports count")
            }
            XCTAssertFalse(expected.devices.isEmpty, name)
            XCTAssertEqual(folded.devices.count, expected.devices.count, name)
            for (id, device) in expected.devices {
                XCTAssertEqual(folded.devices[id], device, "\(name): \(id.address)")
            }
        }
    }
}
