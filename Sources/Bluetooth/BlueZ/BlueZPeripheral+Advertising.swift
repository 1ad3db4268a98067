// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import Localization

/// Advertisements as `LEAdvertisement1` objects BlueZ reads (doc/org.bluez.LEAdvertisement.rst).
extension BlueZPeripheral {
    /// The object's properties: only those the advertisement has, so BlueZ adds nothing of its own.
    /// Raw AD structures and the scan response's lists go in BlueZ's experimental properties.
    static func properties(of ad: Advertisement) -> [(name: String, type: String, value: DBusValue)] {
        var out: [(String, String, DBusValue)] = [("Type", "s", .string(ad.kind == .connectable ? "peripheral" : "broadcast"))]
        func fields(_ f: AdvertisingFields, prefix: String) {
            if !f.serviceUUIDs.isEmpty {
                out.append((prefix + "ServiceUUIDs", "as", .array(elementType: "s", f.serviceUUIDs.map { .string($0.text) })))
            }
            if !f.manufacturerData.isEmpty {
                out.append((prefix + "ManufacturerData", "a{qv}", .dictionary(keyType: "q", valueType: "v", f.manufacturerData.map {
                    .init(.uint16($0.companyID), .variant(.bytes($0.data)))
                })))
            }
            if !f.serviceData.isEmpty {
                out.append((prefix + "ServiceData", "a{sv}", .dictionary(keyType: "s", valueType: "v", f.serviceData.map {
                    .init(.string($0.uuid.text), .variant(.bytes($0.data)))
                })))
            }
            if !f.raw.isEmpty {
                out.append((prefix + "Data", "a{yv}", .dictionary(keyType: "y", valueType: "v", f.raw.map {
                    .init(.byte($0.type), .variant(.bytes($0.data)))
                })))
            }
        }
        fields(ad.data, prefix: "")
        fields(ad.scanResponse, prefix: "ScanResponse")
        if let name = ad.data.localName ?? ad.scanResponse.localName { out.append(("LocalName", "s", .string(name))) }
        if let appearance = ad.data.appearance ?? ad.scanResponse.appearance { out.append(("Appearance", "q", .uint16(appearance))) }
        if let tx = ad.data.txPower {
            out.append(("Includes", "as", .array(elementType: "s", [.string("tx-power")])))
            out.append(("TxPower", "n", .int16(Int16(tx))))
        }
        // The flags' General Discoverable bit is BlueZ's Discoverable.
        if let flags = ad.data.flags { out.append(("Discoverable", "b", .bool(flags & 0x02 != 0))) }
        if let seconds = ad.durationSeconds { out.append(("Timeout", "q", .uint16(UInt16(clamping: Int(seconds.rounded(.up)))))) }
        let interval = UInt32(ad.intervalMilliseconds.rounded())
        out.append(("MinInterval", "u", .uint32(interval)))
        out.append(("MaxInterval", "u", .uint32(interval)))
        if ad.extended { out.append(("SecondaryChannel", "s", .string(ad.secondaryPHY == .coded ? "Coded" : ad.secondaryPHY.rawValue))) }
        return out
    }

    public func startAdvertising(_ ad: Advertisement) async throws(PeripheralError) {
        let adapter = try await adapter()
        guard bus.objects[adapter, Self.managerInterface] != nil else {
            throw .unavailable(L10n.tr("The system’s Bluetooth service cannot advertise on this adapter."))
        }
        let limits = try await adapterFacts().limits
        if let problem = ad.problems(limits: limits, company: CompanyNames.name).first { throw .refused(problem.message) }
        await stopAdvertising(id: ad.id)
        let connection: DBusConnection
        do { connection = try await bus.connect() } catch { throw .unavailable(error.message) }
        let path = lock.withLock { () -> String in
            nextAdvertisement += 1
            return "\(Self.root)/advertisement\(nextAdvertisement)"
        }
        let properties = Self.properties(of: ad)
        let xml = "<node><interface name=\"org.bluez.LEAdvertisement1\"><method name=\"Release\"/>"
            + properties.map { "<property name=\"\($0.name)\" type=\"\($0.type)\" access=\"read\"/>" }.joined() + "</interface></node>"
        let values = Dictionary(properties.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
        let export: DBusExport
        do {
            export = try connection.export(path: path, xml: xml, property: { values[$0] }) { [weak self] call in
                // BlueZ drops it (its timeout ran out, or the adapter went): it is off.
                call.reply()
                guard let self, self.lock.withLock({ self.advertisements.removeValue(forKey: ad.id) }) != nil else { return }
                self.feed.yield(.advertising(id: ad.id, on: false))
            }
        } catch { throw .refused(error.message) }
        lock.withLock { advertisements[ad.id] = (path, [export]) }
        do {
            try await bus.call(adapter, Self.managerInterface, "RegisterAdvertisement", [.objectPath(path), .vardict([:])])
        } catch {
            export.unexport()
            lock.withLock { _ = advertisements.removeValue(forKey: ad.id) }
            throw Self.refusal(error, sets: limits.sets)
        }
        log("advertising “\(ad.label)” through BlueZ at \(path)")
        feed.yield(.advertising(id: ad.id, on: true))
    }

    /// BlueZ's refusal in the user's words.
    static func refusal(_ error: DBusError, sets: Int) -> PeripheralError {
        switch error {
        case .other(let name, _) where name.hasSuffix(".InvalidLength"):
            return .refused(L10n.tr("The advertisement is longer than this adapter sends."))
        case .notPermitted:
            return .noFreeSet(sets)
        default:
            return .refused(L10n.format("The system’s Bluetooth service refused to advertise: {}", error.message))
        }
    }

    public func stopAdvertising(id: String) async {
        guard let (path, exports) = lock.withLock({ advertisements.removeValue(forKey: id) }) else { return }
        if let adapter = bus.objects.adapter(named: adapterName) {
            _ = try? await bus.call(adapter, Self.managerInterface, "UnregisterAdvertisement", [.objectPath(path)])
        }
        for export in exports { export.unexport() }
        feed.yield(.advertising(id: id, on: false))
    }
}
