// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

// # Persistence
//
// Keeps favorites, sightings, hidden devices and chat messages, behind Domain's repository ports:
//
//     Persistence/
//       StoreFactory                   opens the configured backend; recovers or falls back
//       SQLiteDatabase                 the GRDB pool, WAL, migrations, file permissions
//       SQLiteFavoritesRepository      favorites table
//       SQLiteSightingsRepository      sightings table, bounded retention
//       SQLiteHiddenDevicesRepository  hidden_devices and known_devices tables
//       SQLiteChatRepository           messages table, paged by position, retention per device
//       InMemory*Repository            the same contract without a file
//
// In: a backend choice, a data directory and a retention policy from the
// composition root. Out: repositories plus notices (file moved aside, newer
// schema, nothing can be saved) that the UI shows. Nothing here is lost: an
// unreadable file is moved aside, never deleted, and a newer one is never written.

import Domain
