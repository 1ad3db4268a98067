#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""central_peer.py's Original (the same services and advertisement) as a host in a process of its
own, on a controller reached over H4 (central_peer.py --second-transport): Bumble's own GATT
server crossing the same kind of link as FavBlue's. Uses Bumble (Apache-2.0). Prints READY once
it advertises.

    original_server.py TRANSPORT ADDRESS
"""
import asyncio
import sys

from bumble import hci
from bumble.device import Device
from bumble.transport import open_transport

from central_peer import serve_original


async def main(spec, address):
    async with await open_transport(spec) as transport:
        device = Device.with_hci('Original', hci.Address(address), transport.source, transport.sink)
        await serve_original(device)
        print('READY', flush=True)
        await asyncio.get_running_loop().create_future()


if __name__ == '__main__':
    asyncio.run(main(sys.argv[1], sys.argv[2]))
