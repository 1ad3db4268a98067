// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation

/// A failure a fake store reports, as a disk would.
public struct FakeStoreFailure: Error, CustomStringConvertible {
    public init() {}
    public var description: String { "disk I/O error" }
}

/// A favorites store in memory that can be told to fail, and can be slowed down.
public actor FakeFavoritesRepository: FavoritesRepository {
    /// The operations that can be made to fail.
    public enum Operation: Sendable, CaseIterable { case all, favorite, save, remove }

    private var favorites: [DeviceID: Favorite] = [:]
    private var failing: Set<Operation> = []
    private var delayNanoseconds: UInt64 = 0

    /// Creates a store holding `initial`.
    public init(_ initial: [Favorite] = []) {
        for favorite in initial { favorites[favorite.id] = favorite }
    }

    /// Makes `operations` throw from now on.
    public func fail(_ operations: Set<Operation>) { failing = operations }

    /// Makes every call wait this long first.
    public func delay(milliseconds: UInt64) { delayNanoseconds = milliseconds * 1_000_000 }

    private func enter(_ operation: Operation) async throws {
        // Slow on purpose when a test asks: a store that takes its time, as a busy disk does.
        if delayNanoseconds > 0 { try await Task.sleep(nanoseconds: delayNanoseconds) }
        if failing.contains(operation) { throw FakeStoreFailure() }
    }

    public func all() async throws -> [Favorite] {
        try await enter(.all)
        return Array(favorites.values)
    }

    public func favorite(_ id: DeviceID) async throws -> Favorite? {
        try await enter(.favorite)
        return favorites[id]
    }

    public func save(_ favorite: Favorite) async throws {
        try await enter(.save)
        favorites[favorite.id] = favorite
    }

    public func remove(_ id: DeviceID) async throws {
        try await enter(.remove)
        favorites[id] = nil
    }
}

/// Test device identifiers.
public enum TestDevices {
    /// A device with address `AA:BB:CC:DD:EE:0n`.
    public static func id(_ n: UInt8, kind: AddressKind = .lePublic) -> DeviceID {
        DeviceID(octets: [0xAA, 0xBB, 0xCC, 0xDD, 0xEE, n], kind: kind)
    }
}
