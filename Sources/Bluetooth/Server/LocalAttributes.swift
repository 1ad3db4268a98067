// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation

/// FavBlue's own attribute database on one controller, which every link answers from, whatever
/// its role (Core v5.4, Vol 3, Part G, §7 gives every LE device a GATT server): Generic Access
/// (the adapter's name, a computer's appearance), Generic Attribute, and the setup served while
/// one is. A link keeps the database it began with until it connects again, as a client that
/// discovered a tree expects it to stay.
public final class LocalAttributes: @unchecked Sendable {
    /// Appearance "Computer" (Assigned Numbers, §2.6.3).
    static let computer: UInt16 = 0x0080

    private let lock = NSLock()
    private var current: AttributeDatabase
    private var served: ServerSetup?
    /// The Device Name of the GAP service while nothing is served.
    private let adapterName: String
    /// Hashes the database (Generic Attribute's Database Hash), where given.
    private let crypto: (any PairingCrypto)?
    /// What each bonded client's side of the server kept when its last link ended, by identity:
    /// its subscriptions, features and change-aware state last across connections (Vol 3,
    /// Part G, §3.3.3.3, §2.5.2.1, §7.2), and across restarts through `keeping` and `restore`.
    private var bondedClients: [DeviceID: ATTServer.Memory] = [:]
    /// Told each bonded client's memory as its link ends, to keep it across FavBlue's restarts.
    private var keeper: (@Sendable (DeviceID, Data) -> Void)?

    /// `adapterName` is what centrals and peripherals read as this computer's Device Name;
    /// by default the host name, as bluetoothd names an adapter. With `crypto`, Generic
    /// Attribute also has Client Supported Features and the Database Hash.
    public init(adapterName: String = LocalAttributes.hostName, crypto: (any PairingCrypto)? = nil) {
        let name = adapterName.isEmpty ? "FavBlue" : adapterName
        self.adapterName = name
        self.crypto = crypto
        current = Self.idle(name: name, crypto: crypto)
    }

    /// The kernel's host name. gethostname(2), not ProcessInfo.hostName, which may ask the
    /// resolver: the app makes this at start-up, on the main thread.
    public static var hostName: String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "" }
        return String(cString: buffer)
    }

    /// The database a new link answers from.
    var database: AttributeDatabase { lock.withLock { current } }

    /// What the bonded client `identity` kept when its last link ended, if it connected before.
    func recall(_ identity: DeviceID) -> ATTServer.Memory? { lock.withLock { bondedClients[identity] } }

    func keep(_ memory: ATTServer.Memory, of identity: DeviceID) {
        let keeper = lock.withLock { () -> (@Sendable (DeviceID, Data) -> Void)? in
            bondedClients[identity] = memory
            return self.keeper
        }
        keeper?(identity, memory.stored)
    }

    /// What was kept before a restart, as `keeping` was given it; a record that does not read
    /// is left out (that client starts afresh), and one already known since is not replaced.
    public func restore(_ kept: [DeviceID: Data]) {
        lock.withLock {
            for (identity, data) in kept where bondedClients[identity] == nil {
                if let memory = ATTServer.Memory(stored: data) { bondedClients[identity] = memory }
            }
        }
    }

    /// Hands each bonded client's memory to `keeper` as its link ends (the app keeps it beside the bonds).
    public func keeping(_ keeper: @escaping @Sendable (DeviceID, Data) -> Void) { lock.withLock { self.keeper = keeper } }

    /// The setup served, if one is.
    var setup: ServerSetup? { lock.withLock { served } }

    /// Serves `setup` on the links made from now on.
    func serve(_ setup: ServerSetup) throws(AttributeDatabase.Problem) {
        let database = try AttributeDatabase(setup, crypto: crypto)
        lock.withLock {
            current = database
            served = setup
        }
    }

    /// Back to GAP and GATT alone, under the name last served (a central that read it keeps seeing it).
    func stopServing() {
        lock.withLock {
            current = Self.idle(name: served?.name ?? adapterName, crypto: crypto)
            served = nil
        }
    }

    private static func idle(name: String, crypto: (any PairingCrypto)?) -> AttributeDatabase {
        // GAP and GATT alone always fit: a name is cut to the 248 bytes Device Name holds. A
        // hash that cannot be computed leaves it out.
        (try? AttributeDatabase(ServerSetup(name: name, appearance: computer), crypto: crypto))
            ?? (try? AttributeDatabase(ServerSetup(name: name, appearance: computer)))!
    }
}
