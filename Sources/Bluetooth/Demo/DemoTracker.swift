// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation

/// The demo's unknown tracker: an AirTag away from its owner that has travelled with the user
/// for two hours, through four places, and is in their bag now. It advertises as a separated
/// AirTag does (Apple's Find My frame with a full key), and `story` tells the tracker guard
/// where it was heard before the demo started, so turning on tracker alerts shows what an
/// alert looks like without waiting two hours.
public enum DemoTracker {
    /// Static random, its top bits 11, as a separated AirTag's address is.
    public static let id = DeviceID(octets: [0xD9, 0x3A, 0x51, 0x7C, 0x20, 0x4E], kind: .leRandom)

    /// Company 0x004C, Find My type 0x12, length 0x19 (a full key: away from its owner), status
    /// 0x10 (an AirTag, battery full), 22 bytes of its public key, the key's top bits and a hint.
    static let manufacturerData: [UInt8] = [0x4C, 0x00, 0x12, 0x19, 0x10]
        + [0x6B, 0x21, 0xE0, 0x94, 0x3F, 0xA7, 0x58, 0x0C, 0xD2, 0x71, 0x9E, 0x46, 0xB3, 0x0A, 0x85, 0x2F, 0xC8, 0x17, 0x64, 0xEB, 0x39, 0x5D]
        + [0x02, 0x00]

    /// In a bag: close and steady, as a tag moving with you is.
    static func rssi() -> Int { -47 + Int.random(in: -3...3) }

    /// The LE Advertising Report a controller sends for it: non-connectable, no scan response.
    static func advertisingEvent() -> [UInt8] {
        DemoSensors.report(id, type: 0x03, data: [UInt8(manufacturerData.count + 1), 0xFF] + manufacturerData, rssi: rssi())
    }

    /// Where it was heard before `now`, a sighting a minute as the guard marks them: 40 minutes
    /// at home, 15 on the way, 50 at a café and 30 at the office, the last one 6 minutes ago.
    /// Four places, so every sensitivity's rule calls it out once alerts are on.
    public static func story(before now: Date) -> [TrackerSighting] {
        guard let reading = TrackerTable.read(manufacturerData: [ManufacturerData(companyID: 0x004C, companyName: "Apple", data: Array(manufacturerData.dropFirst(2)))],
                                              serviceData: [:]) else { return [] }
        let key = TrackerWatch.key(of: id, reading)
        // In the bag: near at home and on the way, farther under a café table or an office desk.
        let stays: [(place: String, minutes: Int, rssi: Double)] = [("demo-home", 40, -46), ("demo-street", 15, -52), ("demo-cafe", 50, -49),
                                                                    ("demo-office", 30, -55)]
        var minutesAgo = stays.reduce(5) { $0 + $1.minutes }
        var sightings: [TrackerSighting] = []
        for (number, stay) in stays.enumerated() {
            for minute in 0..<stay.minutes {
                let time = now.addingTimeInterval(-Double(minutesAgo - minute) * 60)
                let rssi = Int((stay.rssi + 3 * sin(Double(minute) / 5 + Double(number))).rounded())
                sightings.append(TrackerSighting(tracker: key, family: reading.family, kind: reading.kind, state: reading.state, address: id,
                                                 time: time, rssi: rssi, place: stay.place, session: 0))
            }
            minutesAgo -= stay.minutes
        }
        return sightings
    }
}
