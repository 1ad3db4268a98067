// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

// # Bluetooth
//
// FavBlue's own HCI host, enough to find devices:
//
//     Bluetooth/
//       Codec/      ByteReader, HCICommand, HCIEvent, reports, AD/EIR parser   (pure, never trap)
//       Names/      company names (libbluetooth), service names (data/)
//       Btsnoop/    capture reader and writer (datalinks 1001, 1002, 2001)
//       Transport/  H4 over unix/TCP/serial, raw HCI sockets (libbluetooth)
//       Scanner/    HCIScanner (a live controller), ReplayScanner (a capture),
//                   ScannerFactory (source string → DeviceScanner), DeviceAggregate
//
// In: a ScanSource. Out: Domain Observations and ScannerState through the
// DeviceScanner port, as AsyncStreams fed from a background thread. Malformed
// input becomes a typed error and is skipped; the stream goes on.

import Domain
