// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Bluetooth
import Domain
import Foundation
import Localization

/// What OpenMQTTGateway and Theengs Gateway publish for each advertisement they hear: topic
/// `PREFIX/<gateway>/BTtoMQTT/<MAC>`, a JSON object with `id`, `mac_type`, `adv_type`, `rssi`,
/// `name`, `manufacturerdata` (hex, the company first), `servicedata` (hex) with
/// `servicedatauuid` ("0xfe95") and `txpower` (OpenMQTTGateway's "BLE gateway" documentation,
/// "Advertisements and decoded data"). The fields are turned back into the advertising data
/// structures they came from, so names, services, trackers and identity work as for a local
/// report. Everything in a message is device text: hostile until shown as text.
public enum BTtoMQTT {
    /// Why a message was skipped.
    public enum Problem: Error, Equatable, Sendable {
        case tooLarge(Int)
        case topicNotUTF8
        case foreignTopic
        case notJSON
        case noID
        case badID(String)
        case badField(String)

        public var message: String {
            switch self {
            case .tooLarge(let bytes): return L10n.format("a message of {} bytes, more than any advertisement", Formats.number(bytes))
            case .topicNotUTF8: return L10n.tr("a topic that is not UTF-8")
            case .foreignTopic: return L10n.tr("a topic outside PREFIX/<gateway>/BTtoMQTT/")
            case .notJSON: return L10n.tr("a message that is not a JSON object")
            case .noID: return L10n.tr("a message without the device's address (id)")
            case .badID(let id): return L10n.format("an address that is none: {}", DeviceText.terminal(id))
            case .badField(let field): return L10n.format("a field that cannot be read: {}", field)
            }
        }
    }

    /// The largest message read: a JSON advertisement is a few hundred bytes.
    public static let largest = 16 * 1024

    /// The gateway `topic` names, under `prefix`.
    public static func gateway(inTopic topic: [UInt8], prefix: String) throws(Problem) -> String {
        guard let text = String(validating: topic, as: UTF8.self) else { throw .topicNotUTF8 }
        let levels = text.split(separator: "/", omittingEmptySubsequences: false)
        let mine = prefix.split(separator: "/", omittingEmptySubsequences: false)
        guard levels.count == mine.count + 3, Array(levels.prefix(mine.count)) == mine,
              levels[mine.count + 1] == "BTtoMQTT", !levels[mine.count].isEmpty else { throw .foreignTopic }
        return String(levels[mine.count])
    }

    /// The report `payload` holds, heard by `source` at `time`.
    public static func observation(_ payload: [UInt8], at time: Date, source: String?) throws(Problem) -> Observation {
        guard payload.count <= largest else { throw .tooLarge(payload.count) }
        guard let object = try? JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any] else { throw .notJSON }
        guard let id = object["id"] as? String else { throw .noID }
        let macType = object["mac_type"] as? Int
        guard let parsed = try? DeviceID(parsing: id, kind: .lePublic) else { throw .badID(id) }
        // mac_type 1 is a random address; without it, the two top bits 11 say "static random".
        let random = macType.map { $0 & 1 == 1 } ?? (parsed.octets[0] & 0xC0 == 0xC0)
        let address = DeviceID(octets: parsed.octets, kind: random ? .leRandom : .lePublic)
        var data: [UInt8] = []
        func add(_ type: UInt8, _ bytes: [UInt8]) throws(Problem) {
            guard bytes.count <= 253 else { throw .badField(L10n.format("{} bytes in one structure", Formats.number(bytes.count))) }
            data += [UInt8(bytes.count + 1), type] + bytes
        }
        if let name = object["name"] as? String, !name.isEmpty {
            try add(0x09, Array(name.utf8.prefix(248)))
        }
        if let hex = object["manufacturerdata"] as? String {
            guard let bytes = Hex.bytes(hex), bytes.count >= 2 else { throw .badField("manufacturerdata") }
            try add(0xFF, bytes)
        }
        if let hex = object["servicedata"] as? String, let uuidText = object["servicedatauuid"] as? String {
            let digits = uuidText.lowercased().hasPrefix("0x") ? String(uuidText.dropFirst(2)) : uuidText
            guard let bytes = Hex.bytes(hex), let uuid = BluetoothUUID(digits) else { throw .badField("servicedata") }
            try add(uuid.serviceDataType, uuid.wire + bytes)
        }
        let txPower = object["txpower"] as? Int
        if let txPower { try add(0x0A, [UInt8(bitPattern: Int8(clamping: txPower))]) }
        let rssi = (object["rssi"] as? Int).map { Int(Int8(clamping: $0)) }
        let event = (object["adv_type"] as? Int).flatMap { UInt8(exactly: $0) }.flatMap { AdvertisingEventType(legacy: $0) }
            ?? AdvertisingEventType(extended: 0x0010)
        let report = AdvertisingReport(eventType: event, addressType: random ? 1 : 0, address: address.octets.reversed(),
                                       rssi: rssi, txPower: nil, data: data)
        var o = ObservationDecoder.observation(report, at: time)
        o.source = source
        return o
    }

    /// What this computer heard of `id`, as a gateway publishes it: the topic under `prefix`
    /// and `gateway`, and the JSON object (the fields the reader above takes back).
    public static func message(_ id: DeviceID, _ advertised: AdvertisedData, rssi: Int?, prefix: String,
                               gateway: String) -> (topic: String, payload: [UInt8]) {
        var object: [String: Any] = ["id": id.address, "mac_type": id.kind == .leRandom ? 1 : 0]
        if let rssi { object["rssi"] = rssi }
        if let name = advertised.name { object["name"] = name }
        if let tx = advertised.txPower { object["txpower"] = tx }
        if let connectable = advertised.connectable { object["adv_type"] = connectable ? 0 : 3 }
        if let company = advertised.company {
            object["manufacturerdata"] = DeviceRecord.hex([UInt8(company.companyID & 0xFF), UInt8(company.companyID >> 8)] + company.data)
        }
        if let (service, data) = advertised.serviceData.min(by: { $0.key.uuid < $1.key.uuid }) {
            object["servicedata"] = DeviceRecord.hex(data)
            object["servicedatauuid"] = service.uuid.count == 4 ? "0x" + service.uuid.lowercased() : service.uuid.lowercased()
        }
        let payload = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        let mac = id.address.replacingOccurrences(of: ":", with: "")
        return ("\(prefix)/\(gateway)/BTtoMQTT/\(mac)", Array(payload))
    }
}
