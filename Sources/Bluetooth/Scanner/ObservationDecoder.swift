// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation

/// Turns HCI events into observations: the one path from event to observation, shared by the
/// live scanner (HCIScanner), replay (ReplayScanner) and the device table.
public enum ObservationDecoder {
    /// The observations in one event packet (code, length, parameters); none for other events.
    public static func observations(inEvent packet: ArraySlice<UInt8>, at time: Date) throws(DecodeError) -> [Observation] {
        observations(in: try HCIEvent.decode(packet), at: time)
    }

    /// As `observations(inEvent:at:)`, joining an extended advertisement's pieces through `fragments`.
    public static func observations(inEvent packet: ArraySlice<UInt8>, at time: Date,
                                    fragments: inout AdvertisingFragments) throws(DecodeError) -> [Observation] {
        observations(in: fragments.join(try HCIEvent.decode(packet)), at: time)
    }

    /// The observations in one decoded event, in the order of its reports; none for other events.
    /// Inquiry results give one observation per response, in the response order.
    public static func observations(in event: HCIEvent, at time: Date) -> [Observation] {
        switch event {
        case .leAdvertisingReports(let reports):
            return reports.map { observation($0, at: time) }
        case .inquiryResults(let responses):
            return responses.map { observation($0, at: time) }
        case .remoteNameRequestComplete(let status, let address, let name) where status == 0 && !name.isEmpty:
            // Remote Name Request Complete (Core v5.4, Vol 4, Part E, §7.7.7): a name without a signal.
            return [Observation(id: DeviceID(wireBytes: address, kind: .bredr), timestamp: time, rssi: nil, name: name)]
        default:
            return []
        }
    }

    /// An LE advertising report as an observation.
    public static func observation(_ report: AdvertisingReport, at time: Date) -> Observation {
        let ad = ADParser.parse(report.data)
        return Observation(id: DeviceID(wireBytes: report.address, kind: kind(addressType: report.addressType)), timestamp: time, rssi: report.rssi,
                           name: ad.name, txPower: ad.txPower ?? report.txPower, flags: ad.flags,
                           connectable: report.eventType.connectable, isScanResponse: report.eventType.scanResponse,
                           services: ad.services, manufacturerData: ad.manufacturerData, serviceData: ad.serviceData,
                           appearance: ad.appearance, classOfDevice: ad.classOfDevice, rawData: report.data,
                           invalidNameBytes: ad.invalidNameBytes, malformed: ad.problem != nil)
    }

    /// The kind of an LE address type; identity types (2, 3) are the resolved public/random addresses.
    @inlinable
    public static func kind(addressType: UInt8) -> AddressKind { addressType & 0x01 == 0 ? .lePublic : .leRandom }

    /// An inquiry response as an observation.
    public static func observation(_ response: InquiryResponse, at time: Date) -> Observation {
        let ad = ADParser.parse(response.eir)
        return Observation(id: DeviceID(wireBytes: response.address, kind: .bredr), timestamp: time, rssi: response.rssi,
                           name: ad.name, txPower: ad.txPower, flags: ad.flags, connectable: nil,
                           services: ad.services, manufacturerData: ad.manufacturerData, serviceData: ad.serviceData,
                           appearance: ad.appearance, classOfDevice: response.classOfDevice, rawData: response.eir,
                           invalidNameBytes: ad.invalidNameBytes, malformed: ad.problem != nil)
    }
}
