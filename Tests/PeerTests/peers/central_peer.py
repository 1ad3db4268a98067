#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""A Bumble central on the virtual air of a controller exposed to FavBlue over H4, for the tests
of FavBlue as a peripheral: it scans for FavBlue's advertisements, connects, discovers, reads,
writes, subscribes and pairs, as a phone app does. Uses Bumble (Apache-2.0).

    central_peer.py --transport tcp-server:127.0.0.1:PORT [--legacy] [--original]
                    [--legacy-pairing] [--io yesno|none|display]

--legacy clears LE Extended Advertising from the exposed controller, so FavBlue advertises with
the legacy commands. --original adds "Original" (F0:F1:F2:F3:F4:F8), a Bumble GATT server that
advertises, for FavBlue to connect to and clone. --legacy-pairing makes the central one that cannot
do Secure Connections; --io sets its IO capability (yesno by default; display prints PASSKEY <code>
for FavBlue's user to type).

--second-transport SPEC exposes a second controller on the same air over H4, for a host in a
process of its own (original_server.py serves the Original there).

--centrals 2 adds a second central (F0:F1:F2:F3:F4:FA) on the same air: a command that starts with
"2 " is its own, and so is every line it prints, which starts with "2 ".

It reads commands on stdin, one a line, and prints what happens (READY when it starts):
  SCAN / STOPSCAN             ADV <address> <legacy|extended> <connectable 0|1> <hex data>, each distinct once
  CONNECT <address>           CONNECTED <address> (random address type), or FAILED <why>
  MTU <n>                     MTU <agreed>
  DUMP                        DUMP <json: every attribute as [handle, type, properties or null]>
  READ <uuid> / READH <h>     VALUE <uuid> <hex>, or ERROR <uuid> <ATT error code>
  WRITE <uuid> <hex> [cmd]    WROTE <uuid>, or ERROR <uuid> <code>
  SUBSCRIBE <uuid> [indicate] SUBSCRIBED <uuid>; then NOTIFIED <uuid> <hex> for each value
  LOUD                        from the next CONNECT on, INDICATED <handle> <hex> for every indication
  LISTEN <handle>             LISTENING <handle>; then HEARD <handle> <hex> for each notification there,
                              with no configuration written
  COUNT <uuid>                COUNTING <uuid>: counts notifications silently; TOTAL <uuid> <n> <first> <last> on
                              TOTAL <uuid>, the first and last arrival in µs of CLOCK_MONOTONIC (0 before any)
  WATCH <hex> / UNWATCH       SEEN <address> <µs of CLOCK_MONOTONIC> for every report whose data holds <hex>
  RAWREAD <handle>            RESPONSE <hex of the ATT response or error>, for a request by hand
  PAIR                        COMPARE <number> (answered yes) or PASSKEY <code>, then PAIRED or PAIRFAIL <reason>
  ENCRYPT                     ENCRYPTED or ENCRYPTFAIL <reason>
  DISCONNECT                  DISCONNECTED
  CYCLE <address> <n>         connects and drops n times; CYCLED <n>
"""

import argparse
import asyncio
import json
import logging
import sys
import time

from bumble import att, hci
from bumble.controller import Controller
from bumble.device import Device, DeviceConfiguration, Peer
from bumble.gatt import Characteristic, Descriptor, Service
from bumble.host import Host
from bumble.keys import MemoryKeyStore
from bumble.link import LocalLink
from bumble.pairing import PairingConfig, PairingDelegate
from bumble.transport import open_transport

from spec_controller import keep_to_the_spec
from unformatted import unformatted

CENTRAL = 'F0:F1:F2:F3:F4:F9'
CENTRALS = [CENTRAL, 'F0:F1:F2:F3:F4:FA']
ORIGINAL = 'F0:F1:F2:F3:F4:F8'


def say(*words):
    print(*words, flush=True)


class Delegate(PairingDelegate):
    IO = {'yesno': PairingDelegate.DISPLAY_OUTPUT_AND_YES_NO_INPUT, 'none': PairingDelegate.NO_OUTPUT_NO_INPUT,
          'display': PairingDelegate.DISPLAY_OUTPUT_ONLY}

    def __init__(self, io='yesno'):
        super().__init__(io_capability=self.IO[io])

    async def display_number(self, number, digits):
        say('PASSKEY', f'{number:0{digits}d}')

    async def compare_numbers(self, number, digits):
        say('COMPARE', f'{number:0{digits}d}')
        return True

    async def confirm(self, auto=False):
        return True


def uuid_text(uuid):
    return uuid.to_hex_str('-').upper()


async def original_device(link):
    """A small GATT server with one of each kind of characteristic, to be cloned."""
    host = Host()
    host.controller = Controller('ORIGINAL', link=link)
    config = DeviceConfiguration()
    config.name = 'Original'
    config.address = hci.Address(ORIGINAL)
    device = Device(config=config, host=host)
    await serve_original(device)
    return device


async def serve_original(device):
    """The Original's services and advertisement, on a device of its own (original_server.py
    runs the same over H4, in a process of its own)."""
    P = Characteristic.Properties
    readable, writeable = Characteristic.READABLE, Characteristic.WRITEABLE
    device.add_services([
        Service('180F', [Characteristic('2A19', P.READ | P.NOTIFY, readable, bytes([64]))]),
        Service('5E7F2000-1C2B-4A5D-8E9F-0A1B2C3D4E5F', [
            Characteristic('5E7F2001-1C2B-4A5D-8E9F-0A1B2C3D4E5F', P.READ | P.WRITE, readable | writeable, b'clone me',
                           descriptors=[Descriptor('2901', readable, b'Label')]),
            Characteristic('5E7F2002-1C2B-4A5D-8E9F-0A1B2C3D4E5F', P.INDICATE, readable, b''),
            Characteristic('5E7F2003-1C2B-4A5D-8E9F-0A1B2C3D4E5F', P.READ, readable, bytes(range(200))),
        ]),
    ])
    await device.power_on()
    device.advertising_data = bytes([2, 0x01, 0x06, 9, 0x09]) + b'Original' + bytes([3, 0x03, 0x0F, 0x18])
    await device.start_advertising(auto_restart=True)


async def main(args):
    unformatted()
    link = LocalLink()
    transport = await open_transport(args.transport)
    exposed = Controller('FAVBLUE', host_source=transport.source, host_sink=transport.sink, link=link,
                         public_address='00:1B:DC:00:00:05')
    keep_to_the_spec(exposed)
    if args.legacy:
        exposed.le_features &= ~hci.LeFeatureMask.LE_EXTENDED_ADVERTISING
    if args.original:
        await original_device(link)
    if args.second_transport:
        # A second controller on the same air, for a host in another process (original_server.py).
        second = await open_transport(args.second_transport)
        keep_to_the_spec(Controller('SECOND', host_source=second.source, host_sink=second.sink, link=link,
                                    public_address='00:1B:DC:00:00:06'))

    async def start_central(index):
        """One central on the air: its own controller, device, state and output tag ('' or '2 ')."""
        tag = '' if index == 1 else f'{index} '
        address = CENTRALS[index - 1]
        host = Host()
        host.controller = Controller(f'CENTRAL{index}', link=link)
        config = DeviceConfiguration()
        config.name = 'Central' if index == 1 else f'Central {index}'
        config.address = hci.Address(address)
        device = Device(config=config, host=host)
        device.keystore = MemoryKeyStore()
        # --legacy-pairing: a central from before Secure Connections (LE legacy pairing only).
        device.pairing_config_factory = lambda connection: PairingConfig(
            sc=not args.legacy_pairing, mitm=args.io != 'none', bonding=True, delegate=Delegate(args.io))
        await device.power_on()
        device.random_address = hci.Address(address)
        return make_runner(device, tag)

    def make_runner(device, tag):
        def out(*words):
            say(*([tag.strip()] if tag else []), *words)
        seen = set()
        counts = {}
        arrivals = {}
        watching = {'hex': None}
        state = {'connection': None, 'peer': None}

        def on_advertisement(adv):
            kind = 'legacy' if adv.is_legacy else 'extended'
            line = f'ADV {adv.address.to_string(False)} {kind} {int(adv.is_connectable)} {adv.data_bytes.hex()}'
            if line not in seen:
                seen.add(line)
                out(line)
            if watching['hex'] and watching['hex'] in adv.data_bytes.hex():
                out('SEEN', adv.address.to_string(False), time.monotonic_ns() // 1000)

        device.on('advertisement', on_advertisement)

        async def characteristic(uuid):
            peer = state['peer']
            if not peer.services:
                await peer.discover_services()
                for service in peer.services:
                    await service.discover_characteristics()
            found = [c for s in peer.services for c in s.characteristics if uuid_text(c.uuid) == uuid.upper()]
            if not found:
                raise KeyError(uuid)
            return found[0]

        async def connect(address):
            connection = await device.connect(hci.Address(address, hci.Address.RANDOM_DEVICE_ADDRESS), timeout=10)
            connection.on('disconnection', lambda reason: out('DISCONNECTED', reason))
            state['connection'] = connection
            state['peer'] = Peer(connection)
            if state.get('loud'):
                # Every indication, subscribed to on this link or not (one held from a bonded link).
                client = connection.gatt_client
                original = client.on_att_handle_value_indication

                def told(indication, original=original):
                    out('INDICATED', indication.attribute_handle, bytes(indication.attribute_value).hex())
                    original(indication)
                client.on_att_handle_value_indication = told
            return connection

        async def run(words):
            command = words[0]
            try:
                if command == 'SCAN':
                    seen.clear()
                    await device.start_scanning(active=True, filter_duplicates=False)
                    out('SCANNING')
                elif command == 'STOPSCAN':
                    await device.stop_scanning()
                    out('STOPPED')
                elif command == 'CONNECT':
                    await connect(words[1])
                    out('CONNECTED', words[1])
                elif command == 'MTU':
                    out('MTU', await state['peer'].request_mtu(int(words[1])))
                elif command == 'DUMP':
                    peer = state['peer']
                    await peer.discover_services()
                    table = []
                    for service in peer.services:
                        table.append([service.handle, '2800', uuid_text(service.uuid)])
                        await service.discover_characteristics()
                        for c in service.characteristics:
                            # Bumble's proxy holds the value's handle; the declaration is the one before (Vol 3, Part G, §3.3).
                            table.append([c.handle - 1, '2803', int(c.properties)])
                            table.append([c.handle, uuid_text(c.uuid), None])
                            await peer.discover_descriptors(c)
                            for d in c.descriptors:
                                table.append([d.handle, uuid_text(d.type), None])
                    out('DUMP', json.dumps(table))
                elif command == 'READ':
                    value = await (await characteristic(words[1])).read_value()
                    out('VALUE', words[1], bytes(value).hex())
                elif command == 'READH':
                    value = await state['connection'].gatt_client.read_value(int(words[1]))
                    out('VALUE', words[1], bytes(value).hex())
                elif command == 'WRITE':
                    await (await characteristic(words[1])).write_value(bytes.fromhex(words[2]), with_response=len(words) < 4)
                    out('WROTE', words[1])
                elif command == 'SUBSCRIBE':
                    uuid = words[1]
                    await (await characteristic(uuid)).subscribe(lambda value, u=uuid: out('NOTIFIED', u, bytes(value).hex()),
                                                         prefer_notify=len(words) < 3)
                    out('SUBSCRIBED', uuid)
                elif command == 'LOUD':
                    state['loud'] = True
                    out('LOUD')
                elif command == 'LISTEN':
                    # Takes notifications at a handle without writing its configuration: a bonded
                    # central back on a new link, subscribed since its last one.
                    handle = int(words[1])
                    state['connection'].gatt_client.notification_subscribers.setdefault(handle, set()).add(
                        lambda value, h=handle: out('HEARD', h, bytes(value).hex()))
                    out('LISTENING', handle)
                elif command == 'COUNT':
                    uuid = words[1]
                    counts[uuid] = 0
                    arrivals[uuid] = [0, 0]

                    def count(value, u=uuid):
                        counts[u] += 1
                        now = time.monotonic_ns() // 1000
                        arrivals[u][1] = now
                        if not arrivals[u][0]:
                            arrivals[u][0] = now
                    await (await characteristic(uuid)).subscribe(count)
                    out('COUNTING', uuid)
                elif command == 'TOTAL':
                    out('TOTAL', words[1], counts.get(words[1], 0), *arrivals.get(words[1], [0, 0]))
                elif command == 'WATCH':
                    watching['hex'] = words[1].lower()
                    out('WATCHING')
                elif command == 'UNWATCH':
                    watching['hex'] = None
                    out('UNWATCHED')
                elif command == 'RAWREAD':
                    response = await state['connection'].gatt_client.send_request(att.ATT_Read_Request(attribute_handle=int(words[1])))
                    out('RESPONSE', bytes(response).hex())
                elif command == 'PAIR':
                    await state['connection'].pair()
                    out('PAIRED')
                elif command == 'ENCRYPT':
                    await state['connection'].encrypt()
                    out('ENCRYPTED')
                elif command == 'DISCONNECT':
                    await state['connection'].disconnect()
                elif command == 'CYCLE':
                    for _ in range(int(words[2])):
                        connection = await device.connect(hci.Address(words[1], hci.Address.RANDOM_DEVICE_ADDRESS), timeout=10)
                        await connection.disconnect()
                    out('CYCLED', words[2])
                else:
                    out('UNKNOWN', command)
            except att.ATT_Error as error:
                out('ERROR', words[1] if len(words) > 1 else '-', f'{error.error_code:02x}')
            except Exception as error:  # what a test waits on is said, whatever failed
                out('FAILED' if command == 'CONNECT' else 'PAIRFAIL' if command == 'PAIR' else 'ENCRYPTFAIL' if command == 'ENCRYPT' else 'EXCEPTION',
                    command, repr(error).replace('\n', ' '))

        return run

    runners = [await start_central(i) for i in range(1, args.centrals + 1)]

    say('READY')
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    while line := await reader.readline():
        words = line.decode().split()
        # "2 CONNECT …" goes to the second central; anything else to the first.
        if words and words[0].isdigit() and 1 <= int(words[0]) <= len(runners):
            runner, words = runners[int(words[0]) - 1], words[1:]
        else:
            runner = runners[0]
        if words:
            # Each central's command runs on its own, so one that waits does not hold the other.
            asyncio.get_running_loop().create_task(runner(words)) if args.centrals > 1 else await runner(words)


if __name__ == '__main__':
    logging.basicConfig(level=logging.WARNING)
    parser = argparse.ArgumentParser()
    parser.add_argument('--transport', required=True)
    parser.add_argument('--legacy', action='store_true')
    parser.add_argument('--legacy-pairing', action='store_true')
    parser.add_argument('--centrals', type=int, choices=[1, 2], default=1)
    parser.add_argument('--io', choices=list(Delegate.IO), default='yesno')
    parser.add_argument('--original', action='store_true')
    parser.add_argument('--second-transport')
    asyncio.run(main(parser.parse_args()))
