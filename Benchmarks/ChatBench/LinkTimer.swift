// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Bluetooth
import Foundation

/// Notes when the controller reports a new connection, so the time to connect splits into
/// the link (waiting for the peer's advertisement on Bumble's air) and FavBlue's GATT set-up.
/// The host hands it every packet, on its read thread.
final class LinkTimer: PacketRecorder, @unchecked Sendable {
    private let lock = NSLock()
    private var last: ContinuousClock.Instant?

    func write(type: H4PacketType, bytes: [UInt8], received: Bool, at time: Date) {
        // LE Meta event, subevent LE Connection Complete or LE Enhanced Connection Complete v1/v2
        // (Core v5.4, Vol 4, Part E, §7.7.65.1, .10, .41), status 0.
        guard type == .event, received, bytes.count >= 4, bytes[0] == 0x3E, [0x01, 0x0A, 0x29].contains(bytes[2]),
              bytes[3] == 0 else { return }
        let now = ContinuousClock.now
        lock.withLock { last = now }
    }

    /// When the last connection was reported.
    var connected: ContinuousClock.Instant? { lock.withLock { last } }
}
