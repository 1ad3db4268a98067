// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation
import Localization

/// The app's keys of encrypted sensors: given on a sensor's page (Key…), kept in the vault
/// (the desktop keyring), and looked up there the first time an encrypted sensor is heard, so
/// the keyring is never woken for a user without one. Opened frames reach every page through
/// `LiveDevices.sensor(of:)`.
@MainActor
public final class SensorKeyBook {
    private let vault: SensorKeyVault
    private let keys: MutableSensorKeys
    private let live: LiveDevices
    /// Addresses looked up in the vault, or being.
    private var asked: Set<String> = []
    private var token: ObservationToken?
    private var lastSweep = Date.distantPast
    /// Why the keyring could not be read, once; for the log.
    public var onFailure: (@MainActor (String) -> Void)?

    public init(vault: SensorKeyVault, keys: MutableSensorKeys, live: LiveDevices) {
        self.vault = vault
        self.keys = keys
        self.live = live
        live.sensorKeys = keys
        token = live.observe { [weak self] change in
            guard case .devices = change else { return }
            self?.lookUpNewSensors()
        }
    }

    /// Whether a key is in use for `id`.
    public func hasKey(_ id: DeviceID) -> Bool { keys.key(for: id.address) != nil }

    /// Looks up, once each, the keys of encrypted sensors heard since the last sweep; at most
    /// one sweep a second, since a busy room notifies many times a second.
    private func lookUpNewSensors() {
        let now = Date()
        guard now.timeIntervalSince(lastSweep) >= 1 else { return }
        lastSweep = now
        // The cheap test first: most devices are no encrypted sensor.
        for (id, device) in live.all where device.advertised.hasEncryptedSensor {
            let address = id.address
            guard asked.insert(address).inserted else { continue }
            let vault = vault
            Task { [weak self] in
                let found = await Task.detached { () -> Result<[UInt8]?, SensorKeyVaultFailure> in
                    do throws(SensorKeyVaultFailure) { return .success(try vault.key(for: address)) } catch { return .failure(error) }
                }.value
                guard let self else { return }
                switch found {
                case .success(let key?):
                    self.keys.set(key, for: address)
                    self.live.keyChanged(for: id)
                case .success(nil): break
                case .failure(let failure): self.onFailure?(failure.description)
                }
            }
        }
    }

    /// What became of a key typed on a sensor's page.
    public enum Outcome: Equatable, Sendable {
        case kept
        /// Not kept: why, in words.
        case refused(String)
    }

    /// Checks `text` (32 hex digits) against the frame heard last, then keeps it for `id`: in
    /// the vault, and in use at once. A key the frame's check (its MIC) refuses is not kept.
    public func use(_ text: String, for id: DeviceID, name: String) async -> Outcome {
        let digits = text.filter { !$0.isWhitespace && $0 != ":" && $0 != "-" }
        if let wrong = digits.first(where: { !$0.isHexDigit }) {
            return .refused(L10n.format("“{}” is not a hex digit (0–9, A–F).", DeviceText.shown(String(wrong))))
        }
        guard let key = Hex.bytes(digits), key.count == 16 else {
            return .refused(L10n.plural("A key has 32 hex digits; this one has {} digit.",
                                        "A key has 32 hex digits; this one has {} digits.", digits.count))
        }
        if let device = live[id] {
            let trial = OneSensorKey(key: key, ciphers: keys)
            let opened = LiveDevices.opened(device.advertised, heardAt: device.currentAddress.address, keyFor: id.address, keys: trial)
            if opened?.wrongKey == true {
                return .refused(L10n.format("This key does not open the readings of {}.", DeviceText.isolated(name)))
            }
        }
        let vault = vault, address = id.address
        let stored = await Task.detached { () -> SensorKeyVaultFailure? in
            do throws(SensorKeyVaultFailure) { try vault.store(key, for: address); return nil } catch { return error }
        }.value
        if let stored { return .refused(L10n.format("The key could not be kept: {}", stored.description)) }
        asked.insert(address)
        keys.set(key, for: address)
        live.keyChanged(for: id)
        return .kept
    }

    /// Forgets the key of `id`, in the vault too; nil, or why it could not.
    public func remove(for id: DeviceID) async -> String? {
        let vault = vault, address = id.address
        let failure = await Task.detached { () -> SensorKeyVaultFailure? in
            do throws(SensorKeyVaultFailure) { try vault.remove(for: address); return nil } catch { return error }
        }.value
        if let failure { return L10n.format("The key could not be removed: {}", failure.description) }
        keys.set(nil, for: address)
        live.keyChanged(for: id)
        return nil
    }
}
