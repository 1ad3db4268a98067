// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import Localization

/// Something the user must know about the store when the app starts.
public enum StoreNotice: Equatable, Sendable {
    /// The database was unreadable and was moved to `path`; a fresh one was made.
    case movedAside(path: String)
    /// The database comes from a newer FavBlue; it is left untouched and this session is in memory.
    case newerSchema
    /// Nothing can be written (`reason`); this session is in memory.
    case notSaved(reason: String)
    /// Another FavBlue (process `pid`, when known) has the database open; this session is in
    /// memory and leaves the file to it.
    case inUse(pid: Int32?)

    /// Whether changes in this session will be lost on quit.
    public var isMemoryOnly: Bool {
        switch self {
        case .movedAside: return false
        case .newerSchema, .notSaved, .inUse: return true
        }
    }

    /// A sentence for the user saying what happened and what to do next.
    public var message: String {
        switch self {
        case .movedAside(let path):
            return L10n.format("Your favorites database could not be read, so a new one was started. The old file was kept as {}.", path)
        case .newerSchema:
            return L10n.tr("Your favorites were saved by a newer FavBlue. They are left untouched; changes will not be saved until you update FavBlue.")
        case .notSaved(let reason):
            return L10n.format("Favorites cannot be saved ({}). Changes will not be saved; check that your disk has room and your data folder is writable.", reason)
        case .inUse(let pid?):
            return L10n.format("Another FavBlue (process {}) is using your favorites and chats, so this window shows none and saves nothing. Quit the other FavBlue, then start this one again.", String(pid))
        case .inUse(nil):
            return L10n.tr("Another FavBlue is using your favorites and chats, so this window shows none and saves nothing. Quit the other FavBlue, then start this one again.")
        }
    }
}
