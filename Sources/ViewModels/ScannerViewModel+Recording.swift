// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation

extension ScannerViewModel {
    // MARK: Recording

    /// The btsnoop capture being written, or nil.
    public var recordingPath: String? { live.recordingPath }
    /// Whether this source can be recorded at all.
    public var canRecord: Bool { live.canRecord }

    /// Records the scan into a new capture at `path`, starting the scan if it is not running;
    /// returns why it could not, or nil. The recording ends when scanning stops.
    @discardableResult
    public func startRecording(to path: String) -> RecordingError? {
        if !live.isRunning { start() }
        do {
            try live.startRecording(to: path)
        } catch {
            return error
        }
        return nil
    }

    /// Closes the capture; scanning goes on.
    public func stopRecording() { live.stopRecording() }

    // MARK: Export

    /// What the list shows now, in its order and with its filters, as export records.
    public func exportRecords() -> [DeviceRecord] {
        rows.compactMap { row in
            guard let device = live[row.id] else { return nil }
            let favorite = favorites.favorite(row.id)
            return DeviceRecord(id: row.id, advertised: device.advertised, rssi: device.rssi, rssiMax: device.rssiMax,
                                reports: device.reports, firstSeen: device.firstSeen, lastSeen: device.lastSeen,
                                addresses: device.addresses, nickname: favorite?.nickname, favorite: favorite != nil,
                                sensor: .some(live.sensor(of: row.id)))
        }
    }
}
