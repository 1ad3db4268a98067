#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""Writes the decoder benchmarks' room as a btsnoop capture (datalink 1002, H4): REPORTS legacy
LE Advertising Report events over 5,000 devices, each with flags, a name, a 16-bit service and
manufacturer data, the signal varying, 2,000 a second. The same bytes every time, so an
instruction count over it repeats. BluetoothBench builds the same room in memory.

    room.py OUT [REPORTS]
"""
import struct
import sys

DEVICES = 5000
# Microseconds from 0 AD to 1970, as btsnoop counts.
EPOCH = 0x00DCDDB30F2F8000
START_US = 1_700_000_000 * 1_000_000


def event(n, rssi):
    name = f"Dev {n}".encode()
    ad = bytes([0x02, 0x01, 0x06, len(name) + 1, 0x09]) + name + bytes([0x03, 0x03, 0x0F, 0x18, 0x05, 0xFF, 0x4C, 0x00, 0x01, 0])
    address = bytes([n & 0xFF, (n >> 8) & 0xFF, 0x33, 0x44, 0x55, 0xC6])
    body = bytes([0x02, 0x01, 0x00, 0x01]) + address + bytes([len(ad)]) + ad + struct.pack("b", rssi)
    return bytes([0x3E, len(body)]) + body


def main():
    out, reports = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 1_000_000
    with open(out, "wb") as f:
        f.write(b"btsnoop\0" + struct.pack(">II", 1, 1002))
        records = []
        for i in range(reports):
            packet = b"\x04" + event(i % DEVICES, -40 - i % 50)
            stamp = START_US + i * 500 + EPOCH
            records.append(struct.pack(">IIIIQ", len(packet), len(packet), 3, 0, stamp) + packet)
            if len(records) == 10_000:
                f.write(b"".join(records))
                records.clear()
        f.write(b"".join(records))


if __name__ == "__main__":
    main()
