// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

extension LiveDevices {
    /// What the device's advertising says as a sensor, opened with its key where one is known:
    /// the fold decodes without keys, before it knows which address it heard.
    public func sensor(of id: DeviceID) -> SensorData? {
        guard let device = devices[id] else { return nil }
        return Self.opened(device.advertised, heardAt: device.currentAddress.address, keyFor: id.address, keys: sensorKeys)
    }

    /// The sensor's readings over the last hour, one every 10 s, oldest first.
    public func recentReadings(of id: DeviceID) -> [SensorSample] { sensorSampler.recent[id] ?? [] }

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
