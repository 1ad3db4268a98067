// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation

/// A system that takes aliases for the devices it knows, and can be told to refuse.
public final class FakeAliasWriter: SystemAliasWriter, @unchecked Sendable {
    private let lock = NSLock()
    private var _writes: [(DeviceID, String)] = []
    private let known: Set<DeviceID>?
    /// Set to make every write fail with this reason.
    public var refusal: String?

    /// Knows `known` devices, or every device for nil.
    public init(knows known: Set<DeviceID>? = nil) { self.known = known }

    /// Every alias written, in order.
    public var writes: [(DeviceID, String)] { lock.withLock { _writes } }

    public func setAlias(_ alias: String, for device: DeviceID) async throws(AliasWriteError) -> Bool {
        if let refusal { throw AliasWriteError(reason: refusal) }
        guard known?.contains(device) ?? true else { return false }
        lock.withLock { _writes.append((device, alias)) }
        return true
    }
}
