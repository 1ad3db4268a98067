// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Bluetooth
import Domain
import Foundation

/// One device as one JSON object on one line, with the keys the app's export uses too.
enum JSONLine {
    /// With `sources` (several were in use), each line lists the sources that heard the device.
    static func encode(_ d: DeviceAggregate, sources: Bool = false) -> String { DeviceExport.jsonLine(record(d, sources: sources)) }

    /// With `sensorKeys`, an encrypted sensor whose key is there is opened (or refused by its MIC).
    static func record(_ d: DeviceAggregate, sources: Bool = false, sensorKeys: SensorKeys? = nil) -> DeviceRecord {
        var sensor = d.advertised.sensor
        if sensor?.encrypted == true, let sensorKeys, sensorKeys.key(for: d.id.address) != nil {
            sensor = SensorDecoders.decode(d.advertised, address: d.id.address, keys: sensorKeys)
        }
        return DeviceRecord(id: d.id, advertised: d.advertised, rssi: d.rssi, rssiMax: d.rssiMax,
                            reports: d.reports, firstSeen: d.firstSeen, lastSeen: d.lastSeen, addresses: d.addresses,
                            sources: sources ? d.sources : nil, sensor: .some(sensor))
    }
}
