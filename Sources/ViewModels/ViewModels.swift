// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

// # ViewModels
//
// One @MainActor view model per screen, each with read-only state and intents:
//
//     ViewModels/
//       ChangeObservers      how views learn that state changed
//       SplashViewModel      start-up splash timing
//       FavoritesViewModel   the home list and its dialogs
//       ScannerViewModel     live devices, coalesced and filtered
//       DeviceDetailViewModel
//
// In: Domain use cases and ports (injected). Out: state that Views render and
// user-facing messages already localized through L10n. Never imports GTK,
// GRDB or CBlueZ, so every model is unit-tested with the fakes in TestSupport.

import Domain
import Localization
