// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Localization

/// The networks whose tags are misused to follow people, told apart by what they advertise.
public enum TrackerFamily: String, CaseIterable, Sendable, Codable {
    case appleFindMy = "apple-find-my"
    case samsungSmartTag = "samsung-smarttag"
    case tile
    case chipolo
    case pebblebee
    case googleFindMyDevice = "google-find-my-device"
    case dult
}

/// What a tracker says of its owner.
public enum TrackerState: String, Sendable, Codable {
    /// Away from its owner for a while: what a tag following someone looks like.
    case separated
    /// Away from its owner for only a short while (a SmartTag's "premature offline").
    case recentlySeparated = "recently-separated"
    /// Its owner's phone is near.
    case nearOwner = "near-owner"
    /// The family does not say (Tile, Pebblebee).
    case unknown

    /// Whether the rule may count it: away from its owner, or not saying.
    public var mayBeFollowing: Bool { self != .nearOwner }
}

/// What kind of thing it is, within its family.
public enum TrackerKind: String, Sendable, Codable {
    case airTag = "airtag"
    case findMyAccessory = "find-my-accessory"
    case airPods = "airpods"
    case appleDevice = "apple-device"
    case smartTag = "smarttag"
    case tile
    case chipolo
    case pebblebee
    case findMyDeviceTag = "find-my-device-tag"
    case dultTag = "dult-tag"

    /// A tag made to be attached to things; phones and laptops join the networks too, but are not tags.
    public var isTag: Bool { self != .appleDevice }

    /// "AirTag", "SmartTag".
    public var name: String {
        switch self {
        case .airTag: return L10n.ctx("tracker", "AirTag")
        case .findMyAccessory: return L10n.ctx("tracker", "Find My accessory")
        case .airPods: return L10n.ctx("tracker", "AirPods")
        case .appleDevice: return L10n.ctx("tracker", "Apple device")
        case .smartTag: return L10n.ctx("tracker", "SmartTag")
        case .tile: return L10n.ctx("tracker", "Tile")
        case .chipolo: return L10n.ctx("tracker", "Chipolo")
        case .pebblebee: return L10n.ctx("tracker", "Pebblebee")
        case .findMyDeviceTag: return L10n.ctx("tracker", "Find My Device tag")
        case .dultTag: return L10n.ctx("tracker", "Location tracker")
        }
    }
}

/// One advertisement read as a tracker's: its family, kind and state, and what the family
/// gives to follow it across address changes.
public struct TrackerReading: Equatable, Sendable {
    public let family: TrackerFamily
    public let kind: TrackerKind
    public let state: TrackerState
    /// 0 (full) to 3 (nearly empty), where the family says.
    public let batteryLevel: Int?
    /// A SmartTag's aging counter: it goes on counting across the tag's address changes.
    public let agingCounter: UInt32?
    /// Bytes that stay while the address changes: a separated Find My tag's public key, a
    /// Find My Device tag's identifier in its protection mode (both kept for about 24 h). A slice
    /// of the advertisement, so reading thousands of reports a second copies nothing.
    public let stableID: ArraySlice<UInt8>?

    public init(family: TrackerFamily, kind: TrackerKind, state: TrackerState, batteryLevel: Int? = nil, agingCounter: UInt32? = nil,
                stableID: ArraySlice<UInt8>? = nil) {
        self.family = family
        self.kind = kind
        self.state = state
        self.batteryLevel = batteryLevel
        self.agingCounter = agingCounter
        self.stableID = stableID
    }

    /// Whether the rule may count it: a tag, away from its owner or not saying.
    public var mayBeFollowing: Bool { kind.isTag && state.mayBeFollowing }

    /// Its state in words: "away from its owner".
    public var stateWords: String {
        switch state {
        case .separated: return L10n.tr("away from its owner")
        case .recentlySeparated: return L10n.tr("recently away from its owner")
        case .nearOwner: return L10n.tr("near its owner")
        case .unknown: return L10n.tr("does not say where its owner is")
        }
    }

    /// "AirTag · away from its owner", for a row and a keyword.
    public var words: String { L10n.format("{} · {}", kind.name, stateWords) }
}
