// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

// # DeviceLinks
//
// The Device Manager's links that are not Bluetooth: MCUmgr's SMP over UDP (a datagram a
// message, port 1337) for boards on a network, as mcumgr, smpmgr and AuTerm reach them.
//
//     DeviceLinks/
//       UDPSMPTransport   Domain's SMPTransport over one UDP socket, read on a thread of its own
//
// In: a host and port. Out: SMP messages both ways through the SMPTransport port; Domain's
// SMPClient above does the protocol. This module imports Domain and Localization only.
