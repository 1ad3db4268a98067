// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation

/// Hidden devices in memory, shared by two models to stand for a restart, and able to fail.
public actor FakeHiddenDevicesRepository: HiddenDevicesRepository {
    private var hidden: [DeviceID: HiddenDevice] = [:]
    private var mark: NewDevicesMark?
    private var failing = false

    public init() {}

    /// Makes every write throw from now on.
    public func failWrites() { failing = true }

    public func all() -> [HiddenDevice] { Array(hidden.values) }

    public func hide(_ device: HiddenDevice) throws {
        if failing { throw FakeStoreFailure() }
        hidden[device.id] = device
    }

    public func unhide(_ id: DeviceID) throws {
        if failing { throw FakeStoreFailure() }
        hidden[id] = nil
    }

    public func newDevicesMark() -> NewDevicesMark? { mark }

    public func setNewDevicesMark(_ mark: NewDevicesMark?) throws {
        if failing { throw FakeStoreFailure() }
        self.mark = mark
    }
}
