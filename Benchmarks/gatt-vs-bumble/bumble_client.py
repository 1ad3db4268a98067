#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""Bumble's own GATT client doing what `favblue-scan gatt ADDRESS --read` does: connect over
the same H4 controller, discover every service, characteristic and descriptor, read every
readable value, disconnect. Says "connected" and "discovered and read" on stderr as it gets
there, for the benchmark's split.

    bumble_client.py TRANSPORT ADDRESS
"""
import asyncio
import sys

from bumble import hci
from bumble.device import Device, Peer
from bumble.gatt import Characteristic
from bumble.transport import open_transport


async def main(spec, address):
    async with await open_transport(spec) as transport:
        device = Device.with_hci("Bumble client", hci.Address("00:1B:DC:00:00:09"), transport.source, transport.sink)
        await device.power_on()
        connection = await device.connect(hci.Address(address, hci.Address.RANDOM_DEVICE_ADDRESS))
        print("connected", file=sys.stderr, flush=True)
        peer = Peer(connection)
        await peer.discover_services()
        read = 0
        for service in peer.services:
            await service.discover_characteristics()
            for characteristic in service.characteristics:
                await characteristic.discover_descriptors()
                if characteristic.properties & Characteristic.Properties.READ:
                    try:
                        await characteristic.read_value()
                        read += 1
                    except Exception:  # a value the peer refuses counts as read, as FavBlue's does
                        read += 1
        print("discovered and read", file=sys.stderr, flush=True)
        await connection.disconnect()
        print(f"services {len(peer.services)} read {read}")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))
