// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import XCTest

/// What a device says it is, named as the Assigned Numbers name it.
final class DeviceKindNamesTests: XCTestCase {
    func testAppearanceNamesCategoryAndSubcategory() {
        XCTAssertEqual(Appearance.name(0x03C1), "Human interface device: Keyboard")
        XCTAssertEqual(Appearance.name(0x0941), "Wearable audio device: Earbud")
        XCTAssertEqual(Appearance.name(0x0841), "Audio sink: Standalone speaker")
        XCTAssertEqual(Appearance.name(0x00C1), "Watch: Sports watch")
        XCTAssertEqual(Appearance.name(0x0341), "Heart rate sensor: Heart rate belt")
    }

    func testAGenericOrUnlistedSubcategoryGivesTheCategoryAlone() {
        XCTAssertEqual(Appearance.name(0x0300), "Thermometer")
        XCTAssertEqual(Appearance.name(0x0080 | 0x3F), "Computer", "subcategory 63 is not assigned")
        XCTAssertEqual(Appearance.name(0x1440), "Outdoor sports activity")
    }

    func testUnknownAndUnassignedAppearancesHaveNoName() {
        XCTAssertNil(Appearance.name(0x0000), "0 means the device did not say")
        XCTAssertNil(Appearance.name(0x0C00), "category 0x30 is not assigned")
        XCTAssertNil(Appearance.name(0xFFFF))
    }

    func testClassOfDeviceNamesMajorAndMinor() {
        XCTAssertEqual(DeviceClass.name(0x240404), "Audio/Video: Headset")
        XCTAssertEqual(DeviceClass.name(0x00010C), "Computer: Laptop")
        XCTAssertEqual(DeviceClass.name(0x000540), "Peripheral: Keyboard")
        XCTAssertEqual(DeviceClass.name(0x000900), "Health")
        XCTAssertEqual(DeviceClass.name(0x001F00), "Uncategorized")
    }
}
