// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

/// Where the names and formats the user gave a device's characteristics are kept.
public protocol CharacteristicLabelsRepository: Sendable {
    /// Every label of `device`, by characteristic UUID.
    func labels(of device: DeviceID) async throws -> [String: CharacteristicLabel]
    /// Keeps `label` for `device` (replacing one for the same characteristic).
    func save(_ label: CharacteristicLabel, for device: DeviceID) async throws
    /// Forgets the label of the characteristic `uuid` of `device`; nothing happens without one.
    func remove(uuid: String, for device: DeviceID) async throws
}
