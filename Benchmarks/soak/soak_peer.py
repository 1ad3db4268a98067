#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""Bumble's chat peer (Tests/PeerTests/peers/chat_peer.py, run as it is) with a busy room on
the same virtual air, for Benchmarks/soak/run.py.

FavBlue takes one radio source, so the busy room cannot be a btsnoop replay beside the H4
link to the peer. Instead this adds, on the chat peer's own LocalLink, a crowd of 1,000
advertisers (static random addresses D0:00:00:00:HH:LL, each named "Soak NNNN", flags and
name only) that advertise round-robin: RATE/2 advertising PDUs a second, each of which
Bumble's exposed controller turns into two reports for its host while it scans (the
advertisement and a scan response repeating it), so RATE reports a second reach FavBlue
while it scans. Bumble's reports all carry RSSI −50.

The crowd starts on SIGUSR1 (so the chat peer is easy to find in the Scanner first) and
prints `BUSY STARTED`; then every 10 s `BUSY <pdus> <reports>`: the PDUs put on the air
and the reports the exposed controller passed to FavBlue (counted only while it scanned),
both since the start.

Everything else, the chat service, `RX`/`SENT`/`CONNECTED`/`DISCONNECTED` lines,
--disconnect-after and the other options, is chat_peer.py's own.

    soak_peer.py [--busy-devices N] [--busy-rate REPORTS_PER_S] CHAT_PEER_OPTIONS…
"""
import argparse
import asyncio
import os
import runpy
import signal
import sys

import bumble.link
from bumble import hci, ll
from bumble.core import AdvertisingData

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CHAT_PEER = os.path.join(ROOT, "Tests", "PeerTests", "peers", "chat_peer.py")


def crowd(count):
    """(address, advertising data) of `count` named devices with static random addresses."""
    out = []
    for n in range(count):
        address = hci.Address(f"D0:00:00:00:{(n >> 8) & 0xFF:02X}:{n & 0xFF:02X}", hci.Address.RANDOM_DEVICE_ADDRESS)
        data = bytes(AdvertisingData([
            (AdvertisingData.FLAGS, bytes([0x06])),
            (AdvertisingData.COMPLETE_LOCAL_NAME, f"Soak {n + 1:04d}".encode()),
        ]))
        out.append((address, data))
    return out


async def busy(link, count, rate, started):
    await started.wait()
    devices = crowd(count)
    pdus_per_second = rate / 2          # each PDU gives the scanning host two reports
    tick = 0.02
    loop = asyncio.get_running_loop()
    start = loop.time()
    pdus = reports = 0
    next_print = start + 10
    print("BUSY STARTED", flush=True)
    while True:
        now = loop.time()
        due = int((now - start) * pdus_per_second)
        exposed = next((c for c in link.controllers if c.name == "EXPOSED"), None)
        scanning = bool(exposed and exposed.le_scan_enable)
        while pdus < due:
            address, data = devices[pdus % count]
            link.send_advertising_pdu(None, ll.AdvInd(advertiser_address=address, data=data))
            pdus += 1
            if scanning:
                reports += 2
        if now >= next_print:
            print(f"BUSY {pdus} {reports}", flush=True)
            next_print += 10
        await asyncio.sleep(tick)


def main():
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--busy-devices", type=int, default=1000)
    parser.add_argument("--busy-rate", type=float, default=500)
    args, rest = parser.parse_known_args()

    original = bumble.link.LocalLink

    class SoakLink(original):
        """chat_peer.py's air, with the crowd added once its event loop runs."""

        def __init__(self):
            super().__init__()
            loop = asyncio.get_running_loop()
            started = asyncio.Event()
            loop.add_signal_handler(signal.SIGUSR1, started.set)
            self.crowd_task = loop.create_task(busy(self, args.busy_devices, args.busy_rate, started))

    # chat_peer.py does `from bumble.link import LocalLink` when it runs, so it gets this one.
    bumble.link.LocalLink = SoakLink
    sys.argv = [CHAT_PEER, *rest]
    # Its neighbours (spec_controller) are imported as a script's would be, from its own folder.
    sys.path.insert(0, os.path.dirname(CHAT_PEER))
    runpy.run_path(CHAT_PEER, run_name="__main__")


if __name__ == "__main__":
    main()
