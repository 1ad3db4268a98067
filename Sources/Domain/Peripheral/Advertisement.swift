// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation
import Localization

/// One advertisement FavBlue sends as a peripheral or a beacon: how, what, and how often.
/// Each route turns it into its own calls (LE advertising commands on FavBlue's own host,
/// `LEAdvertisingManager1` on BlueZ).
public struct Advertisement: Equatable, Sendable, Identifiable {
    /// Whether centrals may connect, scan, or only listen.
    public enum Kind: String, Equatable, Sendable, CaseIterable {
        case connectable
        case scannable
        case nonConnectable = "non-connectable"
    }

    /// An LE radio mode (Core v5.4, Vol 6, Part A, §2.2).
    public enum PHY: String, Equatable, Sendable, CaseIterable {
        case le1M = "1M"
        case le2M = "2M"
        case coded
    }

    /// Stable across edits and restarts; the store's key.
    public var id: String
    /// The user's name for it ("Kitchen beacon").
    public var label: String
    /// The preset it came from while it still has that preset's name: the name then follows the
    /// language FavBlue speaks (a German session names it in German), until the user renames it.
    public var namedAfter: AdvertisingPreset?

    /// The name shown: the preset's, in the language in use, else the user's.
    public var title: String { namedAfter?.title ?? label }
    /// The name it advertises is the server's device name, so a phone sees one name before and
    /// after it connects; false once the user gives it a name of its own.
    public var nameFollowsServer = false

    /// This advertisement as it goes out beside `server`: where its name follows the server's,
    /// the server's name in place of its own (in the data, or the scan response that carries it).
    public func named(by server: ServerSetup?) -> Advertisement {
        guard nameFollowsServer, let name = server?.name, !name.isEmpty else { return self }
        var copy = self
        if copy.data.localName != nil {
            copy.data.localName = name
        } else if copy.scanResponse.localName != nil {
            copy.scanResponse.localName = name
        }
        return copy
    }
    public var kind: Kind
    /// Extended advertising (Bluetooth 5): longer data, other PHYs, several sets at once.
    public var extended: Bool
    /// The PHY of the primary channels: 1M or Coded (extended only).
    public var primaryPHY: PHY
    /// The PHY of the secondary channels, where the data goes (extended only).
    public var secondaryPHY: PHY
    public var data: AdvertisingFields
    /// Sent to a central that asks (scannable and connectable kinds).
    public var scanResponse: AdvertisingFields
    /// Milliseconds between advertising events.
    public var intervalMilliseconds: Double
    /// Seconds after which it stops on its own; nil runs until stopped.
    public var durationSeconds: Double?
    /// A BTHome sensor's readings, set by the user: its service data is made from them when it starts.
    public var sensor: BTHomeReadings?

    public init(id: String = UUID().uuidString, label: String, kind: Kind = .connectable, extended: Bool = false,
                primaryPHY: PHY = .le1M, secondaryPHY: PHY = .le1M, data: AdvertisingFields,
                scanResponse: AdvertisingFields = AdvertisingFields(), intervalMilliseconds: Double = 100,
                durationSeconds: Double? = nil, sensor: BTHomeReadings? = nil) {
        self.id = id
        self.label = label
        self.kind = kind
        self.extended = extended
        self.primaryPHY = primaryPHY
        self.secondaryPHY = secondaryPHY
        self.data = data
        self.scanResponse = scanResponse
        self.intervalMilliseconds = intervalMilliseconds
        self.durationSeconds = durationSeconds
        self.sensor = sensor
    }

    /// This advertisement with its BTHome service data made from `sensor` (sealed with the address
    /// it goes out from, when the readings have a key); itself when it has no readings.
    public func withSensorData(address: [UInt8]?, sealer: PayloadSealer?) -> Advertisement {
        guard let sensor else { return self }
        var copy = self
        copy.data.serviceData.removeAll { $0.uuid == BluetoothUUID(0xFCD2) }
        if let bytes = sensor.serviceData(address: address, sealer: sealer) {
            copy.data.serviceData.append(ServiceDataField(uuid: BluetoothUUID(0xFCD2), data: bytes))
        }
        return copy
    }

    /// The interval the Core allows (§7.8.5, §7.8.53): 20 ms to 10.24 s, longer when extended.
    public static let intervalRange: ClosedRange<Double> = 20...10_240
}

/// What the adapter can send, so a problem is said before the controller refuses.
public struct AdvertisingLimits: Equatable, Sendable {
    /// Extended advertising commands (LE Set Extended Advertising …), or BlueZ's own sets.
    public var extended: Bool
    /// Bytes of advertising data an extended set may hold (LE Read Maximum Advertising Data Length).
    public var maximumExtendedLength: Int
    /// How many advertisements can run at once.
    public var sets: Int
    public var phy2M: Bool
    public var coded: Bool

