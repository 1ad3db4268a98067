// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import Persistence
import Synchronization

/// The store: opened with the user's backend while GTK starts, pruned to the user's retention in
/// the background.
extension FavBlueApp {
    /// Starts opening the configured backend on its own thread. GTK's start (the display, GL,
    /// libadwaita's styles) keeps the main thread some 70 ms; SQLite's open and migrations fit
    /// beside it instead of after it, before the first window. Only the first launch opens it: a
    /// second one that took the database's lock would hold it while the first waits.
    func startOpeningStore() {
        guard storeOpening == nil else { return }
        let backend = storageBackend
        storeOpening = StoreOpening { StoreFactory.open(backend, directory: StoreFactory.defaultDirectory()) }
    }

    private var storageBackend: StorageBackend {
        StorageBackend(rawValue: storageOverride ?? settings?.string("storage-backend") ?? "sqlite") ?? .sqlite
    }

    /// The opened store, waited for if it is not open yet. Failures end in a memory store with a
    /// notice, never a crash.
    func openStore() -> Store {
        startOpeningStore()
        let store = storeOpening?.wait() ?? StoreFactory.open(storageBackend, directory: StoreFactory.defaultDirectory())
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

    func loadChatRetention() -> ChatRetention {
        let days = Int(settings?.uint("chat-retention-days") ?? 0)
        return ChatRetention(days: days == 0 ? nil : days,
                             maxPerDevice: Int(settings?.uint("chat-messages-per-device") ?? UInt32(ChatRetention.standard.maxPerDevice)))
    }
}

/// A store being opened on a thread of its own; `wait()` hands it over once.
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
