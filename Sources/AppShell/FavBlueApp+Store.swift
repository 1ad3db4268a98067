// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Bluetooth
import Domain
import Foundation
import Persistence
import Synchronization

/// The store: opened with the user's backend while GTK starts, pruned to the user's retention in
/// the background.
extension FavBlueApp {
    /// Starts opening the configured backend on its own thread. The session bus and GTK's start
    /// (the display, GL, libadwaita's styles) keep the main thread some 100 ms; SQLite's open and
    /// migrations fit beside them instead of after them, before the first window.
    func startOpeningStore() {
        guard storeOpening == nil else { return }
        let backend = storageBackend
        storeOpening = StoreOpening { StoreFactory.open(backend, directory: StoreFactory.defaultDirectory()) }
    }

    private var storageBackend: StorageBackend {
        StorageBackend(rawValue: storageOverride ?? settings?.string("storage-backend") ?? "sqlite") ?? .sqlite
    }

    /// Hands `use` the opened store, waited for if it is not open yet: at once, unless another
    /// launch holds the database. Failures end in a memory store with a notice, never a crash.
    func openStore(then use: @escaping (Store) -> Void) {
        startOpeningStore()
        let store = storeOpening?.wait() ?? StoreFactory.open(storageBackend, directory: StoreFactory.defaultDirectory())
        retryWhileInUse(store, tries: 0, then: use)
    }

    /// Two launches at once: the one that turned out second may have taken the database's lock
    /// first. It lets go as soon as it knows (`abandonStore`), which it learns only from this
    /// launch's answers on the bus, so this one asks again from the main loop, not blocking it.
    private func retryWhileInUse(_ store: Store, tries: Int, then use: @escaping (Store) -> Void) {
        guard tries < 20, store.notices.contains(where: { if case .inUse = $0 { true } else { false } }) else {
            return use(keep(store))
        }
        Task { [weak self] in
            try? await Task.sleep(for: .milliseconds(50))
            guard let self else { return }
            retryWhileInUse(StoreFactory.open(storageBackend, directory: StoreFactory.defaultDirectory()), tries: tries + 1, then: use)
        }
    }

    /// Starts pruning `store` to the user's retention in the background, and says its notices.
    private func keep(_ store: Store) -> Store {
        let retention = SightingRetention(days: Int(settings?.uint("sightings-retention-days") ?? 30),
                                          maxRows: Int(settings?.uint("sightings-max-rows") ?? 200_000))
        let sightings = store.sightings, readings = store.readings
        let chats = store.chats
        let chatRetention = loadChatRetention()
        Task.detached(priority: .background) {
            _ = try? await sightings.prune(retention, now: Date())
            _ = try? await readings.prune(retention, now: Date())
            _ = try? await chats.prune(chatRetention, now: Date())
        }
        for notice in store.notices { printError(notice.message) }
        return store
    }

    /// For a launch that hands its activation to the first FavBlue: the store it began to open
    /// is closed unused, and the database's lock let go.
    func abandonStore() {
        guard let opening = storeOpening else { return }
        storeOpening = nil
        _ = opening.wait()
        StoreFactory.releaseLock(directory: StoreFactory.defaultDirectory())
    }

    func loadChatRetention() -> ChatRetention {
        let days = Int(settings?.uint("chat-retention-days") ?? 0)
        return ChatRetention(days: days == 0 ? nil : days,
                             maxPerDevice: Int(settings?.uint("chat-messages-per-device") ?? UInt32(ChatRetention.standard.maxPerDevice)))
    }
}

/// A store being opened on a thread of its own; `wait()` hands it over once it is open.
final class StoreOpening: Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let result = Mutex<Store?>(nil)

    init(_ open: @escaping @Sendable () -> Store) {
        Thread.detachNewThread { [self] in
            let store = open()
            result.withLock { $0 = store }
            done.signal()
        }
    }

    /// Blocks until the store is open.
    func wait() -> Store? {
        done.wait()
        done.signal()
        return result.withLock { $0 }
    }
}
