// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

// # Bluetooth
//
// HCI codec, AD/EIR parser, transports, scanner engine, btsnoop read/write.
// Implements Domain's DeviceScanner. (Filled by the Bluetooth engine work.)

import Domain
