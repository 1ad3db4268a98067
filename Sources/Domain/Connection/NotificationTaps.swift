// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation

/// The readers of tapped characteristics, by value handle, each for one device; safe from any thread.
final class NotificationTaps: @unchecked Sendable {
    private let lock = NSLock()
    private var readers: [UInt16: (device: DeviceID, read: @Sendable ([UInt8]) -> Void)] = [:]

    /// `read` takes `device`'s notifications of `handle` from now on, on the connection's thread.
    func tap(_ handle: UInt16, of device: DeviceID, _ read: @escaping @Sendable ([UInt8]) -> Void) {
        lock.withLock { readers[handle] = (device, read) }
    }

    func untap(_ handle: UInt16) { lock.withLock { _ = readers.removeValue(forKey: handle) } }

    func reader(of handle: UInt16, from device: DeviceID) -> (@Sendable ([UInt8]) -> Void)? {
        lock.withLock { readers[handle].flatMap { $0.device == device ? $0.read : nil } }
    }
}
