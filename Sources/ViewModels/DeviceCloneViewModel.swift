// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import Localization

/// Clone This Device, on a connected device's page: reads every value it can, then sets up a
/// server with the device's services at their handles and an advertisement with what it last
/// advertised, to serve from the Act as a Device page.
@MainActor
public final class DeviceCloneViewModel {
    private let browser: GATTBrowser
    private let role: PeripheralRole
    private let live: LiveDevices
    private let name: (DeviceID) -> String
    /// A clone is being made.
    public private(set) var busy = false
    private let observers = ChangeObservers()

    public init(browser: GATTBrowser, role: PeripheralRole, live: LiveDevices, name: @escaping (DeviceID) -> String) {
        self.browser = browser
        self.role = role
        self.live = live
        self.name = name
    }

    public func observe(_ handler: @escaping @MainActor () -> Void) -> ObservationToken { observers.observe(handler) }

    /// Why this source cannot serve a copy; nil when it can.
    public var unavailableReason: String? { role.unavailableReason }

    /// Whether `device`'s services are known, so a copy can be made.
    public func canClone(_ device: DeviceID) -> Bool { browser.device == device && browser.phase == .ready && !busy }

    /// Why no copy could be made, in words.
    public struct Problem: Error, Equatable {
        public let message: String
    }

    /// Reads the device and makes the copy, not yet set up: set up by the result's `apply`, after
    /// its question where the copy would replace the server set up.
    public func prepare(_ device: DeviceID) async -> Result<PendingSetup, Problem> {
        guard canClone(device) else { return .failure(Problem(message: L10n.tr("Connect to the device and wait for its services first."))) }
        busy = true
        observers.notify()
        defer {
            busy = false
            observers.notify()
        }
        await browser.readAll()
        // Descriptors other than the configuration: their values too (a name, a format, a range).
        for c in browser.services.flatMap(\.characteristics) {
            for d in c.descriptors where d.uuid != BluetoothUUID(0x2902) && browser.values[d.handle] == nil { await browser.read(d.handle) }
        }
        var values = browser.values.mapValues(\.bytes)
        for c in browser.services.flatMap(\.characteristics) {
            for d in c.descriptors {
                if d.uuid == BluetoothUUID(0x2901), let text = browser.userDescriptions[c.valueHandle], values[d.handle] == nil { values[d.handle] = Array(text.utf8) }
                if d.uuid == BluetoothUUID(0x2904), let format = browser.formats[c.valueHandle], values[d.handle] == nil { values[d.handle] = format.bytes }
            }
        }
        let heard = live.all[device]?.advertised
        let title = name(device)
        var advertising = heard?.lastAdvertising ?? []
        if advertising.isEmpty, let heard {
            // A route that keeps no raw bytes (BlueZ): the fields it told, in FavBlue's order.
            advertising = AdvertisingFields(flags: heard.flags, localName: heard.name, appearance: heard.appearance,
                                            serviceUUIDs: heard.services.compactMap { BluetoothUUID($0.uuid) },
                                            serviceData: heard.serviceData.compactMap { key, data in BluetoothUUID(key.uuid).map { ServiceDataField(uuid: $0, data: data) } },
                                            manufacturerData: heard.manufacturerData.map { ManufacturerField(companyID: $0.companyID, data: $0.data) }).encoded
        }
        let file = PeripheralClone.make(name: title, services: browser.services, values: values, advertising: advertising,
                                        scanResponse: heard?.lastScanResponse ?? [], connectable: true)
        let question = file.server.flatMap { incoming in role.replaced(by: incoming).flatMap { ReplaceQuestion.losing($0, to: incoming) } }
        return .success(PendingSetup(question: question) { [role] in
            role.take(file)
            return L10n.format("A copy of {} is set up: turn it on under Act as a Device.", DeviceText.isolated(title))
        })
    }

    /// Makes the copy and sets it up at once, without asking; returns what to say.
    public func clone(_ device: DeviceID) async -> String {
        switch await prepare(device) {
        case .failure(let problem): return problem.message
        case .success(let setup): return setup.apply()
        }
    }
}
