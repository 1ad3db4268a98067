// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import XCTest

/// The one merge rule, smoothing and the signal trace of a live device.
final class LiveDeviceTests: XCTestCase {
    private let id = try! DeviceID(parsing: "C0:98:E5:49:00:01", kind: .leRandom)

    private func at(_ seconds: Double) -> Date { Date(timeIntervalSince1970: 1_000 + seconds) }

    func testAScanResponseAddsToTheAdvertisementWithoutUndoingConnectable() {
        let advertisement = Observation(id: id, timestamp: at(1), rssi: -60, name: "Speaker",
                                        flags: 0x06, connectable: true, services: [ServiceID(BluetoothUUID(0x110B), name: "Audio Sink")])
        let response = Observation(id: id, timestamp: at(2), rssi: -58, connectable: false, isScanResponse: true,
                                   manufacturerData: [ManufacturerData(companyID: 0x0059, companyName: "Nordic Semiconductor ASA", data: [1])],
                                   serviceData: [ServiceID(BluetoothUUID(0xFEAA), name: nil): [0x10]], appearance: 0x0841)
        var device = LiveDevice(advertisement)
        device.fold(response)
        let merged = device.advertised
        XCTAssertEqual(merged.connectable, true, "a scan response says nothing about connectability")
        XCTAssertEqual(merged.name, "Speaker")
        XCTAssertEqual(merged.services.map(\.uuid), ["110B"])
        XCTAssertEqual(merged.manufacturerData.map(\.companyID), [0x0059])
        XCTAssertEqual(merged.serviceData.keys.map(\.uuid), ["FEAA"])
        XCTAssertEqual(merged.appearance, 0x0841)
        XCTAssertEqual(merged.flags, 0x06)
        XCTAssertEqual(device.rssi, -58, "the signal is the newest")
        device.fold(advertisement)
        XCTAssertEqual(device.advertised.services.count, 1, "no duplicates")
        XCTAssertEqual(device.advertised.manufacturerData.count, 1)
        XCTAssertEqual(device.reports, 3)
        XCTAssertEqual(device.firstSeen, at(1))
        XCTAssertEqual(device.lastSeen, at(2), "a late report does not move the last sighting back")
    }

    func testAScanResponseThatOnlyListsAServiceDecodesTheSensorAgain() {
        // A Mopeka Pro Plus sends its manufacturer block in the advertisement and FEE5 in the
        // scan response; it is a sensor only once both are heard, whichever comes second.
        let block = ManufacturerData(companyID: 0x0059, companyName: "Nordic Semiconductor ASA",
                                     data: Hex.bytes("0860" + "3d" + "e8c3" + "000000" + "0102")!)
        var device = LiveDevice(Observation(id: id, timestamp: at(1), rssi: -60, manufacturerData: [block]))
        XCTAssertNil(device.advertised.sensor, "without FEE5 it is some other device of that company")
        device.fold(Observation(id: id, timestamp: at(2), rssi: -60, isScanResponse: true,
                                services: [ServiceID(BluetoothUUID(0xFEE5), name: nil)], manufacturerData: [block]))
        XCTAssertEqual(device.advertised.sensor?.model, SensorModel(maker: "Mopeka", model: "Pro Plus"))
    }

    func testAnEmptyNameNeverHidesTheNameHeardBefore() {
        var device = LiveDevice(Observation(id: id, timestamp: at(0), rssi: -50, name: "Lamp"))
        device.fold(Observation(id: id, timestamp: at(1), rssi: -50, name: ""))
        device.fold(Observation(id: id, timestamp: at(2), rssi: -50))
        XCTAssertEqual(device.advertised.name, "Lamp")
        device.fold(Observation(id: id, timestamp: at(3), rssi: -50, name: "Lamp 2"))
        XCTAssertEqual(device.advertised.name, "Lamp 2", "a new name replaces the old one")
    }

    func testNewerManufacturerDataReplacesThatCompanysBlockAndTXPowerIsKept() {
        let apple = { (byte: UInt8) in ManufacturerData(companyID: 0x004C, companyName: "Apple, Inc.", data: [byte]) }
        let govee = ManufacturerData(companyID: 0xEC88, companyName: "Company 0xEC88", data: [9])
        var device = LiveDevice(Observation(id: id, timestamp: at(0), rssi: -50, txPower: 4, manufacturerData: [apple(1), govee]))
        device.fold(Observation(id: id, timestamp: at(1), rssi: -50, manufacturerData: [apple(2)]))
        XCTAssertEqual(device.advertised.manufacturerData, [govee, apple(2)])
        XCTAssertEqual(device.advertised.company, apple(2), "the company heard last")
        XCTAssertEqual(device.advertised.txPower, 4)
    }

    func testTheSignalIsSmoothedButTheLastReadingIsKept() {
        var device = LiveDevice(Observation(id: id, timestamp: at(0), rssi: -50))
        device.fold(Observation(id: id, timestamp: at(2), rssi: -90))
        XCTAssertEqual(device.smoothed, -62, "one outlier moves the figure 30 % of the way")
        XCTAssertEqual(device.rssi, -90)
        device.fold(Observation(id: id, timestamp: at(3), rssi: nil, name: "Quiet"))
        XCTAssertEqual(device.rssi, -90, "a report without a signal keeps the last one")
    }

    func testTheTraceKeepsOneReadingASecondForAboutFiveMinutes() {
        var trace = SignalTrace()
        for step in 0..<40 { trace.add(-50 - step / 4, at: at(Double(step) * 0.25)) }
        XCTAssertEqual(trace.count, 10)
        XCTAssertEqual(trace.readings.first?.0, at(0))
        XCTAssertEqual(trace.readings.map(\.1).first, -50)
        XCTAssertEqual(trace.last, -59, "the newest reading of each second wins")
        for second in 10..<1_000 { trace.add(-70, at: at(Double(second))) }
        XCTAssertEqual(trace.count, SignalTrace.capacity)
        XCTAssertEqual(trace.readings.first!.0.timeIntervalSince1970, at(670).timeIntervalSince1970, accuracy: 0.01)
        for second in 1_000..<8_000 where second % 10 == 0 { trace.add(-71, at: at(Double(second))) }
        XCTAssertEqual(trace.readings.last!.0.timeIntervalSince1970, at(7_990).timeIntervalSince1970, accuracy: 0.01,
                       "times stay exact after hours")
        trace.add(200, at: at(9_000))
        XCTAssertEqual(trace.last, 127, "out-of-range readings are clamped, never a trap")
    }
}
