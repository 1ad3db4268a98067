// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation

extension LiveDevices {
    /// What a source (a gateway's room) is called on screen and when shared: the user's name for
    /// it, else the name it goes by.
    public func roomName(_ source: String) -> String {
        roomNames[source].flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 } ?? source
    }

    /// The rooms heard so far: every source but this computer's, by the name it goes by.
    public var heardRooms: [String] {
        Set(all.values.flatMap { $0.heardBy.map(\.source) }).subtracting([ownSource].compactMap { $0 }).sorted()
    }
}
