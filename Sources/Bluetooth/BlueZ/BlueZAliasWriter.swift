// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Localization

/// Writes nicknames to `Device1.Alias`, the name GNOME Settings and other BlueZ clients show.
public final class BlueZAliasWriter: SystemAliasWriter, @unchecked Sendable {
    private let bus: BlueZBus
    private let adapterName: String?

    /// A writer for devices on adapter `adapter` ("hci1"), or on every adapter BlueZ lists.
    public init(bus: BlueZBus, adapter: String? = nil) {
        self.bus = bus
        adapterName = adapter
    }

    public func setAlias(_ alias: String, for device: DeviceID) async throws(AliasWriteError) -> Bool {
        do {
            try await bus.connect()
        } catch {
            throw AliasWriteError(reason: error.message)
        }
        let objects = bus.objects
        let adapters = adapterName.map { name in objects.adapter(named: name).map { [$0] } ?? [] } ?? objects.adapters
        let paths = adapters.compactMap { objects.devicePath(for: device, adapter: $0) }
        guard !paths.isEmpty else { return false }
        for path in paths {
            do {
                // An empty alias makes BlueZ show the device's own name again.
                try await bus.set(path, BlueZObjects.Interface.device, "Alias", .string(alias), timeout: .seconds(10))
            } catch .doesNotExist {
                continue
            } catch {
                throw AliasWriteError(reason: error.message)
            }
        }
        return true
    }
}
