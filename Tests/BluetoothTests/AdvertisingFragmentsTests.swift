// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

@testable import Bluetooth
import Domain
import Foundation
import XCTest

/// A 248-byte name does not fit one HCI event: it arrives in pieces and is shown whole.
final class AdvertisingFragmentsTests: XCTestCase {
    /// An LE Extended Advertising Report event with one report; `status` is the data status (0, 1, 2).
    static func extendedEvent(address: [UInt8], status: UInt16, data: [UInt8], rssi: Int8 = -60) -> [UInt8] {
        let type: UInt16 = 0x0001 | status << 5
        var params: [UInt8] = [0x0D, 1, UInt8(type & 0xFF), UInt8(type >> 8), 0x01] + address
        params += [0x01, 0x00, 0xFF, 0x7F, UInt8(bitPattern: rssi)] + [UInt8](repeating: 0, count: 9)
        params += [UInt8(data.count)] + data
        return [0x3E, UInt8(params.count)] + params
    }

    static let address: [UInt8] = [1, 2, 3, 4, 5, 0xC5]

    /// A complete name structure of `name` split into pieces of at most 200 bytes.
    static func pieces(of name: [UInt8]) -> [[UInt8]] {
        let ad = [UInt8(name.count + 1), 0x09] + name
        return stride(from: 0, to: ad.count, by: 200).map { Array(ad[$0 ..< min($0 + 200, ad.count)]) }
    }

    func testALongNameInTwoPiecesIsShownWhole() throws {
        let name = [UInt8](String(repeating: "Ab", count: 124).utf8)
        XCTAssertEqual(name.count, 248)
        let parts = Self.pieces(of: name)
        var table = DeviceTable()
        let first = try table.add(event: Self.extendedEvent(address: Self.address, status: 1, data: parts[0])[...], at: Date())
        XCTAssertEqual(first, 0, "the first piece alone is no report yet")
        try table.add(event: Self.extendedEvent(address: Self.address, status: 0, data: parts[1])[...], at: Date())
        let device = try XCTUnwrap(table.sorted.first)
        XCTAssertEqual(device.advertised.name, String(decoding: name, as: UTF8.self))
        XCTAssertFalse(device.advertised.malformed)
        // The next advertisement repeats itself: joined again, not mistaken for a whole one.
        try table.add(event: Self.extendedEvent(address: Self.address, status: 1, data: parts[0])[...], at: Date())
        try table.add(event: Self.extendedEvent(address: Self.address, status: 0, data: parts[1])[...], at: Date())
        XCTAssertEqual(table.sorted.count, 1)
        XCTAssertEqual(table.sorted.first?.advertised.name, String(decoding: name, as: UTF8.self))
    }

    func testATruncatedAdvertisementKeepsTheDeviceAndSaysItBrokeOff() throws {
        let name = [UInt8](String(repeating: "x", count: 248).utf8)
        let parts = Self.pieces(of: name)
        var fragments = AdvertisingFragments()
        XCTAssertTrue(try ObservationDecoder.observations(inEvent: Self.extendedEvent(address: Self.address, status: 1, data: parts[0])[...],
                                                          at: Date(), fragments: &fragments).isEmpty)
        let flags: [UInt8] = [0x02, 0x01, 0x06]
        let cut = try ObservationDecoder.observations(inEvent: Self.extendedEvent(address: Self.address, status: 2, data: flags)[...],
                                                      at: Date(), fragments: &fragments)
        XCTAssertEqual(cut.count, 1, "a truncated advertisement still lists its device")
        XCTAssertEqual(cut.first?.rssi, -60)
        XCTAssertTrue(cut.first?.malformed == true, "the name broke off, so the data is malformed")
    }

    func testADeviceThatNeverFinishesCannotGrowMemory() throws {
        var fragments = AdvertisingFragments()
        let piece = [UInt8](repeating: 0x41, count: 200)
        for _ in 0..<20 {
            _ = try ObservationDecoder.observations(inEvent: Self.extendedEvent(address: Self.address, status: 1, data: piece)[...],
                                                    at: Date(), fragments: &fragments)
        }
        let ends = try ObservationDecoder.observations(inEvent: Self.extendedEvent(address: Self.address, status: 0, data: [0x02, 0x01, 0x06])[...],
                                                       at: Date(), fragments: &fragments)
        XCTAssertLessThanOrEqual(ends.first?.rawData.count ?? 0, AdvertisingFragments.maxLength,
                                 "pieces beyond the longest legal advertisement are dropped")
    }
}
