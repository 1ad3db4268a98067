// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

// # Domain
//
// What FavBlue is about, free of any toolkit, database or radio:
//
//     Domain/
//       DeviceID, Favorite, Nickname     value types and their rules
//       Observation, ScannerState        what a scan reports
//       DeviceClass, Appearance          names for what a device says it is
//       *UseCases                        add, rename, remove, restore, list
//       Ports (protocols)                FavoritesRepository, SightingsRepository, DeviceScanner
//       L10n                             gettext wrappers used by every layer above
//
// Flow: adapters (Bluetooth, Persistence) implement the ports and are injected
// by the composition root; ViewModels call use cases and read value types.
// This module imports Foundation only and nothing of ours.
