// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation

/// What a server's `LocalAttributes` handed out to be kept of its bonded clients, held as the
/// app's store holds it, to give a restarted server.
public final class ServedClientsShelf: @unchecked Sendable {
    private let lock = NSLock()
    private var kept: [DeviceID: Data] = [:]

    public init() {}

    /// For `LocalAttributes.keeping`.
    public func keep(_ identity: DeviceID, _ memory: Data) { lock.withLock { kept[identity] = memory } }

    public var all: [DeviceID: Data] { lock.withLock { kept } }
}
