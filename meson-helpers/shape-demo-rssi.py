#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""Gives each device of a recorded demo capture its own signal strength.

Bumble's emulated radio reports every advertisement at -50 dBm, which makes a
dull demo: nothing to sort by, a flat history. This rewrites the RSSI byte of
each LE advertising report in place (btsnoop, H4 datalink 1002): a level per
device between -45 and -90 dBm, drifting slowly, plus a little noise. Nothing
else in the capture changes.

    shape-demo-rssi.py CAPTURE
"""
import math
import random
import struct
import sys
import zlib


def level(address, seconds, rng):
    seed = zlib.crc32(address)
    base = -45 - seed % 46
    phase = (seed % 97) / 97 * 2 * math.pi
    value = base + 5 * math.sin(seconds / 6 + phase) + rng.randint(-2, 2)
    return max(-100, min(-30, round(value)))


def shape(path):
    rng = random.Random(20261122)
    with open(path, "rb") as f:
        data = bytearray(f.read())
    if data[:8] != b"btsnoop\0" or struct.unpack(">I", data[12:16])[0] != 1002:
        sys.exit(f"{path}: not a btsnoop H4 capture")
    offset, first, changed = 16, None, 0
    while offset + 24 <= len(data):
        included, = struct.unpack(">I", data[offset + 4:offset + 8])
        stamp, = struct.unpack(">q", data[offset + 16:offset + 24])
        packet = offset + 24
        first = stamp if first is None else first
        seconds = (stamp - first) / 1e6
        # H4 event, LE Meta: 0x02 legacy or 0x0D extended advertising reports.
        if included > 5 and data[packet] == 0x04 and data[packet + 1] == 0x3E:
            sub, count, at = data[packet + 3], data[packet + 4], packet + 5
            end = packet + included
            for _ in range(count if sub in (0x02, 0x0D) else 0):
                if sub == 0x0D and at + 24 <= end:
                    address = bytes(data[at + 3:at + 9])
                    data[at + 13] = level(address, seconds, rng) & 0xFF
                    at += 24 + data[at + 23]
                elif sub == 0x02 and at + 9 <= end:
                    address = bytes(data[at + 2:at + 8])
                    length = data[at + 8]
                    data[at + 9 + length] = level(address, seconds, rng) & 0xFF
                    at += 10 + length
                else:
                    break
                changed += 1
        offset = packet + included
    with open(path, "wb") as f:
        f.write(data)
    print(f"{path}: {changed} reports given their own signal")


if __name__ == "__main__":
    shape(sys.argv[1])
