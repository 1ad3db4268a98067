#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""Virtual LE devices for FavBlue's tests and demo capture.

One Bumble controller is exposed over H4 (TRANSPORT: tcp-server:HOST:PORT,
unix-server:PATH or pty:PATH) for FavBlue to drive; the others share its virtual
radio link and advertise like real devices. Prints "ready" once advertising.

A line "silent N" on stdin makes device N (from 0) stop advertising while it
stays on the link, as a device that falls silent does; "silent N" is printed back.

With --trackers the devices advertise as trackers away from their owners instead: an
AirTag (Apple's Find My frame with a full key), a SmartTag (service data 0xFD5A, offline)
and a Tile (service data 0xFEED), nameless, as real tags are.

With --sensors they advertise as home sensors do: "Living Room", BTHome v2 (21.40 °C, 48.00 %,
battery 81 %); "Freezer", BTHome v2 encrypted with SENSOR_KEY (−18.50 °C); and a Govee
H5075 (−4.5 °C, 52.3 %, battery 64 %).

    le_peers.py TRANSPORT [--legacy-reports] [--extended] [--count N] [--prefix NAME] [--trackers] [--sensors]
"""
import argparse
import asyncio
import signal
import sys

from bumble import data_types, hci
from bumble.controller import Controller
from bumble.core import UUID, AdvertisingData
from bumble.device import AdvertisingEventProperties, AdvertisingParameters, Device
from bumble.host import Host
from bumble.link import LocalLink
from bumble.transport import open_transport
from bumble.transport.common import AsyncPipeSink

# (name, 16-bit services, company id, appearance) of realistic devices.
PROFILES = [
    ("Pixel Buds Pro", [0xFE2C], 0x00E0, 0x0941),
    ("Kitchen Speaker", [0x110B], 0x0059, 0x0841),
    ("Heart Strap", [0x180D, 0x180F], 0x006B, 0x0341),
    ("Thermo GVH5075", [0x181A], 0xEC88, 0x0300),
    ("Mi Band 7", [0xFEE0, 0x180F], 0x0157, 0x00C1),
    ("Desk Lamp", [0xFE0F], 0x0075, 0x0000),
    ("Keyboard K380", [0x1812], 0x0046, 0x03C1),
    ("Tile Mate", [0xFEED], 0x00B3, 0x0000),
]


# Raw advertising data of tags away from their owners, as they send it.
TRACKERS = [
    # AirTag: company 0x004C, Find My type 0x12, length 0x19 (a full key: separated), status 0x10.
    bytes([30, 0xFF, 0x4C, 0x00, 0x12, 0x19, 0x10]) + bytes(range(1, 23)) + bytes([0x00, 0x00]),
    # SmartTag: service data 0xFD5A, state 010 (offline), aging counter 0x000105, battery full.
    bytes([16, 0x16, 0x5A, 0xFD, 0x12, 0x05, 0x01, 0x00]) + bytes(8) + bytes([0x03]),
    # Tile: service data 0xFEED.
    bytes([2, 0x01, 0x06, 12, 0x16, 0xED, 0xFE, 0x02, 0x00]) + bytes([0x11] * 7),
]


# The Freezer's bindkey; the UI tests type it in as a user would.
SENSOR_KEY = bytes.fromhex("231d39c1d7cc1ab1aee224cd096db932")


def named(name):
    raw = name.encode()
    return bytes([len(raw) + 1, 0x09]) + raw


def sensor_data(index, address):
    """Raw advertising data of a home sensor (see --sensors)."""
    flags = bytes([2, 0x01, 0x06])
    if index % 3 == 0:
        # BTHome v2: battery 81 %, temperature 21.40 °C, humidity 48.00 %.
        body = bytes.fromhex("d2fc" "40" "0151" "025c08" "03c012")
        return flags + bytes([len(body) + 1, 0x16]) + body + named("Living Room")
    if index % 3 == 1:
        # BTHome v2 encrypted (bthome.io/encryption): temperature −18.50 °C, AES-CCM with SENSOR_KEY.
        from cryptography.hazmat.primitives.ciphers.aead import AESCCM
        counter = bytes([0, 0, 0, 1])
        mac = bytes(int(p, 16) for p in address.split(":"))
        sealed = AESCCM(SENSOR_KEY, tag_length=4).encrypt(mac + bytes([0xD2, 0xFC, 0x41]) + counter,
                                                           bytes.fromhex("02c6f8"), None)
        body = bytes([0xD2, 0xFC, 0x41]) + sealed[:-4] + counter + sealed[-4:]
        return flags + bytes([len(body) + 1, 0x16]) + body + named("Freezer")
    # Govee H5075: company 0xEC88, −4.5 °C and 52.3 % packed, battery 64 %.
    body = bytes.fromhex("88ec" "0080b1d34000")
    return flags + bytes([len(body) + 1, 0xFF]) + body + named("GVH5075_1A2B")


def advertising_data(name, services, company, tx_power, appearance, extended):
    """Advertising data and scan response; legacy advertising keeps each within 31 bytes."""
    structures = [
        data_types.Flags(AdvertisingData.Flags.LE_GENERAL_DISCOVERABLE_MODE
                         | AdvertisingData.Flags.BR_EDR_NOT_SUPPORTED),
        data_types.CompleteLocalName(name),
        data_types.CompleteListOf16BitServiceUUIDs([UUID.from_16_bits(s) for s in services]),
        data_types.TxPowerLevel(tx_power),
    ]
    maker = data_types.ManufacturerSpecificData(company, bytes([1, 2]))
    response = []
    if appearance:
        response.append(data_types.Appearance(appearance >> 6, appearance & 0x3F))
    if extended:
        # A 128-bit vendor service, as many gadgets list, takes the data past 31 bytes.
        structures += [maker] + response + [
            data_types.CompleteListOf128BitServiceUUIDs([UUID("6E400001-B5A3-F393-E0A9-E50E24DCCA9E")])]
        response = []
    elif len(bytes(AdvertisingData(structures + [maker]))) <= 31:
        structures.append(maker)
    else:
        response.insert(0, maker)
    return bytes(AdvertisingData(structures)), bytes(AdvertisingData(response))


async def main(args):
    link = LocalLink()
    transport = await open_transport(args.transport)
    scanner = Controller("FAVBLUE", host_source=transport.source, host_sink=transport.sink,
                         link=link, public_address="00:1B:DC:00:00:01")
    if args.legacy_reports:
        scanner.le_features &= ~hci.LeFeatureMask.LE_EXTENDED_ADVERTISING
    devices = []
    for i in range(args.count):
        name, services, company, appearance = PROFILES[i % len(PROFILES)]
        if i >= len(PROFILES) or args.prefix:
            name = f"{args.prefix or name} {i + 1}"
        controller = Controller(f"PEER{i}", link=link, public_address=f"00:1B:DC:00:01:{i + 1:02X}")
        device = Device(address=hci.Address(f"C0:98:E5:49:{(i >> 8) & 0xFF:02X}:{i & 0xFF:02X}"),
                        host=Host(controller, AsyncPipeSink(controller)))
        device.name = name
        await device.power_on()
        data, response = advertising_data(name, services, company, -8 - i % 10, appearance, args.extended)
        if args.trackers:
            data, response = TRACKERS[i % len(TRACKERS)], b""
        if args.sensors:
            data, response = sensor_data(i, f"C0:98:E5:49:{(i >> 8) & 0xFF:02X}:{i & 0xFF:02X}"), b""
        if args.extended:
            await device.create_advertising_set(
                advertising_parameters=AdvertisingParameters(
                    advertising_event_properties=AdvertisingEventProperties(
                        is_connectable=True, is_scannable=False, is_legacy=False),
                    primary_advertising_interval_min=100, primary_advertising_interval_max=100),
                advertising_data=data)
        else:
            await device.start_advertising(advertising_data=data, scan_response_data=response,
                                           advertising_interval_min=100,
                                           advertising_interval_max=100, auto_restart=True)
        devices.append(device)
    print("ready", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)

    async def silence(index):
        device = devices[index]
        if args.extended:
            for advertising_set in list(device.extended_advertising_sets.values()):
                await advertising_set.stop()
        else:
            await device.stop_advertising()
        print(f"silent {index}", flush=True)

    def command():
        line = sys.stdin.readline()
        if not line:
            # stdin closed (not a pipe, or the test is done): keep advertising.
            loop.remove_reader(sys.stdin.fileno())
            return
        words = line.split()
        if len(words) == 2 and words[0] == "silent" and words[1].isdigit() and int(words[1]) < len(devices):
            loop.create_task(silence(int(words[1])))

    try:
        loop.add_reader(sys.stdin.fileno(), command)
    except (OSError, ValueError):
        pass  # stdin is a file or /dev/null, which epoll cannot watch: no commands then
    await stop.wait()
    await transport.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("transport")
    parser.add_argument("--legacy-reports", action="store_true")
    parser.add_argument("--extended", action="store_true")
    parser.add_argument("--count", type=int, default=3)
    parser.add_argument("--prefix", default="")
    parser.add_argument("--trackers", action="store_true")
    parser.add_argument("--sensors", action="store_true")
    asyncio.run(main(parser.parse_args()))
