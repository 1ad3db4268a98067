// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import Localization

/// FavBlue as the device through BlueZ (doc/org.bluez.LEAdvertisingManager.rst,
/// org.bluez.GattManager.rst): each advertisement an exported `LEAdvertisement1` object that
/// BlueZ reads and sends; the server an exported application, an ObjectManager root with
/// `GattService1`, `GattCharacteristic1` and `GattDescriptor1` objects, whose values BlueZ asks for.
/// BlueZ makes the Client Characteristic Configuration, pairs and keeps bonds itself.
public final class BlueZPeripheral: DevicePeripheral, BlueZClient, @unchecked Sendable {
    let bus: BlueZBus
    let adapterName: String?
    let log: @Sendable (String) -> Void
    let feed = Feed<PeripheralEvent>()
    let lock = NSLock()
    /// Registered advertisements by id: the object and its path.
    var advertisements: [String: (path: String, exports: [DBusExport])] = [:]
    var nextAdvertisement = 0
    /// The application served, and what it answers with.
    var application: Application?
    /// Devices connected while serving, so an end is told once.
    var connected: Set<String> = []
    /// Devices whose MTU was told.
    var toldMTU: Set<String> = []

    static let root = "/io/github/favblue/FavBlue/peripheral"

    /// One registered application.
    final class Application: @unchecked Sendable {
        let setup: ServerSetup
        var exports: [DBusExport] = []
        /// Values by characteristic, and the characteristic and descriptor objects' paths.
        var values: [ServedCharacteristicID: [UInt8]] = [:]
        var paths: [ServedCharacteristicID: String] = [:]
        var notifying: Set<ServedCharacteristicID> = []
        init(setup: ServerSetup) { self.setup = setup }
    }

    /// A peripheral through `bus`, on adapter `adapter` ("hci1"), else the first.
    public init(bus: BlueZBus, adapter: String? = nil, log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.bus = bus
        adapterName = adapter
        self.log = log
        bus.add(self)
    }

    public var events: Feed<PeripheralEvent> { feed }
    public var unavailableReason: String? { nil }

    /// The adapter's path, once BlueZ answers; the reason in words when it cannot advertise.
    func adapter() async throws(PeripheralError) -> String {
        do { _ = try await bus.connect() } catch {
            throw .unavailable(L10n.format("The system’s Bluetooth service cannot be reached: {}", error.message))
        }
        let objects = bus.objects
        guard let path = objects.adapter(named: adapterName) else {
            throw .unavailable(L10n.tr("No Bluetooth adapter was found by the system’s Bluetooth service."))
        }
        if let roles = objects[path, BlueZObjects.Interface.adapter]?["Roles"]?.items?.compactMap(\.stringValue), !roles.contains("peripheral") {
            throw .unavailable(L10n.tr("This adapter cannot be a peripheral: it can only look for other devices."))
        }
        return path
    }

    public func adapterFacts() async throws(PeripheralError) -> AdapterFacts {
        do { _ = try await bus.connect() } catch { throw .unavailable(error.message) }
        let objects = bus.objects
        guard let path = objects.adapter(named: adapterName), let a = objects[path, BlueZObjects.Interface.adapter] else {
            throw .unavailable(L10n.tr("No Bluetooth adapter was found by the system’s Bluetooth service."))
        }
        let manager = objects[path, Self.managerInterface]
        let channels = manager?["SupportedSecondaryChannels"]?.items?.compactMap(\.stringValue) ?? []
        let capabilities = manager?["SupportedCapabilities"]?.stringKeyed ?? [:]
        let maximum = capabilities["MaxAdvLen"].flatMap(Self.integer)
        var features: [AdapterFacts.Feature: Bool] = [:]
        if manager != nil {
            features[.extendedAdvertising] = (maximum ?? 31) > 31
            features[.phy2M] = channels.contains("2M")
            features[.coded] = channels.contains("Coded")
        }
        let free = manager?["SupportedInstances"].flatMap(Self.integer), active = manager?["ActiveInstances"].flatMap(Self.integer)
        var roles = a["Roles"]?.items?.compactMap(\.stringValue) ?? []
        // An older BlueZ says no roles; its advertising manager says it can be a peripheral.
        if roles.isEmpty { roles = manager != nil ? ["central", "peripheral"] : ["central"] }
        var facts = AdapterFacts(name: path.split(separator: "/").last.map(String.init), address: a["Address"]?.stringValue,
                            addressType: a["AddressType"]?.stringValue, features: features,
                            advertisingSets: free.map { $0 + (active ?? 0) }, maximumAdvertisingLength: maximum,
                            roles: roles, route: "bluez")
        // Without privacy BlueZ advertises from the adapter's own address.
        facts.advertisingAddress = facts.address
        return facts
    }

    static let managerInterface = "org.bluez.LEAdvertisingManager1"
    static let gattManager = "org.bluez.GattManager1"

    static func integer(_ value: DBusValue) -> Int? {
        switch value.unwrapped {
        case .byte(let b): return Int(b)
        case .uint16(let v): return Int(v)
        case .int16(let v): return Int(v)
        case .uint32(let v): return Int(v)
        case .int32(let v): return Int(v)
        default: return nil
        }
    }

    // MARK: Events from the bus

    public func bus(_ bus: BlueZBus, didReceive event: BlueZEvent) {
        switch event {
        case .signal(.propertiesChanged(let path, BlueZObjects.Interface.device, let changed, _)):
            guard lock.withLock({ application != nil }), case .bool(let on)? = changed["Connected"] else { return }
            let central = PeripheralCentral(id: path, address: Self.address(of: path, bus.objects))
            let tell = lock.withLock { () -> Bool in
                if on { return connected.insert(path).inserted }
                toldMTU.remove(path)
                return connected.remove(path) != nil
            }
            if tell { feed.yield(on ? .connected(central) : .disconnected(central, reason: L10n.tr("The device ended the connection."))) }
        case .serviceStopped, .connectionLost:
            let had = lock.withLock { () -> Bool in
                defer {
                    advertisements = [:]
                    application = nil
                    connected = []
                }
                return !advertisements.isEmpty || application != nil
            }
            if had { feed.yield(.ended(L10n.tr("The system’s Bluetooth service stopped."))) }
        default:
            break
        }
    }

    /// The central BlueZ says a request came from ("device" in the options).
    func central(_ options: [String: DBusValue]) -> PeripheralCentral {
        let path = options["device"]?.stringValue ?? "bluez"
        return PeripheralCentral(id: path, address: Self.address(of: path, bus.objects))
    }

    /// A device's address: its Address property, or, before the bus has told of the object
    /// (its first request can come first), the address BlueZ spells in its path ("dev_C0_98_…").
    static func address(of path: String, _ objects: BlueZObjects) -> String? {
        if let address = objects[path, BlueZObjects.Interface.device]?["Address"]?.stringValue { return address }
        guard let last = path.split(separator: "/").last, last.hasPrefix("dev_") else { return nil }
        let parts = last.dropFirst(4).split(separator: "_", omittingEmptySubsequences: false)
        guard parts.count == 6, parts.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isHexDigit) }) else { return nil }
        return parts.joined(separator: ":")
    }
}
