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
    /// Favorites' sensor readings.
    public let readings: SensorReadingsRepository
    /// Devices hidden from the Scanner, and the "Only New Devices" mark.
    public let hidden: HiddenDevicesRepository
    /// Chat messages, per device.
    public let chats: ChatRepository
    /// Bonds: the keys pairing left behind.
    public let bonds: BondsRepository
    /// The names and formats the user gave characteristics.
    public let labels: CharacteristicLabelsRepository
    /// The advertisements and server set up to act as a device.
    public let peripheral: PeripheralSetupsRepository
    /// What the tracker guard saw, kept 14 days; nil in memory, where nothing outlasts the run anyway.
    public let trackers: TrackerSightingsRepository?
    /// Moves a device's records to the identity pairing revealed.
    public let mover: RecordsMover
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

    /// `$XDG_DATA_HOME/favblue`, or `$HOME/.local/share/favblue`.
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        UserDirectories.data { environment[$0] } + "/favblue"
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
        // One FavBlue per database: two would each keep their own favorites and chats in memory
        // and write over each other's changes.
        if case .heldBy(let pid) = DatabaseLock.acquire(path + ".lock") { return memory(notices: [.inUse(pid: pid)]) }
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

    /// Lets go of the lock `open` took on the database in `directory`: for a launch that turned
    /// out to hand its work to another FavBlue, so the one that uses the database gets it.
    public static func releaseLock(directory: String) {
        DatabaseLock.release(directory + "/" + fileName + ".lock")
    }

    private static func sqlite(_ database: SQLiteDatabase, notices: [StoreNotice]) -> Store {
        Store(favorites: SQLiteFavoritesRepository(database: database),
              sightings: SQLiteSightingsRepository(database: database),
              readings: SQLiteSensorReadingsRepository(database: database),
              hidden: SQLiteHiddenDevicesRepository(database: database), chats: SQLiteChatRepository(database: database),
              bonds: SQLiteBondsRepository(database: database), labels: SQLiteCharacteristicLabelsRepository(database: database),
              peripheral: SQLitePeripheralSetupsRepository(database: database), trackers: SQLiteTrackerSightingsRepository(database: database), mover: SQLiteRecordsMover(database: database),
              notices: notices, path: database.path)
    }

    private static func memory(notices: [StoreNotice]) -> Store {
        let favorites = InMemoryFavoritesRepository(), sightings = InMemorySightingsRepository()
        let hidden = InMemoryHiddenDevicesRepository(), chats = InMemoryChatRepository(), bonds = InMemoryBondsRepository()
        let labels = InMemoryCharacteristicLabelsRepository()
        let readings = InMemorySensorReadingsRepository()
        return Store(favorites: favorites, sightings: sightings, readings: readings, hidden: hidden, chats: chats, bonds: bonds, labels: labels,
                     peripheral: InMemoryPeripheralSetupsRepository(), trackers: nil,
                     mover: InMemoryRecordsMover(favorites: favorites, sightings: sightings, hidden: hidden,
                                                 chats: chats, bonds: bonds, labels: labels, readings: readings),
                     notices: notices, path: nil)
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

/// A POSIX record lock on a file beside the database, held until the process ends. Record
/// locks belong to the process, so opening the store again in the same process is allowed,
/// and the kernel names the process holding it.
enum DatabaseLock {
    enum Outcome: Equatable { case held, heldBy(pid: Int32?), unavailable }

    private nonisolated(unsafe) static var descriptors: [String: Int32] = [:]
    private static let lock = NSLock()

    static func acquire(_ path: String) -> Outcome {
        lock.lock()
        defer { lock.unlock() }
        if descriptors[path] != nil { return .held }
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        // A lock file that cannot be made (a read-only folder) is no reason to refuse the database.
        guard fd >= 0 else { return .unavailable }
        var request = flock()
        request.l_type = Int16(F_WRLCK)
        request.l_whence = Int16(SEEK_SET)
        if fcntl(fd, F_SETLK, &request) == 0 {
            descriptors[path] = fd
            return .held
        }
        // Only a conflicting lock means another process; a file system without locks does not.
        guard errno == EAGAIN || errno == EACCES else {
            close(fd)
            return .unavailable
        }
        var holder = flock()
        holder.l_type = Int16(F_WRLCK)
        holder.l_whence = Int16(SEEK_SET)
        let pid: Int32? = fcntl(fd, F_GETLK, &holder) == 0 && holder.l_type != Int16(F_UNLCK) ? holder.l_pid : nil
        close(fd)
        return .heldBy(pid: pid)
    }

    static func release(_ path: String) {
        lock.lock()
        defer { lock.unlock() }
        // Closing the descriptor ends the process's lock on the file.
        if let fd = descriptors.removeValue(forKey: path) { close(fd) }
    }
}
