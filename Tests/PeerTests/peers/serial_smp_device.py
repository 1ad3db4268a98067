#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""A board on a serial line for the Device Manager's tests: a pseudo-terminal whose far end
speaks MCUmgr's console framing through PyPI's smp (Apache-2.0), the reference encoder and
decoder, so FavBlue's framing is checked against it. Console output ("uart:~$ ") is mixed in
between frames, as a Zephyr shell on the same line would.

    serial_smp_device.py

Prints "PTY <path>" and "READY", then answers os Echo and MCUmgr parameters (buf_size 512,
buf_count 4) in SMP version 2; anything else gets MCUmgr's "not supported". Lines: ECHO <text>."""

import os
import struct
import sys
import tty

import cbor2
from smp.packet import decode, encode


def say(*words):
    print(*words, flush=True)


def answer(request):
    op, flags, length, group, sequence, command = struct.unpack('>BBHHBB', request[:8])
    body = cbor2.loads(request[8:]) if length else {}
    if group == 0 and command == 0:
        say('ECHO', body.get('d', ''))
        reply = {'r': body.get('d', '')}
    elif group == 0 and command == 6:
        reply = {'buf_size': 512, 'buf_count': 4}
    else:
        reply = {'rc': 8}
    payload = cbor2.dumps(reply)
    return struct.pack('>BBHHBB', (1 << 3) | ((op & 7) + 1), 0, len(payload), group, sequence, command) + payload


def main():
    master, slave = os.openpty()
    tty.setraw(slave)
    say('PTY', os.ttyname(slave))
    say('READY')
    line = b''
    decoder = None
    while True:
        data = os.read(master, 4096)
        if not data:
            return
        for byte in data:
            line += bytes([byte])
            if byte != 0x0A:
                continue
            if decoder is None:
                decoder = decode()
                next(decoder)
            try:
                decoder.send(line)
            except StopIteration as done:
                frame = bytes(done.value)
                decoder = None
                os.write(master, b'uart:~$ \r\n')
                for part in encode(answer(frame)):
                    os.write(master, part)
            except Exception as error:  # a frame FavBlue framed wrongly: said, and the test fails
                say('BAD', error)
                decoder = None
            line = b''


if __name__ == '__main__':
    try:
        main()
    except (KeyboardInterrupt, OSError):
        sys.exit(0)
