// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation
import Localization

/// What the adapter is and can do, as the Adapter page and `favblue-scan adapter` show it.
public struct AdapterFacts: Equatable, Sendable {
    /// An LE ability of the controller (Core v5.4, Vol 6, Part B, §4.6).
    public enum Feature: String, Equatable, Sendable, CaseIterable {
        case phy2M = "le-2m-phy"
        case coded = "le-coded-phy"
        case extendedAdvertising = "extended-advertising"
        case privacy = "ll-privacy"
        case dataLength = "data-length-extension"
    }

    /// "hci0", or the system's name for it.
    public var name: String?
    /// The company that made the controller, by its SIG name.
    public var manufacturer: String?
    /// "5.3", from the HCI version.
    public var bluetoothVersion: String?
    /// "AA:BB:CC:DD:EE:FF".
    public var address: String?
    /// "public" or "random".
    public var addressType: String?
    /// The address advertisements go out from, as shown; a BTHome frame is sealed with it.
    public var advertisingAddress: String?
    /// Each feature the controller was asked about: true when it has it.
    public var features: [Feature: Bool]
    /// Advertising sets it can run at once; nil when not known.
    public var advertisingSets: Int?
    /// Bytes of data an extended advertisement may carry.
    public var maximumAdvertisingLength: Int?
    /// Entries of its resolving list.
    public var resolvingListSize: Int?
    /// "central", "peripheral" (and BlueZ's other roles), as the route says.
    public var roles: [String]
    /// Which route says all this: "hci" or "bluez".
    public var route: String

    public init(name: String? = nil, manufacturer: String? = nil, bluetoothVersion: String? = nil, address: String? = nil,
                addressType: String? = nil, features: [Feature: Bool] = [:], advertisingSets: Int? = nil,
                maximumAdvertisingLength: Int? = nil, resolvingListSize: Int? = nil, roles: [String] = [], route: String) {
        self.name = name
        self.manufacturer = manufacturer
        self.bluetoothVersion = bluetoothVersion
        self.address = address
        self.addressType = addressType
        self.features = features
        self.advertisingSets = advertisingSets
        self.maximumAdvertisingLength = maximumAdvertisingLength
        self.resolvingListSize = resolvingListSize
        self.roles = roles
        self.route = route
    }

    /// Whether FavBlue can advertise and serve through it.
    public var canBePeripheral: Bool { roles.contains("peripheral") }

    /// What advertisements it can send.
    public var limits: AdvertisingLimits {
        let extended = features[.extendedAdvertising] ?? false
        return AdvertisingLimits(extended: extended, maximumExtendedLength: extended ? (maximumAdvertisingLength ?? 31) : 31,
                                 sets: max(advertisingSets ?? 1, 1), phy2M: features[.phy2M] ?? false, coded: features[.coded] ?? false)
    }

    /// The HCI version's Bluetooth name (Assigned Numbers §2.1).
    public static func version(hci: UInt8) -> String? {
        let names: [UInt8: String] = [6: "4.0", 7: "4.1", 8: "4.2", 9: "5.0", 10: "5.1", 11: "5.2", 12: "5.3", 13: "5.4", 14: "6.0"]
        return names[hci] ?? (hci < 6 ? "<4.0" : nil)
    }
}

/// A central connected to FavBlue's server: the handle on FavBlue's own host, the device's
/// object on BlueZ's. Its address is said where the route knows it.
public struct PeripheralCentral: Hashable, Sendable {
    public let id: String
    public let address: String?

    public init(id: String, address: String?) {
        self.id = id
        self.address = address
    }
}

/// A characteristic of the setup being served: its service and its place in that service.
public struct ServedCharacteristicID: Hashable, Sendable {
    public let service: Int
    public let characteristic: Int

    public init(service: Int, characteristic: Int) {
        self.service = service
        self.characteristic = characteristic
    }
}