    public init(extended: Bool = false, maximumExtendedLength: Int = 31, sets: Int = 1, phy2M: Bool = false, coded: Bool = false) {
        self.extended = extended
        self.maximumExtendedLength = maximumExtendedLength
        self.sets = sets
        self.phy2M = phy2M
        self.coded = coded
    }

    /// A legacy advertisement's data and scan response (Vol 6, Part B, §2.3.1).
    public static let legacyLength = 31
    /// One AD structure's length byte holds its type too.
    public static let structureLength = 254
}

/// Something in an advertisement that this adapter cannot send, in one sentence.
public struct AdvertisingProblem: Equatable, Sendable {
    /// Where: the advertising data, the scan response, or the advertisement as a whole.
    public enum Part: Equatable, Sendable { case data, scanResponse, whole }

    public let part: Part
    public let message: String
    /// The field it is about, where it is one field's (a name too long), so that field is marked.
    public var field: AdvertisingFields.Field?

    public init(part: Part, message: String, field: AdvertisingFields.Field? = nil) {
        self.part = part
        self.message = message
        self.field = field
    }
}

extension Advertisement {
    /// What keeps this advertisement from being sent as it is, first problem first; empty when
    /// it can go. `company` names a company identifier in the sentence.
    public func problems(limits: AdvertisingLimits, company: (UInt16) -> String = { "0x" + Hex.compact([UInt8($0 >> 8), UInt8($0 & 0xFF)]) })
        -> [AdvertisingProblem] {
        var out: [AdvertisingProblem] = []
        if extended && !limits.extended {
            out.append(AdvertisingProblem(part: .whole, message: L10n.tr("This adapter has no extended advertising: send it as a legacy advertisement.")))
        }
        if extended {
            for (phy, what) in [(primaryPHY, 0), (secondaryPHY, 1)] where phy != .le1M {
                if phy == .coded && !limits.coded || phy == .le2M && !limits.phy2M {
                    out.append(AdvertisingProblem(part: .whole, message: what == 0
                        ? L10n.format("This adapter cannot advertise on the {} PHY.", phy.name)
                        : L10n.format("This adapter cannot send advertising data on the {} PHY.", phy.name)))
                }
            }
            if primaryPHY == .le2M {
                out.append(AdvertisingProblem(part: .whole, message: L10n.tr("The primary channels use the 1M or the Coded PHY, not 2M.")))
            }
        }
        let maximum = extended && limits.extended ? limits.maximumExtendedLength : AdvertisingLimits.legacyLength
        let noun = extended && limits.extended ? L10n.tr("an extended advertisement on this adapter") : L10n.tr("a legacy advertisement")
        for (part, fields) in [(AdvertisingProblem.Part.data, data), (.scanResponse, scanResponse)] {
            for (field, bytes) in fields.structures where bytes.count - 1 > AdvertisingLimits.structureLength {
                out.append(AdvertisingProblem(part: part, message: L10n.plural(
                    "{} is {} byte longer than one AD structure holds (254).", "{} is {} bytes longer than one AD structure holds (254).",
                    bytes.count - 1 - AdvertisingLimits.structureLength, field.name(company: company),
                    Formats.number(bytes.count - 1 - AdvertisingLimits.structureLength)), field: field))
            }
            if let (field, over) = fields.overflow(limit: maximum) {
                out.append(AdvertisingProblem(part: part, message: L10n.plural(
                    "{} does not fit: {} byte over the {} bytes of {}.", "{} does not fit: {} bytes over the {} bytes of {}.",
                    over, field.name(company: company), Formats.number(over), Formats.number(maximum), noun), field: field))
            }
        }
        if !scanResponse.isEmpty && kind == .nonConnectable {
            out.append(AdvertisingProblem(part: .scanResponse, message: L10n.tr(
                "Nobody can ask for the scan response of a non-connectable advertisement: make it scannable, or leave the scan response empty.")))
        }
        if extended && kind == .scannable && !data.isEmpty {
            out.append(AdvertisingProblem(part: .data, message: L10n.tr(
                "An extended scannable advertisement carries its data in the scan response alone: move the fields there.")))
        }
        if !Self.intervalRange.contains(intervalMilliseconds) {
            out.append(AdvertisingProblem(part: .whole, message: L10n.format("The interval is from {} to {} milliseconds.",
                                                                              Formats.number(20), Formats.number(10_240))))
        }
        if let durationSeconds, !(0.01...655.35).contains(durationSeconds) {
            out.append(AdvertisingProblem(part: .whole, message: L10n.format("The duration is from {} to {} seconds.",
                                                                              Formats.decimal(0.01, digits: 2), Formats.decimal(655.35, digits: 2))))
        }
        return out
    }
}

extension Advertisement.PHY {
    /// "LE 1M", "LE 2M", "LE Coded": the Core's names, which users of the Coded PHY know it by.
    public var name: String {
        switch self {
        case .le1M: return "LE 1M"
        case .le2M: return "LE 2M"
        case .coded: return "LE Coded"
        }
    }
}
