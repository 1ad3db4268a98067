// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import Persistence

/// The store: opened with the user's backend, pruned to the user's retention in the background.
extension FavBlueApp {
    /// Opens the configured backend; failures end in a memory store with a notice, never a crash.
    func openStore() -> Store {
        let backend = StorageBackend(rawValue: storageOverride ?? settings?.string("storage-backend") ?? "sqlite") ?? .sqlite
        let store = StoreFactory.open(backend, directory: StoreFactory.defaultDirectory())
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
