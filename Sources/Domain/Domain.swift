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
//       Live/                            the live-device model:
//         AdvertisedData                   the one merge rule for what a device advertises
//         LiveDevice, SignalTrace          one device's state: signal, smoothing, five-minute trace
//         LiveDevices                      owns the scan and every LiveDevice; folds, fades, drops,
//                                          batches favorites' readings; pages observe it
//         ChangeObservers                  how views and models learn that state changed
//       Connection/                      the one connection and its chat:
//         ConnectionState, ConnectionFailure  lifecycle and plain-words reasons
//         ConnectionEvent                     what a DeviceConnector reports (state, services, messages)
//         ChatMessage, ChatBody, ChatRetention one message (text or raw bytes) and how long they are kept
//         UnreadBadge                         the badge rule (0 → none, 1–99, 100+ → "...")
//       Hiding/                          HiddenDevice, NewDevicesMark (Only New Devices)
//       Export/                          DeviceRecord (the keys favblue-scan and Export Devices share),
//                                        CSV (RFC 4180) and JSON writers, ExportFormat
//       Ports/                           one protocol a file: FavoritesRepository,
//                                        SightingsRepository, HiddenDevicesRepository, DeviceScanner,
//                                        ScanRecorder, DeviceConnector, ChatRepository
//
// Flow: adapters (Bluetooth, Persistence) implement the ports and are injected
// by the composition root; LiveDevices folds a scanner's observations; view
// models call use cases and read LiveDevices and value types.
// This module imports Foundation and Localization only.
