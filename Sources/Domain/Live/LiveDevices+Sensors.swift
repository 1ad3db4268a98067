// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation

extension LiveDevices {
    /// What the device's advertising says as a sensor, opened with its key where one is known:
    /// the fold decodes without keys, before it knows which address it heard.
    public func sensor(of id: DeviceID) -> SensorData? { devices[id]?.sensor(keys: sensorKeys) }

    /// Starts judging the device's frames afresh: its key was given, changed or removed.
    public func keyChanged(for id: DeviceID) {
        devices[id]?.sensorGuard = nil
        notify(.devices)
    }

    /// Feeds the device's newest frame to its guard, when its key is known.
    func guardSensor(_ id: DeviceID, at time: Date) {
        guard let device = devices[id] else { return }
        _ = SensorGuard.judge(&devices[id]!.sensorGuard, device.advertised, heardAt: device.currentAddress.address,
                              owner: id.address, keys: sensorKeys, at: time)
    }

    /// The sensor's readings over the last hour, one every 10 s, oldest first.
    public func recentReadings(of id: DeviceID) -> [SensorSample] { sensorSampler.recent[id] ?? [] }

    /// The sensor's states as they changed (a door opening, closing) this session, oldest first.
    public func recentStateChanges(of id: DeviceID) -> [SensorSample] { sensorSampler.stateChanges[id] ?? [] }

    /// `advertised`'s sensor data; an encrypted frame is opened with the key kept for `keyFor`,
    /// its nonce built from the address it was heard at.
    public nonisolated static func opened(_ advertised: AdvertisedData, heardAt address: String, keyFor owner: String,
                                          keys: SensorKeys?) -> SensorData? {
        guard let sensor = advertised.sensor, sensor.encrypted, let keys, let key = keys.key(for: owner) else {
            return advertised.sensor
        }
        return SensorDecoders.decode(advertised, address: address, keys: OneSensorKey(key: key, ciphers: keys))
    }
}

extension LiveDevice {
    /// What its advertising says as a sensor: with its key known, only what its guard believes.
    public func sensor(keys: SensorKeys?) -> SensorData? {
        SensorGuard.sensor(advertised, judged: sensorGuard, heardAt: currentAddress.address, owner: id.address, at: lastSeen, keys: keys)
    }
}

/// One device's key under whatever address its frame was heard at (or a key being tried).
struct OneSensorKey: SensorKeys {
    let key: [UInt8]
    let ciphers: SensorKeys

    func key(for address: String) -> [UInt8]? { key }
    func ccmOpen(key: [UInt8], nonce: [UInt8], ciphertext: [UInt8], tag: [UInt8], associated: [UInt8]) -> [UInt8]? {
        ciphers.ccmOpen(key: key, nonce: nonce, ciphertext: ciphertext, tag: tag, associated: associated)
    }
    func ctr(key: [UInt8], counter: [UInt8], data: [UInt8]) -> [UInt8]? { ciphers.ctr(key: key, counter: counter, data: data) }
}
