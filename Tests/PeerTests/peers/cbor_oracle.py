#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""The oracle for FavBlue's CBOR codec, with PyPI's cbor2 (MIT):

    cbor_oracle.py make N SEED   N random items, each a line "HEX SHAPE": definite and
                                 indefinite lengths (as Zephyr's zcbor writes maps) mixed
    cbor_oracle.py read          for each line of hex on stdin, the SHAPE cbor2 reads

SHAPE names every item the same way on both sides: i:N, b:HEX, t:UTF-8 HEX, [..], {k=v,..}, T, F, N."""

import random
import sys

import cbor2


def shape(item):
    if isinstance(item, bool):
        return "T" if item else "F"
    if item is None:
        return "N"
    if isinstance(item, int):
        return f"i:{item}"
    if isinstance(item, bytes):
        return f"b:{item.hex()}"
    if isinstance(item, str):
        return "t:" + item.encode("utf-8").hex()
    if isinstance(item, list):
        return "[" + ",".join(shape(i) for i in item) + "]"
    if isinstance(item, dict):
        return "{" + ",".join(f"{shape(k)}={shape(v)}" for k, v in item.items()) + "}"
    raise TypeError(type(item))


def _head(major, n):
    m = major << 5
    if n < 24:
        return bytes([m | n])
    for extra, size in ((24, 1), (25, 2), (26, 4), (27, 8)):
        if n < 1 << (8 * size):
            return bytes([m | extra]) + n.to_bytes(size, "big")


def encode(item, rnd):
    """cbor2's own encoding for leaves; containers definite or, now and then, indefinite."""
    if isinstance(item, list):
        body = b"".join(encode(i, rnd) for i in item)
        return (b"\x9f" + body + b"\xff") if rnd.random() < 0.4 else _head(4, len(item)) + body
    if isinstance(item, dict):
        body = b"".join(encode(k, rnd) + encode(v, rnd) for k, v in item.items())
        return (b"\xbf" + body + b"\xff") if rnd.random() < 0.5 else _head(5, len(item)) + body
    if isinstance(item, bytes) and len(item) > 1 and rnd.random() < 0.3:
        cut = rnd.randrange(1, len(item))
        return b"\x5f" + cbor2.dumps(item[:cut]) + cbor2.dumps(item[cut:]) + b"\xff"
    return cbor2.dumps(item)


def random_item(rnd, depth=0):
    kind = rnd.randrange(9 if depth < 4 else 6)
    if kind == 0:
        return rnd.choice([0, 1, 23, 24, 255, 256, 65535, 65536, 2**32 - 1, 2**32, 2**63 - 1, rnd.randrange(2**40)])
    if kind == 1:
        return -rnd.choice([1, 24, 25, 256, 257, 65537, 2**32 + 1, 2**63, rnd.randrange(1, 2**40)])
    if kind == 2:
        return bytes(rnd.randrange(256) for _ in range(rnd.choice([0, 1, 23, 24, 300])))
    if kind == 3:
        return "".join(rnd.choice(["a", "ü", "€", "😀", "\u202e", "\n", "\"", "\\"]) for _ in range(rnd.randrange(30)))
    if kind == 4:
        return rnd.choice([True, False])
    if kind == 5:
        return None
    if kind in (6, 7):
        return [random_item(rnd, depth + 1) for _ in range(rnd.randrange(5))]
    return {f"k{i}" if rnd.random() < 0.8 else i: random_item(rnd, depth + 1) for i in range(rnd.randrange(5))}


if __name__ == "__main__":
    if sys.argv[1] == "make":
        rnd = random.Random(int(sys.argv[3]))
        for _ in range(int(sys.argv[2])):
            encoded = encode(random_item(rnd), rnd)
            print(encoded.hex(), shape(cbor2.loads(encoded)))
    else:
        for line in sys.stdin:
            print(shape(cbor2.loads(bytes.fromhex(line.strip()))))
