// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

// # Domain
//
// What FavBlue is about, free of any toolkit, database or radio:
//
//     Domain/
//       DeviceID, Release                a device's address and kind; the version FavBlue is
//       Live/                            the live-device model:
//         AdvertisedData                   the one merge rule for what a device advertises
//         LiveDevice, SignalTrace          one device's state: signal, smoothing, five-minute trace
//         LiveDevices (+Rooms, +Sensors)   owns the scan and every LiveDevice; folds, fades, drops,
//                                          batches favorites' readings; pages observe it
//         SensorCache                      a device's frames, decoded when someone reads them
//         AddressFolding                   the one rule that keeps a device changing its private
//                                          address in one row (favblue-scan folds by it too)
//         HeardAddresses, SourceHearing    each row's newest address; who heard it, the room rule
//         ChangeObservers, Inbox           how views and models learn that state changed
//       Scanning/                        Observation, ScannerState, ScanSource (the --source names),
//                                        ScanPolicy (when and how FavBlue scans), SourceStatus
//       Favorites/Favorites              owns the favorites: list, nickname rules, the one name
//                                        rule (nickname, advertised name, saved name, address),
//                                        the nearby rule, Undo of a removal
//       Hiding/HiddenDevices             owns hidden devices (Hide with one Undo) and Only New Devices
//       Connection/                      the one connection and its chats:
//         ChatSessions                        owns connection state, this session's messages,
//                                             unread counts and write-behind to the store; hands
//                                             a tapped characteristic's notifications to their
//                                             reader off the main thread (NotificationTaps)
//         ConnectionState, ConnectionFailure  lifecycle and plain-words reasons
//         ConnectionEvent                     what a DeviceConnector reports (state, services, messages)
//         ChatMessage, ChatBody, ChatRetention one message (text or raw bytes) and how long they are kept
//         UnreadBadge                         the badge rule (0 → none, 1–99, 100+ → "...")
//       GATT/                            GATTTree (services, characteristics and descriptors with
//                                        handles: the GATT client fills it from discovery, FavBlue's
//                                        server from its setup), GATTProperties, GATTBrowser (reads,
//                                        writes, notifications), value decoders and PresentationFormat
//       Identity/                        bonds, identity resolving keys, private-address resolution,
//                                        pairing's questions and answers (Identities owns them)
//       DeviceManager/                   MCUmgr: DeviceManager (a board's images, restart, echo,
//                                        statistics, shell, files) over SMPClient (header, CBOR,
//                                        pipelined uploads) on GATT, UDP or a serial line
//                                        (SMPSerialFraming); FirmwareUpdate (upload, mark, restart,
//                                        confirm), MCUbootImage and FirmwarePackage (.bin, .zip)
//       Peripheral/                      BluetoothUUID (the one UUID type, down to the ATT codec);
//                                        Act as a Device: ServerSetup, Advertisement and its fields,
//                                        presets, PeripheralRole (owns what is served and advertised),
//                                        the JSON file, nRF Connect's setups, Clone This Device
//       Sensors/                         one file per sensor family, each a pure decoder citing its
//                                        source; the quantity catalogue; trust per device
//       Trackers/                        TrackerTable (one entry per family), the "moving with you"
//                                        rule (TrackerWatch, TrackerGuard), sounds
//       Text/                            DeviceText (the device-text rule), Hex, Blanks, user folders
//                                        (from variables the caller reads: Domain reads none)
//       Export/                          DeviceRecord (the keys favblue-scan and Export Devices share),
//                                        CSV (RFC 4180) and JSON writers, ExportFormat
//       Ports/                           one protocol a file: repositories, DeviceScanner,
//                                        DeviceConnector, DevicePeripheral, GATTAccess, SensorKeys,
//                                        …; Feed, the stream every port hands out, whose
//                                        consumption can be awaited
//
// Flow: adapters (Bluetooth, Persistence) implement the ports and are injected by the
// composition root. The owners (LiveDevices, Favorites, HiddenDevices, ScanPolicy,
// ChatSessions) hold all state that outlives a page; view models are read-only windows on
// them plus intents. Every owner that reads a feed can be drained (`drain()`), and every
// timer runs on an injected clock, so tests await instead of sleeping.
// This module imports Foundation and Localization only.