/// What happens while FavBlue is a peripheral: its advertisements, and what each central does.
public enum PeripheralEvent: Equatable, Sendable {
    /// An advertisement went on air, or stopped (by the user, its duration, or a connection).
    case advertising(id: String, on: Bool)
    /// An advertisement could not start: why, in plain words.
    case advertisingFailed(id: String, reason: String)
    case connected(PeripheralCentral)
    /// The central and FavBlue agreed on an ATT_MTU, bytes.
    case mtu(PeripheralCentral, Int)
    /// The central read a characteristic.
    case read(PeripheralCentral, ServedCharacteristicID)
    /// The central wrote a characteristic; the bytes as written, never interpreted.
    case wrote(PeripheralCentral, ServedCharacteristicID, [UInt8], withResponse: Bool)
    case subscribed(PeripheralCentral, ServedCharacteristicID, indicate: Bool)
    case unsubscribed(PeripheralCentral, ServedCharacteristicID)
    /// FavBlue sent the central a value it follows (the user's Send): notified, or indicated.
    case sent(PeripheralCentral, ServedCharacteristicID, [UInt8], indicate: Bool)
    /// The central confirmed an indication.
    case confirmed(PeripheralCentral, ServedCharacteristicID)
    /// The central's link became encrypted (`authenticated` when the key was made with a code).
    case encrypted(PeripheralCentral, authenticated: Bool)
    /// A request FavBlue refused, in the Core's words ("Insufficient encryption").
    case refused(PeripheralCentral, String)
    case disconnected(PeripheralCentral, reason: String)
    /// The route stopped being a peripheral (the adapter went): why.
    case ended(String)
}

/// Why the peripheral role cannot do what was asked.
public enum PeripheralError: Error, Equatable, Sendable {
    /// The source cannot be a peripheral (a replay, the demo, an adapter without the role): why.
    case unavailable(String)
    /// The adapter refused: its words.
    case refused(String)
    /// Too many advertisements at once for this adapter.
    case noFreeSet(Int)

    public var message: String {
        switch self {
        case .unavailable(let why), .refused(let why): return why
        case .noFreeSet(let sets):
            return L10n.plural("This adapter sends {} advertisement at a time: stop one first.",
                               "This adapter sends {} advertisements at a time: stop one first.", sets, Formats.number(sets))
        }
    }
}

/// FavBlue as the device: advertising and a GATT server, through one route. Pages never learn which.
///
/// Calls return once the route did what was asked (or refused); what centrals do comes through
/// `events`, fed from the route's own threads, as `DeviceConnector` does.
public protocol DevicePeripheral: AnyObject, Sendable {
    var events: Feed<PeripheralEvent> { get }
    /// Why this source can never be a peripheral (a replay, the demo); nil when it may.
    var unavailableReason: String? { get }
    /// What the adapter is and can do.
    func adapterFacts() async throws(PeripheralError) -> AdapterFacts
    /// Starts sending `advertisement`; one with the same id is replaced.
    func startAdvertising(_ advertisement: Advertisement) async throws(PeripheralError)
    /// Stops the advertisement `id`.
    func stopAdvertising(id: String) async
    /// Serves `setup` (in place of what was served) until `stopServing`.
    func serve(_ setup: ServerSetup) async throws(PeripheralError)
    func stopServing() async
    /// The value a central reads from now on.
    func setValue(_ value: [UInt8], of characteristic: ServedCharacteristicID) async
    /// Notifies or indicates `value` to every central subscribed to `characteristic`; returns how many it went to.
    @discardableResult
    func send(_ value: [UInt8], of characteristic: ServedCharacteristicID) async -> Int
}

/// A source that cannot be a peripheral (a replay, gateways): says why, once.
public final class UnavailablePeripheral: DevicePeripheral, @unchecked Sendable {
    public let unavailableReason: String?
    public let events = Feed<PeripheralEvent>.finished

    public init(reason: String) { unavailableReason = reason }

    public func adapterFacts() async throws(PeripheralError) -> AdapterFacts { throw .unavailable(unavailableReason ?? "") }
    public func startAdvertising(_ advertisement: Advertisement) async throws(PeripheralError) { throw .unavailable(unavailableReason ?? "") }
    public func stopAdvertising(id: String) async {}
    public func serve(_ setup: ServerSetup) async throws(PeripheralError) { throw .unavailable(unavailableReason ?? "") }
    public func stopServing() async {}
    public func setValue(_ value: [UInt8], of characteristic: ServedCharacteristicID) async {}
    public func send(_ value: [UInt8], of characteristic: ServedCharacteristicID) async -> Int { 0 }
}
