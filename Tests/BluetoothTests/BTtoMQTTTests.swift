// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Bluetooth
import Domain
import Foundation
import HomeServices
import XCTest

/// A gateway's BTtoMQTT message read back into the advertisement it came from, so a tracker,
/// a name or a service heard in the kitchen reads as it would here; and every way a message
/// can be wrong refused with its reason, nothing guessed.
final class BTtoMQTTTests: XCTestCase {
    private let now = Date(timeIntervalSince1970: 1_800_000_000)

    private func read(_ json: String, source: String? = "Kitchen") throws -> Observation {
        try BTtoMQTT.observation(Array(json.utf8), at: now, source: source)
    }

    private func problem(_ json: String) -> BTtoMQTT.Problem? {
        do { _ = try read(json); return nil } catch { return error as? BTtoMQTT.Problem }
    }

    func testTheFieldsBecomeTheAdvertisementAgain() throws {
        let o = try read(#"{"id":"c0:de:ad:be:ef:01","mac_type":1,"adv_type":0,"name":"Keys","rssi":-61,"txpower":-4,"manufacturerdata":"590001020304","servicedata":"2a00","servicedatauuid":"0x180f"}"#)
        XCTAssertEqual(o.id, try DeviceID(parsing: "C0:DE:AD:BE:EF:01", kind: .leRandom))
        XCTAssertEqual(o.source, "Kitchen")
        XCTAssertEqual(o.name, "Keys")
        XCTAssertEqual(o.rssi, -61)
        XCTAssertEqual(o.txPower, -4)
        XCTAssertEqual(o.connectable, true)
        XCTAssertEqual(o.manufacturerData.first?.companyID, 0x0059)
        XCTAssertEqual(o.manufacturerData.first?.data, [1, 2, 3, 4])
        XCTAssertEqual(o.serviceData.first?.key.uuid, "180F")
        XCTAssertEqual(o.serviceData.first?.value, [0x2A, 0x00])
        XCTAssertFalse(o.malformed)
    }

    func testASensorHeardByAGatewayIsDecodedAsIfHeardHere() throws {
        // A BTHome thermometer in the kitchen, as OpenMQTTGateway publishes its raw data.
        let o = try read(#"{"id":"A4:C1:38:00:11:22","rssi":-66,"servicedata":"4002ca0903bf13","servicedatauuid":"0xfcd2"}"#)
        var advertised = AdvertisedData()
        advertised.merge(o)
        XCTAssertEqual(advertised.sensor?.readings.map(\.quantity.key), ["temperature", "humidity"])
        XCTAssertEqual(advertised.sensor?.readings.map(\.value), [25.06, 50.55])
    }

    func testATrackerHeardByAGatewayIsATrackerHere() throws {
        let airTag = try read(#"{"id":"D1:22:33:44:55:66","rssi":-70,"manufacturerdata":"4c00121910\#(String(repeating: "ab", count: 24))"}"#)
        XCTAssertEqual(TrackerTable.read(airTag.manufacturerData.isEmpty ? AdvertisedData() : { var a = AdvertisedData(); a.merge(airTag); return a }())?.words,
                       "AirTag · away from its owner")
        XCTAssertEqual(airTag.id.kind, .leRandom, "without mac_type, the top bits 11 say static random")
        let smartTag = try read(#"{"id":"00:11:22:33:44:55","mac_type":0,"rssi":-70,"servicedata":"02640000000000000000000000","servicedatauuid":"0xfd5a"}"#)
        XCTAssertEqual(smartTag.id.kind, .lePublic)
        XCTAssertEqual(TrackerTable.read(manufacturerData: [], serviceData: smartTag.serviceData)?.kind, .smartTag)
    }

    func testAHostileNameIsKeptAsSentForTheDeviceTextRule() throws {
        let o = try read(#"{"id":"C0:00:00:00:00:01","name":"<b>\u202Eevil\u0007=HYPERLINK(1)","rssi":-50}"#)
        XCTAssertEqual(o.name, "<b>\u{202E}evil\u{07}=HYPERLINK(1)")
        XCTAssertEqual(DeviceText.terminal(o.name ?? ""), "<b>\\u{202e}evil\\x07=HYPERLINK(1)", "on a terminal, the controls are escaped")
    }

    func testEveryWayAMessageCanBeWrongIsRefusedWithItsReason() {
        XCTAssertEqual(problem("not json"), .notJSON)
        XCTAssertEqual(problem("[1,2]"), .notJSON)
        XCTAssertEqual(problem(#"{"rssi":-40}"#), .noID)
        XCTAssertEqual(problem(#"{"id":42}"#), .noID)
        XCTAssertEqual(problem(#"{"id":"kitchen"}"#), .badID("kitchen"))
        XCTAssertEqual(problem(#"{"id":"C0:00:00:00:00:01","manufacturerdata":"4c0"}"#), .badField("manufacturerdata"))
        XCTAssertEqual(problem(#"{"id":"C0:00:00:00:00:01","manufacturerdata":"zz00"}"#), .badField("manufacturerdata"))
        XCTAssertEqual(problem(#"{"id":"C0:00:00:00:00:01","servicedata":"00","servicedatauuid":"heart"}"#), .badField("servicedata"))
        let huge = #"{"id":"C0:00:00:00:00:01","manufacturerdata":""# + String(repeating: "00", count: 300) + #""}"#
        XCTAssertNotNil(problem(huge), "more than one structure holds")
        XCTAssertThrowsError(try BTtoMQTT.observation(Array(repeating: 0x20, count: 10 * 1024 * 1024), at: now, source: nil)) { error in
            XCTAssertEqual(error as? BTtoMQTT.Problem, .tooLarge(10 * 1024 * 1024))
        }
    }

    func testTheTopicNamesTheGatewayUnderItsPrefix() throws {
        XCTAssertEqual(try BTtoMQTT.gateway(inTopic: Array("home/Kitchen/BTtoMQTT/C0DEADBEEF01".utf8), prefix: "home"), "Kitchen")
        XCTAssertEqual(try BTtoMQTT.gateway(inTopic: Array("site/a/Office 2/BTtoMQTT/x".utf8), prefix: "site/a"), "Office 2")
        for topic in ["home/Kitchen/SYStoMQTT/x", "other/Kitchen/BTtoMQTT/x", "home//BTtoMQTT/x", "home/Kitchen/BTtoMQTT"] {
            XCTAssertThrowsError(try BTtoMQTT.gateway(inTopic: Array(topic.utf8), prefix: "home"), topic) { error in
                XCTAssertEqual(error as? BTtoMQTT.Problem, .foreignTopic)
            }
        }
        XCTAssertThrowsError(try BTtoMQTT.gateway(inTopic: [0x68, 0x6F, 0x6D, 0x65, 0x2F, 0xFF, 0xFE, 0x2F], prefix: "home")) { error in
            XCTAssertEqual(error as? BTtoMQTT.Problem, .topicNotUTF8)
        }
    }

    func testBrokerAddresses() throws {
        let plain = try MQTTAddress(parsing: "mqtt://gw@broker.local/home")
        XCTAssertEqual(plain, MQTTAddress(tls: false, user: "gw", host: "broker.local", port: 1883, prefix: "home"))
        XCTAssertEqual(plain.subscription, "home/+/BTtoMQTT/+")
        let tls = try MQTTAddress(parsing: "mqtts://[::1]:8884/site/a/?ca=/etc/ca.pem")
        XCTAssertEqual(tls, MQTTAddress(tls: true, user: nil, host: "::1", port: 8884, prefix: "site/a", caFile: "/etc/ca.pem"))
        XCTAssertEqual(tls.description, "mqtts://[::1]:8884/site/a?ca=/etc/ca.pem")
        XCTAssertThrowsError(try MQTTAddress(parsing: "mqtt://gw:hunter2@broker/home")) { error in
            XCTAssertFalse("\(error)".contains("hunter2"), "a password is never repeated")
        }
        for bad in ["mqtt://broker", "mqtt://broker/", "mqtt://broker:0/home", "mqtt://broker/#", "http://broker/home"] {
            XCTAssertThrowsError(try MQTTAddress(parsing: bad), bad)
        }
        XCTAssertEqual(try NamedSource(parsing: "Hall=h4-tcp:10.0.0.7:9000"), NamedSource(name: "Hall", source: .h4TCP(host: "10.0.0.7", port: 9000)))
        XCTAssertEqual(try NamedSource(parsing: "mqtt://broker/home").name, nil)
    }

    /// Spaces and tabs typed around a source, a room's name or an address are not part of it.
    func testBlanksAroundASourceANameAndAnAddressAreDropped() throws {
        XCTAssertEqual(try NamedSource(parsing: " Kitchen\t= hci1 "), NamedSource(name: "Kitchen", source: .hci(1)))
        XCTAssertEqual(try NamedSource(parsing: "\u{00A0}demo\t"), NamedSource(name: nil, source: .demo))
        XCTAssertEqual(try NamedSource(parsing: "Living room=auto").name, "Living room", "blanks inside are kept")
        XCTAssertThrowsError(try NamedSource(parsing: " \t=hci0"), "a name of blanks is no name")
        XCTAssertEqual(try DeviceID(parsing: "\t c0:98:e5:49:00:01 ", kind: .lePublic).description, "C0:98:E5:49:00:01")
        XCTAssertEqual(try ScanSource(parsing: "  "), .auto)
    }
}
