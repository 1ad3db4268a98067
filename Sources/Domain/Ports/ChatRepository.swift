// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Foundation

/// Where chat messages are kept, per device.
///
/// A device's history is one list ordered by time (oldest first, ties in insertion order),
/// addressed by position, so a virtualized list can ask for just the rows it shows.
public protocol ChatRepository: Sendable {
    /// Stores a batch of messages in one transaction; a message whose id is stored replaces it.
    func append(_ messages: [ChatMessage]) async throws
    /// Changes the delivery of the message with this id; nothing happens if there is none.
    func setDelivery(_ delivery: ChatDelivery, of id: UUID) async throws
    /// Up to `limit` messages of `device` starting at position `offset` (0 = oldest), oldest first.
    func page(for device: DeviceID, offset: Int, limit: Int) async throws -> [ChatMessage]
    /// How many messages of `device` are kept.
    func count(for device: DeviceID) async throws -> Int
    /// Deletes, for every device, messages beyond `retention` as of `now`; returns how many went.
    @discardableResult
    func prune(_ retention: ChatRetention, now: Date) async throws -> Int
}
