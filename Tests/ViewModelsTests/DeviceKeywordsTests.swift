// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
@testable import ViewModels
import XCTest

/// The detail page's keywords name what a device says it is, not its raw numbers.
final class DeviceKeywordsTests: XCTestCase {
    func testAnLEAppearanceIsNamed() async throws {
        let id = try DeviceID(parsing: "C0:98:E5:49:00:06", kind: .leRandom)
        let seen = Observation(id: id, timestamp: Date(), rssi: -50, appearance: 0x03C1)
        let tags = await DeviceDetailViewModel.keywords(id: id, advertised: AdvertisedData(seen))
        XCTAssertTrue(tags.contains("Human interface device: Keyboard"), "\(tags)")
        XCTAssertFalse(tags.contains { $0.hasPrefix("Appearance") }, "\(tags)")
    }

    func testATrackerSaysWhatItIsAndWhereItsOwnerIs() async throws {
        let id = try DeviceID(parsing: "C0:98:E5:49:00:08", kind: .leRandom)
        let seen = Observation(id: id, timestamp: Date(), rssi: -50,
                               serviceData: [ServiceID(BluetoothUUID(0xFE33), name: nil): [0x00, 0x01]])
        let tags = await DeviceDetailViewModel.keywords(id: id, advertised: AdvertisedData(seen))
        XCTAssertTrue(tags.contains("Chipolo · away from its owner"), "\(tags)")
    }

    func testAnUnassignedAppearanceKeepsItsNumber() async throws {
        let id = try DeviceID(parsing: "C0:98:E5:49:00:06", kind: .leRandom)
        let seen = Observation(id: id, timestamp: Date(), rssi: -50, appearance: 0x0C05)
        let tags = await DeviceDetailViewModel.keywords(id: id, advertised: AdvertisedData(seen))
        XCTAssertTrue(tags.contains("Appearance 0xC05"), "\(tags)")
    }

    func testAClassOfDeviceNamesItsMinorClass() async throws {
        let id = try DeviceID(parsing: "00:1A:7D:DA:71:13", kind: .bredr)
        let seen = Observation(id: id, timestamp: Date(), rssi: -60, classOfDevice: 0x240418)
        let tags = await DeviceDetailViewModel.keywords(id: id, advertised: AdvertisedData(seen))
        XCTAssertTrue(tags.contains("Class: Audio/Video: Headphones"), "\(tags)")
    }

    func testAServiceThatTheAppearanceNamesMoreExactlyIsNotRepeated() async throws {
        let id = try DeviceID(parsing: "C0:98:E5:49:00:07", kind: .leRandom)
        let seen = Observation(id: id, timestamp: Date(), rssi: -50, services: [ServiceID(BluetoothUUID(0x1812), name: "Human Interface Device")],
                               appearance: 0x03C1)
        let tags = await DeviceDetailViewModel.keywords(id: id, advertised: AdvertisedData(seen))
        XCTAssertTrue(tags.contains("Human interface device: Keyboard"), "\(tags)")
        XCTAssertFalse(tags.contains("Human Interface Device"), "the service is a property, said there: \(tags)")
    }

    func testKeywordsHoldWhatNoOtherSectionSaysAndAKnownFormatSaysItsName() async throws {
        let id = try DeviceID(parsing: "C4:7C:8D:6A:3E:03", kind: .leRandom)
        let seen = Observation(id: id, timestamp: Date(), rssi: -50, txPower: -8, services: [ServiceID(BluetoothUUID(0x180F), name: "Battery")],
                               manufacturerData: [ManufacturerData(companyID: 0xEC88, companyName: ManufacturerData.unknownMaker(0xEC88), data: [])],
                               serviceData: [ServiceID(BluetoothUUID(0xFCD2), name: nil): [0x40]])
        let tags = await DeviceDetailViewModel.keywords(id: id, advertised: AdvertisedData(seen), format: "BTHome")
        XCTAssertEqual(tags, ["Bluetooth LE", "BTHome data"], "the address type, maker, services and TX power are properties")
        let plain = await DeviceDetailViewModel.keywords(id: id, advertised: AdvertisedData(seen))
        XCTAssertTrue(plain.contains("Data for FCD2"), "\(plain)")
        let named = await DeviceDetailViewModel.properties(id: id, advertised: AdvertisedData(seen), format: "Govee")
        XCTAssertEqual(named.manufacturer, "Govee data", "a company number no one was given, by the format that read it")
        let unknown = await DeviceDetailViewModel.properties(id: id, advertised: AdvertisedData(seen))
        XCTAssertEqual(unknown.manufacturer, "Unknown maker (0xEC88)")
    }

    func testThePropertiesNameTheAddressCompaniesServicesAndTheNameAsSent() async throws {
        let id = try DeviceID(parsing: "C0:98:E5:49:00:08", kind: .leRandom)
        let seen = Observation(id: id, timestamp: Date(), rssi: -50, name: "Polar H10", txPower: -8,
                               services: [ServiceID(BluetoothUUID(0x180D), name: "Heart Rate"), ServiceID(BluetoothUUID(0xFFF0), name: nil)],
                               manufacturerData: [ManufacturerData(companyID: 0x006B, companyName: "Polar Electro OY", data: [])])
        let named = await DeviceDetailViewModel.properties(id: id, advertised: AdvertisedData(seen))
        XCTAssertEqual(named.address, "C0:98:E5:49:00:08")
        XCTAssertEqual(named.advertisedName, "Polar H10")
        XCTAssertEqual(named.manufacturer, "Polar Electro OY")
        XCTAssertEqual(named.services, "Heart Rate, FFF0")
        XCTAssertEqual(named.txPower, "\u{2212}8 dBm")
        let hostile = Observation(id: id, timestamp: Date(), rssi: -50, name: "R\u{FFFD}D\n\u{07}", invalidNameBytes: [0x52, 0xFF, 0x44, 0x0A, 0x07])
        let shown = await DeviceDetailViewModel.properties(id: id, advertised: AdvertisedData(hostile))
        XCTAssertEqual(shown.advertisedName, "R\u{FFFD}D\u{240A}\u{2407}", "control characters are shown as symbols")
        let tags = await DeviceDetailViewModel.keywords(id: id, advertised: AdvertisedData(hostile))
        XCTAssertTrue(tags.contains("Name bytes, not valid UTF-8: 52 FF 44 0A 07"), "\(tags)")
        var broken = hostile
        broken.malformed = true
        let brokenTags = await DeviceDetailViewModel.keywords(id: id, advertised: AdvertisedData(broken))
        XCTAssertTrue(brokenTags.contains("Malformed advertising data"), "\(brokenTags)")
    }
}
