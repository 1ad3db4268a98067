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
//         AddressFolding                   the one rule that keeps a device changing its private
//                                          address in one row (favblue-scan folds by it too)
//         HeardAddresses                   each row's newest address, for whoever connects or pairs
//         ChangeObservers                  how views and models learn that state changed
//       Favorites/Favorites              owns the favorites: list, nickname rules, the one name
//                                        rule (nickname, advertised name, saved name, address),
//                                        the nearby rule, Undo of a removal
//       Hiding/HiddenDevices             owns hidden devices (Hide with one Undo) and Only New Devices
//       Scanning/ScanPolicy              owns when and how FavBlue scans: the Scanner's own scan,
//                                        Auto Scan, the background scan (ScanSettings)
//       Connection/                      the one connection and its chats:
//         ChatSessions                        owns connection state, this session's messages,
//                                             unread counts and write-behind to the store
//         ConnectionState, ConnectionFailure  lifecycle and plain-words reasons
//         ConnectionEvent                     what a DeviceConnector reports (state, services, messages)
//         ChatMessage, ChatBody, ChatRetention one message (text or raw bytes) and how long they are kept
//         UnreadBadge                         the badge rule (0 → none, 1–99, 100+ → "...")
//       Export/                          DeviceRecord (the keys favblue-scan and Export Devices share),
//                                        CSV (RFC 4180) and JSON writers, ExportFormat
//       Ports/                           one protocol a file: FavoritesRepository,
//                                        SightingsRepository, HiddenDevicesRepository, DeviceScanner,
//                                        ScanRecorder, DeviceConnector, ChatRepository; Feed, the
//                                        stream every port hands out, whose consumption can be awaited
//
// Flow: adapters (Bluetooth, Persistence) implement the ports and are injected by the
// composition root. The owners (LiveDevices, Favorites, HiddenDevices, ScanPolicy,
// ChatSessions) hold all state that outlives a page; view models are read-only windows on
// them plus intents. Every owner that reads a feed can be drained (`drain()`), and every
// timer runs on an injected clock, so tests await instead of sleeping.
// This module imports Foundation and Localization only.
