// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import SecurityToolbox
import XCTest

/// Govee's event sensors (H5121–H5130) scramble each frame with a key made from its own time
/// field: read with swift-crypto's AES, as the programs install it. The frames are the real ones
/// Home Assistant's Govee integration tests with (tests/components/govee_ble/__init__.py).
final class GoveeEventTests: XCTestCase {
    override func setUp() { SensorCiphers.install(SensorAESBlock()) }

    private func read(_ hex: String, name: String, company: UInt16 = 0xEF88, extra: [ManufacturerData] = []) -> SensorData? {
        let bytes = stride(from: 0, to: hex.count, by: 2).map { i -> UInt8 in
            let start = hex.index(hex.startIndex, offsetBy: i)
            return UInt8(hex[start..<hex.index(start, offsetBy: 2)], radix: 16)!
        }
        return SensorDecoders.decode(SensorFrame(address: "C1:37:37:32:0F:45", name: name,
                                                 manufacturerData: extra + [ManufacturerData(companyID: company, companyName: "", data: bytes)],
                                                 serviceData: [:]))
    }

    private func said(_ data: SensorData?) -> [String: Double] {
        Dictionary((data?.named ?? []).map { ($0.0, $0.1.value) }, uniquingKeysWith: { a, _ in a })
    }

    func testEachModelSaysWhatHappenedAndItsBattery() throws {
        let motion = read("59940000f0b91937ae50b6372c866ac2f3d061e717c02cef", name: "GV5121195A")
        XCTAssertEqual(motion?.model, SensorModel(maker: "Govee", model: "H5121"))
        XCTAssertEqual(said(motion), ["battery": 100, "motion_seen": 1, "packet_id": 0xF0B9])
        XCTAssertEqual(said(read("59940006a3663665c8e6fd7604afe76bbfabebbfb3a3d519", name: "GV5121195A"))["packet_id"], 0xA366,
                       "the next motion has a new time field (its low half tells events apart), so it is a new event")

        XCTAssertEqual(said(read("3dec0000de4377d55e55f991496e36bdc67f8b2c27067497", name: "GV51230B3D"))["window"], 1, "open")
        XCTAssertEqual(said(read("3dec000159db6bd9bed7aff72a26aa4bd72dfa94573e5be9", name: "GV51230B3D"))["window"], 0, "closed")
        XCTAssertEqual(said(read("08a2000125c25957fd7a750ef234a218bb15467c5b737b04", name: "GV51242F68"))["vibration_felt"], 1)

        // An H5125 also sends a twelve-byte block under 0xEC88, which is no Govee thermometer's.
        let other = ManufacturerData(companyID: 0xEC88, companyName: "", data: [0x01, 0x0A, 0x2E, 0xAF, 0xD9, 0x30, 0x38, 0x35, 0x53, 0x67, 0x01, 0x01])
        let first = read("2eaf0000625cae9215b6a80ad4814bca4b5f73d945343002", name: "GV51255367", extra: [other])
        XCTAssertEqual(first?.model, SensorModel(maker: "Govee", model: "H5125"))
        XCTAssertEqual(said(first)["button_1"], 1, "the first of its six buttons")
        XCTAssertEqual(said(read("2eaf0000fb0ec968d7056caf2af31be877f1e1e8e3a7f8c6", name: "GV51255367", extra: [other]))["button_2"], 1)

        let info = try XCTUnwrap(QuantityCatalog.info("motion_seen"))
        XCTAssertEqual(info.event(1)?.0.words(0), "Motion seen")
        XCTAssertEqual(info.deviceClass, "motion", "Home Assistant's event class")
    }

    func testAFrameThatDoesNotHoldTogetherIsNotRead() {
        // One byte of the scrambled part changed: the CRC no longer matches.
        XCTAssertNil(read("59940000f0b91937ae50b6372c866ac2f3d061e717c02cee", name: "GV5121195A"))
        // The time field changed, CRC intact: the key no longer opens it to a known model.
        XCTAssertNil(read("59940001f0b91937ae50b6372c866ac2f3d061e717c02cef", name: "GV5121195A"))
        XCTAssertNil(read("59940000f0b91937ae50b6372c866ac2f3d061e717c0", name: "GV5121195A"), "too short")
    }
}
