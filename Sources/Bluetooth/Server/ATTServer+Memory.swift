// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation

/// A bonded client's side of the server, kept between its connections and across FavBlue's
/// restarts; `ATTServer.memory` makes it as a link ends, `ATTServer.recall` takes it back.
extension ATTServer {
    /// What a bonded client's side of the server keeps between its connections: its features,
    /// the database it knew (§2.5.2.1, §7.2), and its subscriptions (§3.3.3.3: a bonded
    /// client's configurations persist across connections).
    struct Memory: Equatable, Sendable, Codable {
        let features: UInt8
        let knownHash: [UInt8]?
        var subscriptions: [Subscription] = []
    }

    /// A configuration, with the characteristic it was for: the value's handle and type.
    struct Subscription: Equatable, Sendable, Codable {
        let configuration: UInt16
        let valueHandle: UInt16
        let type: BluetoothUUID
        let bits: UInt16
    }
}

extension ATTServer.Memory {
    /// The form kept in the store: JSON, the UUIDs as text.
    var stored: Data { (try? JSONEncoder().encode(self)) ?? Data() }

    /// Nil for what does not read back whole: a store's record is not trusted further.
    init?(stored data: Data) {
        guard let memory = try? JSONDecoder().decode(Self.self, from: data) else { return nil }
        self = memory
    }
}
