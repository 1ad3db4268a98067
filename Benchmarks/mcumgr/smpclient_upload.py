#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""The reference client's upload, for the benchmark: PyPI's smpclient (Apache-2.0) with its
Bumble transport, through the same H4 controller FavBlue drives, to the same fake board.

    smpclient_upload.py PORT ADDRESS IMAGE

Prints "sent N bytes in S s" on standard error, timed as FavBlue times its own: from the
upload's first request to the device's answer to its last part."""
import asyncio
import sys
import time

from smpclient import SMPClient
from smpclient.transport.bumble import SMPBumbleTransport


async def main(port, address, path):
    image = open(path, "rb").read()
    client = SMPClient(SMPBumbleTransport(hci=f"tcp-client:127.0.0.1:{port}"), address, timeout_s=10)
    await client.connect(connect_timeout_s=30)
    start = time.monotonic()
    last = 0
    async for offset in client.upload(image, use_sha=False):
        last = offset
    took = time.monotonic() - start
    assert last == len(image), f"the upload ended at {last} of {len(image)}"
    print(f"sent {len(image)} bytes in {took:.3f} s ({len(image) / took / 1000:.1f} kB/s)", file=sys.stderr, flush=True)
    await client.disconnect()


asyncio.run(main(int(sys.argv[1]), sys.argv[2], sys.argv[3]))
