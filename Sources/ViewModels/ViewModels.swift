// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

// # ViewModels
//
// One @MainActor view model per screen, each with read-only state and intents:
//
//     ViewModels/
//       SplashViewModel        start-up splash timing
//       FavoritesViewModel     the home list and its dialogs
//       ScannerViewModel       a filtered, sorted view of Domain's LiveDevices
//       DeviceDetailViewModel  one device's entry in LiveDevices, plus its stored history
//
// The Scanner and Detail models both read LiveDevices and never each other.
// In: Domain use cases, ports and the live-device model (injected). Out: state that Views render and
// user-facing messages already localized through L10n. Never imports GTK,
// GRDB or CBlueZ, so every model is unit-tested with the fakes in TestSupport.

import Domain
import Localization
