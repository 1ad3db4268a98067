#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""A Zephyr device with MCUmgr's SMP service, played by Bumble (Apache-2.0) on a virtual air
whose other controller FavBlue drives over H4: the Device Manager's test peer.

    smp_device.py --transport tcp-server:127.0.0.1:PORT [--buf-size N] [--buf-count N]
                  [--erase-delay S] [--v1-errors] [--drop-at BYTES] [--answer-delay MS [--from-last-write]]
                  [--acl-length N] [--encrypted] [--spare]
                  [--cores 2]

It advertises as "Zephyr SMP" (F0:F1:F2:F3:F4:F5) with service 8D53DC1D-1DB7-4CD3-868B-8A527460AA84,
whose characteristic DA2E7828-FBCE-4E01-AE9E-261174997C48 takes requests as writes without
response and notifies the answers, cut at ATT_MTU - 3, as Zephyr's smp_bt.c does. It answers,
as Zephyr's img_mgmt.c and os_mgmt.c do (the messages read with PyPI's cbor2):
  os: echo, reset, MCUmgr parameters (--buf-size, --buf-count), bootloader information (MCUboot);
  img: state of images (two slots; slot 0 runs 1.0.0), set state, upload (offsets; a part at
       another offset changes nothing and the answer says where it is; "sha" and "match"; "upgrade"
       refused for an image not newer than the one running), erase of slot 1.
