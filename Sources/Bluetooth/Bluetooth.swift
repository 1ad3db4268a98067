// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

// # Bluetooth
//
// Two routes to the radio: FavBlue's own HCI host, and BlueZ over D-Bus.
//
//     Bluetooth/
//       Codec/      ByteReader, HCICommand, HCIEvent, reports, AD/EIR parser   (pure, never trap);
//                   BluetoothUUID's names and the GATT declaration types
//       Names/      company names (libbluetooth), service names (data/)
//       Btsnoop/    capture reader (streams files in chunks) and writer (datalinks 1001, 1002, 2001);
//                   BtsnoopRecorder, the app's switchable ScanRecorder every scanner writes into
//       Transport/  H4 over unix/TCP/serial, raw HCI sockets (libbluetooth)
//       Host/       HCIHost: owns one transport and its read thread, sends commands and matches
//                   their Command Complete/Status, records to btsnoop, and hands every other
//                   event to its clients (HCIHostClient) and each link's data to the link's maker;
//                   HCILink (one controller the clients share); HCIEventQueue; ScanPause, which
//                   has the scanner turn LE scanning off for a moment
//       Link/       LELink: one LE connection in either role (outbox, the ATT bearer FavBlue's
//                   client and server share, the pairing run); LinkTable (the host's links by
//                   handle: ACL reassembled once, frames to the maker, buffers given back);
//                   ACLOutbox (LE buffer credits), ATTBearer (one request at a time);
//                   LEController (buffers, features and the one random address, read once for
//                   both roles)
//       Scanner/    HCIScanner (a live controller; the host's first client), ReplayScanner
//                   (a capture), ObservationDecoder (the one path from event to observation,
//                   for both), RemoteNameBook, DeviceAggregate
//       Connection/ HCIConnector (the host's second client; implements Domain's DeviceConnector):
//                   makes a link by LE Create Connection where the device is heard now (Domain's
//                   HeardAddresses), following it when it moves meanwhile, or by identity through
//                   the controller's resolving list; GATTClient (discovery, subscribe),
//                   ConnectionStreams
//       Server/     HCIPeripheral (the host's third client; Domain's DevicePeripheral): makes links
//                   by advertising (advertising sets), pairing as the responder; LocalAttributes (FavBlue's own
//                   attribute database per controller: GAP, GATT and the setup served, which every
//                   link answers from, whatever its role), AttributeDatabase (the setup laid out as
//                   the GATTTree the client fills, and the attributes laid out from it), ATTServer (one
//                   bearer's server side: every request checked, answered in ATTPDU types)
//       Security/   HCIPairer; the Security Manager: SMPSession (one pairing in either role, the
//                   initiator's and the responder's steps written once) and PairingRun (what its
//                   driver keeps beside it, and the SMP timer both roles share); HCIKeyring (the bonds as
//                   the radio's threads read them), HCIResolvingList (the controller's list, kept
//                   in step with the bonds)
//       Demo/       the `demo` source: DemoScanner (the shipped capture plus DemoChatDevice's
//                   advertisements), DemoChatConnector (connects to the chat device and DemoBoard,
//                   an MCUmgr board; they answer), DemoSensors, DemoGateway (the kitchen),
//                   DemoTracker, DemoPeripheral (an adapter and a phone for Act as a Device),
//                   DemoFavorites (the favorites the demo starts with, never the user's)
//       Codec/ also  ACL, L2CAP (signalling, SMP answers), ATT (every PDU of the Core, both ways,
//                    ATTPDU and ATTErrorCode), GATT declarations, LinkEvent
//       BlueZ/      the D-Bus route (CGio, no GTK): DBusConnection (a private connection whose
//                   GMainContext runs on its own thread), DBusValue, DBusError; BlueZBus (one
//                   connection, one signal subscription and BlueZ's object tree, shared by its
//                   clients); BlueZScanner (discovery, Device1 → observations, adapter states),
//                   BlueZConnector (Device1.Connect, GattCharacteristic1 chat), BlueZAliasWriter
//       Routes/     ScannerFactory, ConnectorFactory, PairerFactory and PeripheralFactory (source →
//                   scanner, connector, pairer, peripheral; raw hciN and replays refuse to connect),
//                   AutoScanner (`auto`: BlueZ, else raw sockets), MultiScanner (several sources);
//                   `mqtt://` sources are HomeServices' (its Brokers.install() tells ScannerFactory)
//
// MQTT gateways, Home Assistant, the keyrings and NetworkManager's places are not Bluetooth:
// they are the HomeServices target's.
//
// Threads: the host reads on its own thread and calls its clients there; the scanner runs its
// session on another and blocks there on commands until the host hands over the answer; the
// connector does the same on a serial queue, while ACL is decoded and answered on the read thread.
// On the BlueZ route, GDBus runs on the connection's thread; its signals reach the bus's clients
// on one task, in order, and their requests are async calls queued one at a time.
//
// In: a ScanSource. Out: Domain Observations and ScannerState through the
// DeviceScanner port, as AsyncStreams fed from a background thread. Malformed
// input becomes a typed error and is skipped; the stream goes on.

import Domain
