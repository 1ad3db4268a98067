// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

// # ViewModels
//
// One @MainActor view model per screen or widget: a read-only window on Domain's owners, plus intents.
//
//     ViewModels/
//       SplashViewModel        start-up splash timing
//       FavoritesViewModel     the home list in words, its banner and toasts (Favorites)
//       ScannerViewModel       a filtered, sorted view of LiveDevices (Favorites, HiddenDevices, ScanPolicy)
//       DeviceDetailViewModel  one device's entry in LiveDevices, plus its stored history
//       ConnectionViewModel    the connection bar and the detail page's Connect (ChatSessions)
//       ChatViewModel          one device's chat, paged from the store (ChatSessions)
//       HiddenDevicesViewModel Preferences' list and Hide with Undo (HiddenDevices)
//       ScanSettingsViewModel  Preferences' scan settings (ScanPolicy)
//       NicknameSharing        nicknames as BlueZ aliases (Favorites)
//
// No view model holds another: pages that share state read the same owner.
// In: Domain's owners, use cases and ports (injected). Out: state that Views render and
// user-facing messages already localized through L10n. Never imports GTK,
// GRDB or CBlueZ, so every model is unit-tested with the fakes in TestSupport.

import Domain
import Localization
