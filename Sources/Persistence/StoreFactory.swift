// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Domain
import Foundation
import Localization

/// The repositories a session uses, and what the user must be told about them.
public struct Store: Sendable {
    /// Favorites.
    public let favorites: FavoritesRepository
    /// Signal readings.
    public let sightings: SightingsRepository
    /// Devices hidden from the Scanner, and the "Only New Devices" mark.
    public let hidden: HiddenDevicesRepository
    /// Chat messages, per device.
    public let chats: ChatRepository
    /// Things that happened while opening (file moved aside, memory-only session).
    public let notices: [StoreNotice]
    /// The database file in use, or nil in memory.
    public let path: String?
}

/// Which backend keeps favorites.
public enum StorageBackend: String, Sendable, CaseIterable {
    /// A SQLite file under the user's data folder.
    case sqlite
    /// Nothing written; forgotten on quit.
    case memory
}

/// Opens the configured store and recovers from whatever is wrong with it.
public enum StoreFactory {
    /// The file name inside the data directory.
    public static let fileName = "favblue.sqlite"

    /// `$XDG_DATA_HOME/favblue`, or `~/.local/share/favblue`.
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let base = environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? NSHomeDirectory() + "/.local/share"
        return base + "/favblue"
    }

    /// Opens `backend` in `directory`. Never throws: every failure ends in a working
    /// (possibly memory-only) store and a notice saying what happened.
    public static func open(_ backend: StorageBackend, directory: String, now: Date = Date()) -> Store {
        guard backend == .sqlite else { return memory(notices: []) }
        let fm = FileManager.default
        do {
            try fm.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                   attributes: [.posixPermissions: 0o700])
        } catch {
            return memory(notices: [.notSaved(reason: (error as NSError).localizedDescription)])
        }
        let path = directory + "/" + fileName
        let database: SQLiteDatabase
        do {
            database = try SQLiteDatabase(path: path)
        } catch {
            switch error {
            case .unreadable:
                guard let aside = moveAside(path, now: now) else {
                    return memory(notices: [.notSaved(reason: L10n.tr("the damaged database could not be moved aside"))])
                }
                do {
                    return sqlite(try SQLiteDatabase(path: path), notices: [.movedAside(path: aside)])
                } catch {
                    return memory(notices: [.movedAside(path: aside), .notSaved(reason: "\(error)")])
                }
            case .newerSchema:
                return memory(notices: [.newerSchema])
            case .notWritable(let reason):
                return memory(notices: [.notSaved(reason: reason)])
            }
        }
        return sqlite(database, notices: [])
    }

    private static func sqlite(_ database: SQLiteDatabase, notices: [StoreNotice]) -> Store {
        Store(favorites: SQLiteFavoritesRepository(database: database),
              sightings: SQLiteSightingsRepository(database: database),
              hidden: SQLiteHiddenDevicesRepository(database: database), chats: SQLiteChatRepository(database: database),
              notices: notices, path: database.path)
    }

    private static func memory(notices: [StoreNotice]) -> Store {
        Store(favorites: InMemoryFavoritesRepository(), sightings: InMemorySightingsRepository(),
              hidden: InMemoryHiddenDevicesRepository(), chats: InMemoryChatRepository(), notices: notices, path: nil)
    }

    /// Renames the file (and its WAL and shared-memory files) to `<file>.corrupt-<UTC time>`.
    static func moveAside(_ path: String, now: Date) -> String? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        let aside = path + ".corrupt-" + formatter.string(from: now)
        let fm = FileManager.default
        do {
            try fm.moveItem(atPath: path, toPath: aside)
        } catch {
            return nil
        }
        for suffix in ["-wal", "-shm"] where fm.fileExists(atPath: path + suffix) {
            try? fm.moveItem(atPath: path + suffix, toPath: aside + suffix)
        }
        return aside
    }
}
