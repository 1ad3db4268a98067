// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Bluetooth
import Domain
import Foundation

/// One device as one JSON object on one line, with the keys the app's export uses too.
enum JSONLine {
    /// With `sources` (several were in use), each line lists the sources that heard the device.
    static func encode(_ d: DeviceAggregate, sources: Bool = false) -> String { DeviceExport.jsonLine(record(d, sources: sources)) }

    /// With `sensorKeys`, a sensor whose key is there shows only the frames its key opened and believed.
    static func record(_ d: DeviceAggregate, sources: Bool = false, sensorKeys: SensorKeys? = nil) -> DeviceRecord {
        let sensor = d.sensor(keys: sensorKeys)
        return DeviceRecord(id: d.id, advertised: d.advertised, rssi: d.rssi, rssiMax: d.rssiMax,
                            reports: d.reports, firstSeen: d.firstSeen, lastSeen: d.lastSeen, addresses: d.addresses,
                            sources: sources ? d.sources : nil, sensor: .some(sensor))
    }
}
