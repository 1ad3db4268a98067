#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""bluetoothd's stand-in on a private bus, for screenshots and trying the BlueZ route by hand:
python-dbusmock's bluez5 template with an adapter and a few devices.

    meson-helpers/bluez-mock.py [--off | --blocked]

Prints DBUS_SYSTEM_BUS_ADDRESS=… for FavBlue, then runs until stdin closes or it is killed."""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "ui"))
from bluez import ADAPTER, DEVICE, MockBlueZ  # noqa: E402

import dbus  # noqa: E402

DEVICES = [
    ("C0:98:E5:49:00:01", "Pixel 8", -48, {0x00E0: [0x01, 0x02]}),
    ("F4:12:FA:3C:81:0B", "Kitchen Speaker", -63, {0x0075: [0x42, 0x04]}),
    ("D8:3A:DD:11:22:33", "Polar H10", -71, {0x006B: [0x00]}),
    ("E1:C9:1A:7B:00:5D", "Tile Mate", -82, {}),
]


def main():
    parser = argparse.ArgumentParser()
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--off", action="store_true", help="the adapter is switched off")
    group.add_argument("--blocked", action="store_true", help="the adapter is blocked (airplane mode, rfkill)")
    args = parser.parse_args()
    bluez = MockBlueZ()
    try:
        adapter = bluez.add_adapter()
        for address, name, rssi, data in DEVICES:
            path = bluez.add_device(address, name)
            bluez.set(path, DEVICE, "RSSI", dbus.Int16(rssi))
            if data:
                bluez.set(path, DEVICE, "ManufacturerData",
                          dbus.Dictionary({dbus.UInt16(k): dbus.Array(v, signature="y") for k, v in data.items()},
                                          signature="qv"))
        if args.blocked:
            bluez.obj(adapter).AddProperty(ADAPTER, "PowerState", "off-blocked",
                                           dbus_interface="org.freedesktop.DBus.Mock")
        if args.off or args.blocked:
            bluez.set(adapter, ADAPTER, "Powered", False)
        print(f"DBUS_SYSTEM_BUS_ADDRESS={bluez.address}", flush=True)
        sys.stdin.read()
    finally:
        bluez.stop()


if __name__ == "__main__":
    main()