An image arriving whole is checked as MCUboot would: its header's magic and its SHA-256 TLV
against the header and image. --erase-delay waits before answering the first part (the slot is
erased); --v1-errors answers {"rc": 6} (MCUmgr's common "bad state") as SMP version 1 firmware does, else
{"err": {"group", "rc"}} with the group's own code.
--answer-delay models a real link: each answer goes out that long (a connection interval) after
the connection event its request was sent in, which is taken to begin with the request's first
write, while later requests keep coming, so a client that pipelines gains. --from-last-write counts
it from the request's last write instead, so the time the request takes through the virtual air's
Python comes on top.
--acl-length sets the LE ACL packets the controller FavBlue drives takes (Bumble's own is 27, as a
controller without LE Data Length Extension; 251 is one that has it).
--spare starts with an older image (0.9.0) in slot 1, for Erase Spare Slot.
--cores 2 adds image 1, an nRF5340's network core (running 1.0.0, two slots of its own): an
upload's first part names its image ("image": 1), and set state finds an image by its hash.
--encrypted makes the characteristic and its configuration descriptor need an encrypted link,
as Nordic's nRF Desktop sets them: subscribing first answers Insufficient Encryption, so a
client pairs first (Just Works, which Bumble's default pairing takes).
--drop-at ends the link once, as a board going out of reach does, when an upload has reached
BYTES; the upload it holds stays, and a part at its offset goes on with it (Zephyr's img_mgmt
keeps its state across links). On reset it restarts as a board does: the link drops, MCUboot swaps in an image marked to run
(test or permanent) or, after a test that was not confirmed, swaps the old one back, and it
advertises again.
Lines: READY, CONNECTED, UPLOAD <off>, IMAGE <version> <hash>, LONGEST_WRITE <bytes>, BUSY <cpu s> <wall s>, REFUSED <why>,
RESET, ERASE, TEST <hash>, PERMANENT <hash>, CONFIRM, RUNNING <version>; those of image 1 end in "image 1"."""

import argparse
import asyncio
import hashlib
import logging
import struct
import sys
import time

import cbor2
from bumble import hci
from bumble.controller import Controller
from bumble.core import AdvertisingData, UUID
from bumble.device import Device, DeviceConfiguration
from bumble.gatt import (GATT_CLIENT_CHARACTERISTIC_CONFIGURATION_DESCRIPTOR, Characteristic, CharacteristicValue,
                         Descriptor, Service)
from bumble.host import Host
from bumble.link import LocalLink
from bumble.transport import open_transport

from spec_controller import keep_to_the_spec
from unformatted import unformatted

SERVICE = '8D53DC1D-1DB7-4CD3-868B-8A527460AA84'
CHARACTERISTIC = 'DA2E7828-FBCE-4E01-AE9E-261174997C48'
FACTORY = {'version': '1.0.0', 'hash': hashlib.sha256(b'running').digest()}
NETWORK = {'version': '1.0.0', 'hash': hashlib.sha256(b'network core').digest()}


def say(*words):
    print(*words, flush=True)


def version_of(header):
    major, minor, revision, build = struct.unpack_from('<BBHI', header, 20)
    return f'{major}.{minor}.{revision}' + (f'.{build}' if build else '')


def check(image):
    """MCUboot's own checks: the magic, and the SHA-256 TLV against the header and image."""
    if len(image) < 32 or struct.unpack_from('<I', image, 0)[0] != 0x96F3B83D:
        return None, 22
    hdr, protected, size = struct.unpack_from('<HHI', image, 8)
    at = hdr + size + protected
    if at + 4 > len(image) or struct.unpack_from('<H', image, at)[0] != 0x6907:
        return None, 4
    end = at + struct.unpack_from('<H', image, at + 2)[0]
    at += 4
    while at + 4 <= end:
        kind, length = struct.unpack_from('<HH', image, at)
        if kind == 0x10:
            if image[at + 4:at + 4 + length] != hashlib.sha256(image[:hdr + size + protected]).digest():
                return None, 24
            return image[at + 4:at + 4 + length], 0
        at += 4 + length
    return None, 8


class Image:
    """One image's two slots as MCUboot keeps them: the running one, and the spare."""

    def __init__(self, number, running, spare=None):
        self.number = number
        self.running = dict(running, confirmed=True)
        self.slot1 = spare
        # None, or True (permanent) or False (test): what runs after the next restart.
        self.pending = None

    def said(self, *words):
        # Image 0's lines as they always were; another image's name its number.
        say(*words, *(('image', self.number) if self.number else ()))

    def restart(self):
        """MCUboot at start-up: a marked image is swapped in; an unconfirmed test goes back."""
        if self.pending is not None and self.slot1:
            old = {'version': self.running['version'], 'hash': self.running['hash']}
            self.running = dict(self.slot1, confirmed=bool(self.pending))
            self.slot1, self.pending = old, None
        elif not self.running['confirmed'] and self.slot1:
            old = {'version': self.running['version'], 'hash': self.running['hash']}
            self.running = dict(self.slot1, confirmed=True)
            self.slot1 = old
        self.said('RUNNING', self.running['version'])

    def slots(self):
        out = [{'image': self.number, 'slot': 0, 'version': self.running['version'], 'hash': self.running['hash'],
                'bootable': True, 'pending': False, 'confirmed': self.running['confirmed'], 'active': True, 'permanent': False}]
        if self.slot1:
            out.append({'image': self.number, 'slot': 1, 'version': self.slot1['version'], 'hash': self.slot1['hash'],
                        'bootable': True, 'pending': self.pending is not None, 'confirmed': False, 'active': False,
                        'permanent': bool(self.pending)})
        return out


class Zephyr:
    def __init__(self, args):
        self.args = args
        # --spare: an older image left in slot 1, as after an update that was reverted.
        spare = {'version': '0.9.0', 'hash': hashlib.sha256(b'spare').digest()} if args.spare else None
        self.images = [Image(0, FACTORY, spare)]
        if args.cores == 2:
            self.images.append(Image(1, NETWORK))
        self.upload = None
        self.erased = False
        self.restarting = False
        self.dropping = False
        # The longest write the client made: a client that fills ATT_MTU - 3 sends fewer.
        self.longest_write = 0

    def restart(self):
        self.restarting = False
        for image in self.images:
            image.restart()

    def error(self, group, rc):
        # Version 1 firmware has only MCUmgr's common codes: a group's refusal is "bad state" (6).
        return {'rc': 6} if self.args.v1_errors else {'err': {'group': group, 'rc': rc}}

    def slots(self):
        return {'images': [slot for image in self.images for slot in image.slots()]}

    async def handle(self, op, group, command, body):
        if group == 0 and command == 0:
            return {'r': body.get('d', '')}
        if group == 0 and command == 5:
            say('RESET')
            self.restarting = True
            return {}
        if group == 0 and command == 6:
            return {'buf_size': self.args.buf_size, 'buf_count': self.args.buf_count}
        if group == 0 and command == 8:
            return {'bootloader': 'MCUboot', 'mode': 1} if body.get('query') == 'mode' else {'bootloader': 'MCUboot'}
        if group == 1 and command == 0 and op == 0:
            return self.slots()
        if group == 1 and command == 0:
            # img_mgmt finds the slot by its hash, in whichever image holds it; without one, image 0 runs.
            running = [i for i in self.images if body.get('hash') == i.running['hash'] or (not body.get('hash') and i.number == 0)]
            if body.get('confirm') and running:
                running[0].running['confirmed'] = True
                running[0].said('CONFIRM')
                return self.slots()
            spare = [i for i in self.images if i.slot1 and body.get('hash') == i.slot1['hash']]
            if not spare:
                return self.error(1, 8)
            spare[0].pending = bool(body.get('confirm'))
            spare[0].said('TEST' if not spare[0].pending else 'PERMANENT', body['hash'].hex())
            return self.slots()
        if group == 1 and command == 5:
            self.images[0].slot1, self.images[0].pending = None, None
            say('ERASE')
            return {}
        if group == 1 and command == 1:
            return await self.part(body)
        # Zephyr's smp.c: a group or command it lacks is MCUmgr's common "not supported", in either version.
        return {'rc': 8}

    async def part(self, body):
        off, data = body.get('off'), body.get('data', b'')
        if off == 0:
            if 'len' not in body:
                return self.error(1, 21)
            if self.args.erase_delay and not self.erased:
                await asyncio.sleep(self.args.erase_delay)
                self.erased = True
            number = body.get('image', 0)
            if not isinstance(number, int) or not 0 <= number < len(self.images):
                return {'rc': 3}
            # A bytearray: a device writes each part where it goes, where adding to bytes copied the
            # whole image so far at every part (some 70 MB of copying for 512 KiB).
            self.upload = {'len': body['len'], 'data': bytearray(), 'sha': body.get('sha'), 'upgrade': body.get('upgrade', False),
                           'image': self.images[number], 'began': (time.process_time(), time.monotonic())}
        if self.upload is None or off != len(self.upload['data']):
            # Zephyr's img_mgmt: a part at another offset changes nothing; the answer says where it is.
            return {'off': len(self.upload['data']) if self.upload else 0}
        self.upload['data'] += data
        say('UPLOAD', len(self.upload['data']))
        if self.args.drop_at and len(self.upload['data']) >= self.args.drop_at:
            self.args.drop_at = 0
            self.dropping = True
        answer = {'off': len(self.upload['data'])}
        if len(self.upload['data']) >= self.upload['len']:
            image = bytes(self.upload['data'])
            sha, rc = check(image)
            if rc:
                say('REFUSED', rc)
                self.upload = None
                return self.error(1, rc)
            version = version_of(image)
            target = self.upload['image']
            if self.upload['upgrade'] and tuple(map(int, version.split('.'))) <= tuple(map(int, target.running['version'].split('.'))):
                say('REFUSED', 27)
                self.upload = None
                return self.error(1, 27)
            if self.upload['sha'] is not None:
                answer['match'] = self.upload['sha'] == hashlib.sha256(image).digest()
            target.slot1, target.pending = {'version': version, 'hash': sha}, None
            target.said('IMAGE', version, sha.hex())
            say('LONGEST_WRITE', self.longest_write)
            # This process's own time from the first part to the last (the board, its controller
            # and the link), beside the time that passed: how much of an upload the board bounds.
            cpu, wall = self.upload['began']
            say('BUSY', f"{time.process_time() - cpu:.4f}", f"{time.monotonic() - wall:.4f}")
            self.upload = None
        return answer


async def main(args):
    unformatted()
    link = LocalLink()
    transport = await open_transport(args.transport)
    exposed = Controller('EXPOSED', host_source=transport.source, host_sink=transport.sink, link=link,
                         public_address='00:1B:DC:00:00:03')
    exposed.le_acl_data_packet_length = args.acl_length
    keep_to_the_spec(exposed)
    host = Host()
    host.controller = Controller('ZEPHYR', link=link)
    config = DeviceConfiguration()
    config.name = 'Zephyr SMP'
    config.address = hci.Address('F0:F1:F2:F3:F4:F5')
    device = Device(config=config, host=host)
    zephyr = Zephyr(args)
    pending = {'bytes': b'', 'began': 0.0}
    state = {'connection': None}

    async def answer(request):
        op, flags, length, group, sequence, command = struct.unpack('>BBHHBB', request[:8])
        body = cbor2.loads(request[8:]) if length else {}
        reply = await zephyr.handle(op & 0x07, group, command, body)
        payload = cbor2.dumps(reply)
        version = 0 if args.v1_errors else 1
        message = struct.pack('>BBHHBB', (version << 3) | ((op & 0x07) + 1), 0, len(payload), group, sequence, command) + payload
        mtu = state['connection'].att_mtu if state['connection'] else 23
        for at in range(0, len(message), mtu - 3):
            await device.notify_subscribers(smp, message[at:at + mtu - 3])
        if zephyr.dropping:
            zephyr.dropping = False
            if state['connection']:
                say('DROPPED')
                try:
                    await state['connection'].disconnect()
                except Exception:
                    pass
        if zephyr.restarting:
            # Zephyr answers, then resets a moment later: the link drops, MCUboot runs, the app advertises.
            await asyncio.sleep(0.25)
            if state['connection']:
                try:
                    await state['connection'].disconnect()
                except Exception:
                    pass
            await asyncio.sleep(0.5)
            zephyr.restart()

    queue = asyncio.Queue()

    def on_write(connection, value):
        # Requests come in writes of ATT_MTU - 3 at most: whole ones go to the work queue, in order.
        now = asyncio.get_running_loop().time()
        if not pending['bytes']:
            pending['began'] = now
        pending['bytes'] += bytes(value)
        zephyr.longest_write = max(zephyr.longest_write, len(value))
        while len(pending['bytes']) >= 8:
            length = 8 + struct.unpack_from('>H', pending['bytes'], 2)[0]
            if len(pending['bytes']) < length:
                break
            queue.put_nowait((pending['bytes'][:length], now if args.from_last_write else pending['began']))
            pending['bytes'] = pending['bytes'][length:]
            pending['began'] = now

    async def work():
        while True:
            request, came = await queue.get()
            if args.answer_delay:
                # A latency, not a service time: the next request is already under way meanwhile.
                # The event loop's epoll wakes up to a millisecond late, so the last one is waited out
                # in turns that leave the loop to carry the link meanwhile.
                due = came + args.answer_delay / 1000
                loop = asyncio.get_running_loop()
                await asyncio.sleep(max(0.0, due - loop.time() - 0.0015))
                while loop.time() < due:
                    await asyncio.sleep(0)
            await answer(request)

    permissions = Characteristic.WRITEABLE | (Characteristic.WRITE_REQUIRES_ENCRYPTION if args.encrypted else 0)
    smp = Characteristic(CHARACTERISTIC, Characteristic.Properties.WRITE_WITHOUT_RESPONSE | Characteristic.Properties.NOTIFY,
                         permissions, CharacteristicValue(write=on_write))
    if args.encrypted:
        # Bumble adds an open descriptor of its own unless the characteristic has one.
        smp.descriptors = [Descriptor(GATT_CLIENT_CHARACTERISTIC_CONFIGURATION_DESCRIPTOR,
                                      Descriptor.READABLE | Descriptor.WRITEABLE | Descriptor.READ_REQUIRES_ENCRYPTION
                                      | Descriptor.WRITE_REQUIRES_ENCRYPTION,
                                      device.gatt_server.make_descriptor_value(smp))]
    device.add_services([Service(SERVICE, [smp])])

    def on_connection(connection):
        state['connection'] = connection
        pending['bytes'] = b''
        say('CONNECTED')
        connection.on('disconnection', lambda reason: say('DISCONNECTED', reason))

    device.on('connection', on_connection)
    device.advertising_data = bytes(AdvertisingData([
        (AdvertisingData.FLAGS, bytes([0x06])),
        (AdvertisingData.COMPLETE_LOCAL_NAME, b'Zephyr SMP'),
        (AdvertisingData.COMPLETE_LIST_OF_128_BIT_SERVICE_CLASS_UUIDS, bytes(UUID(SERVICE))),
    ]))
    await device.power_on()
    await device.start_advertising(auto_restart=True)
    asyncio.get_running_loop().create_task(work())
    say('READY')
    await asyncio.get_running_loop().create_future()


if __name__ == '__main__':
    logging.basicConfig(level=logging.WARNING)
    parser = argparse.ArgumentParser()
    parser.add_argument('--transport', required=True)
    parser.add_argument('--buf-size', type=int, default=512)
    parser.add_argument('--buf-count', type=int, default=4)
    parser.add_argument('--erase-delay', type=float, default=0)
    parser.add_argument('--v1-errors', action='store_true')
    parser.add_argument('--drop-at', type=int, default=0)
    parser.add_argument('--answer-delay', type=float, default=0)
    parser.add_argument('--from-last-write', action='store_true')
    parser.add_argument('--acl-length', type=int, default=27)
    parser.add_argument('--encrypted', action='store_true')
    parser.add_argument('--spare', action='store_true')
    parser.add_argument('--cores', type=int, choices=(1, 2), default=1)
    asyncio.run(main(parser.parse_args()))
