// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import Localization

/// The favorites the demo starts with, as the README's first picture shows them: kept in memory
/// for the demo alone, never in the user's store.
public enum DemoFavorites {
    /// Five of the demo's devices, some under a nickname in the user's language.
    public static func all(now: Date = Date()) -> [Favorite] {
        let sensor = { (last: UInt8) in DemoSensors.address(last) }
        let other = { (last: UInt8) in DeviceID(octets: [0xC0, 0x98, 0xE5, 0x49, 0x00, last], kind: .leRandom) }
        let kept: [(DeviceID, String, String?)] = [
            (sensor(0x01), "Greenhouse", nil),
            // Translators: a nickname the demo's user gave their freezer's thermometer.
            (sensor(0x02), "Freezer", L10n.ctx("demo nickname", "Chest freezer")),
            // Translators: a nickname the demo's user gave their earbuds; keep the emoji.
            (other(0x00), "Pixel Buds Pro", L10n.ctx("demo nickname", "Ear Pods 🎧")),
            // Translators: a nickname the demo's user gave the thermometer on their balcony.
            (sensor(0x04), "Ruuvi 3C4D", L10n.ctx("demo nickname", "Balcony")),
            (other(0x02), "Heart Strap", nil),
        ]
        // Added over the last days, one after another, as a user would have.
        return kept.enumerated().map { index, entry in
            let added = now.addingTimeInterval(-Double(kept.count - index) * 86_400)
            return Favorite(id: entry.0, nickname: entry.2, lastKnownName: entry.1, addedAt: added, updatedAt: added)
        }
    }
}
