// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

// # Persistence
//
// GRDB repositories on SQLite plus in-memory repositories; both implement
// Domain's repository ports. (Filled by the Favorites work.)

import Domain
