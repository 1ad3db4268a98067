// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation

/// A device the user keeps, under a nickname of their choosing.
public struct Favorite: Equatable, Sendable, Identifiable {
    /// The device.
    public let id: DeviceID
    /// The user's name for it; nil when none was given.
    public var nickname: String?
    /// The name the device last advertised, if any.
    public var lastKnownName: String?
    /// When it became a favorite.
    public let addedAt: Date
    /// When the nickname or name last changed.
    public var updatedAt: Date
    /// Which desktop notifications it sends: when it comes near, when it leaves. None by default.
    public var alerts: PresenceAlerts
    /// Limits on its sensor readings that send a notification when passed.
    public var readingLimits: [ReadingLimit]

    /// Creates a favorite.
    public init(id: DeviceID, nickname: String?, lastKnownName: String?, addedAt: Date, updatedAt: Date,
                alerts: PresenceAlerts = [], readingLimits: [ReadingLimit] = []) {
        self.alerts = alerts
        self.readingLimits = readingLimits
        self.id = id
        self.nickname = nickname
        self.lastKnownName = lastKnownName
        self.addedAt = addedAt
        self.updatedAt = updatedAt
    }

    /// What the user sees: the nickname, else the advertised name, else the address.
    public var displayName: String {
        DisplayName.of(id: id, nickname: nickname, advertisedName: lastKnownName)
    }
}

/// The one rule for naming a device on screen.
public enum DisplayName {
    /// Nickname, else advertised name, else the address; blank names count as none.
    public static func of(id: DeviceID, nickname: String?, advertisedName: String?) -> String {
        name(nickname: nickname, advertisedName: advertisedName) ?? id.address
    }

    /// The one rule for what a device is called: nickname, else what it advertises now, else
    /// the name its favorite was saved with, else its address.
    public static func of(id: DeviceID, favorite: Favorite?, advertisedName: String?) -> String {
        name(favorite: favorite, advertisedName: advertisedName) ?? id.address
    }

    /// As `of`, but nil when the device has no name at all.
    public static func name(favorite: Favorite?, advertisedName: String?) -> String? {
        name(nickname: favorite?.nickname, advertisedName: advertisedName ?? favorite?.lastKnownName)
    }

    /// Nickname, else advertised name; nil when the device has neither (blank names count as none).
    public static func name(nickname: String?, advertisedName: String?) -> String? {
        if let nickname, !nickname.isEmpty { return DeviceText.shown(nickname) }
        if let name = advertisedName?.trimmingCharacters(in: .whitespacesAndNewlines), !name.isEmpty { return DeviceText.shown(name) }
        return nil
    }

    /// The primary sort key: the name without case and accents.
    public static func sortKey(_ name: String, locale: Locale = .current) -> String {
        name.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: locale)
    }
}

/// The desktop notifications a favorite asks for.
public struct PresenceAlerts: OptionSet, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// When it comes into range.
    public static let arrive = PresenceAlerts(rawValue: 1)
    /// When it leaves.
    public static let leave = PresenceAlerts(rawValue: 2)
}
