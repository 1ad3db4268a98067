# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""Advertisements as a btsnoop capture (H4, datalink 1002) of legacy LE Advertising Reports,
one report per device, so favblue-scan reads exactly what an oracle is given."""

import struct

EPOCH_2023 = 1_700_000_000_000_000 + 0x00DCDDB30F2F8000


def ad(name=None, manufacturer=None, service=None, services=None):
    """The AD structures: flags, listed services (16-bit numbers or 128-bit strings), service
    data (16-bit UUIDs), manufacturer data, a complete name."""
    out = bytes([0x02, 0x01, 0x06])
    short = b"".join(struct.pack("<H", u) for u in services or [] if isinstance(u, int))
    if short:
        out += bytes([len(short) + 1, 0x03]) + short
    for u in (u for u in services or [] if isinstance(u, str)):
        body = bytes.fromhex(u.replace("-", ""))[::-1]
        out += bytes([len(body) + 1, 0x07]) + body
    for uuid, data in (service or {}).items():
        body = struct.pack("<H", uuid) + data
        out += bytes([len(body) + 1, 0x16]) + body
    for company, data in (manufacturer or {}).items():
        body = struct.pack("<H", company) + data
        out += bytes([len(body) + 1, 0xFF]) + body
    if name:
        raw = name.encode()
        out += bytes([len(raw) + 1, 0x09]) + raw
    return out


def address_bytes(address):
    """"AA:BB:CC:DD:EE:FF" as the six bytes an HCI event carries (least significant first)."""
    return bytes(int(part, 16) for part in reversed(address.split(":")))


def write(path, devices):
    """`devices`: (address, AD bytes) pairs; a random (static) address each, one report each, as
    LE Extended Advertising Reports (Core v5.4, Vol 4, Part E, §7.7.65.13), which carry up to
    229 bytes of data: a BTHome frame with many objects outgrows legacy advertising's 31."""
    with open(path, "wb") as f:
        f.write(b"btsnoop\0" + struct.pack(">II", 1, 1002))
        for i, (address, data) in enumerate(devices):
            # Event type 0 (non-connectable, complete), random address, LE 1M, no secondary PHY,
            # no SID, TX power not available, RSSI, no periodic advertising, no direct address.
            report = (struct.pack("<H", 0x0000) + bytes([0x01]) + address_bytes(address) + bytes([0x01, 0x00, 0xFF, 0x7F])
                      + struct.pack("b", -60) + struct.pack("<H", 0) + bytes([0x00]) + bytes(6) + bytes([len(data)]) + data)
            body = bytes([0x0D, 0x01]) + report
            packet = bytes([0x04, 0x3E, len(body)]) + body
            f.write(struct.pack(">IIIIq", len(packet), len(packet), 3, 0, EPOCH_2023 + i * 1000) + packet)
