// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

// # ViewModels
//
// @MainActor view models: read-only state plus intents. Import Domain only.

import Domain
