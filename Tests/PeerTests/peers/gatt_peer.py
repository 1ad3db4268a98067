#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""A Bumble GATT server for the browser's tests ("GATT Peer", F0:F1:F2:F3:F4:F7), behind a
virtual controller exposed to FavBlue over H4 (--transport, as chat_peer.py).

Its database:
  * Battery (87 %, notify), Device Information (every string, System ID, PnP ID);
  * Heart Rate: the measurement notifies --heart-rate times a second (10) while subscribed (72 bpm, one RR
    interval counting up from 1), and Body Sensor Location (chest);
  * Health Thermometer: the measurement indicates once a second (`CONFIRMED n` after each);
  * Environmental Sensing: temperature 21.5 °C, humidity 45.5 %, pressure 101325.0 Pa;
  * a vendor service with one characteristic per property (read, write, write without
    response, notify, indicate), a 512-byte readable value, a writable value that takes 300
    bytes (`WROTE <n> <sha1>` after each write, so a long write is checked whole), one with a
    0x2901 description and a 0x2904 format, one that needs an encrypted link, and one that
    answers Read Not Permitted.
Before READY it prints `TABLE <json>`: every attribute as [handle, type UUID], from its own
database, for the test to compare with what FavBlue discovered.
"""

import argparse
import asyncio
import hashlib
import json
import logging
import struct

from bumble import hci
from bumble.att import ATT_Error, ATT_READ_NOT_PERMITTED_ERROR
from bumble.controller import Controller
from bumble.core import AdvertisingData
from bumble.device import Device, DeviceConfiguration
from bumble.gatt import Characteristic, CharacteristicValue, Descriptor, Service
from bumble.host import Host
from bumble.link import LocalLink
from bumble.transport import open_transport

from spec_controller import keep_to_the_spec
from unformatted import unformatted

ADDRESS = 'F0:F1:F2:F3:F4:F7'
VENDOR = '5E7F1000-1C2B-4A5D-8E9F-0A1B2C3D4E5F'


def vendor(n):
    return f'5E7F{0x1000 + n:04X}-1C2B-4A5D-8E9F-0A1B2C3D4E5F'


def say(*words):
    print(*words, flush=True)


async def main(args):
    unformatted()
    link = LocalLink()
    transport = await open_transport(args.transport)
    keep_to_the_spec(Controller('EXPOSED', host_source=transport.source, host_sink=transport.sink, link=link,
                                public_address='00:1B:DC:00:00:03'))
    host = Host()
    host.controller = Controller('PEER', link=link)
    config = DeviceConfiguration()
    config.name = args.name
    config.address = hci.Address(ADDRESS)
    device = Device(config=config, host=host)

    P = Characteristic.Properties
    readable, writeable = Characteristic.READABLE, Characteristic.WRITEABLE
    streams, running = {}, {}

    def read_only(uuid, value):
        return Characteristic(uuid, P.READ, readable, value)

    battery = Characteristic('2A19', P.READ | P.NOTIFY, readable, bytes([87]))
    heart_rate = Characteristic('2A37', P.NOTIFY, readable, b'')
    temperature = Characteristic('2A1C', P.INDICATE, readable, b'')
    vendor_notify = Characteristic(vendor(4), P.NOTIFY, readable, b'')
    vendor_indicate = Characteristic(vendor(5), P.INDICATE, readable, b'')
    written = bytearray()

    def on_write(connection, value):
        written[:] = bytes(value)
        say('WROTE', len(value), hashlib.sha1(bytes(value)).hexdigest())

    def refuse(connection):
        raise ATT_Error(ATT_READ_NOT_PERMITTED_ERROR)

    services = [
        Service('180F', [battery]),
        Service('180A', [
            read_only('2A29', b'FavBlue Labs'), read_only('2A24', b'GP-1'), read_only('2A25', b'SN-0042'),
            read_only('2A26', b'1.2.3'), read_only('2A27', b'rev B'), read_only('2A28', b'4.5.6'),
            read_only('2A23', bytes([0x01, 0x02, 0x03, 0x04, 0x05, 0xFE, 0xCA, 0x00])),
            read_only('2A50', bytes([0x01, 0x0F, 0x00, 0x34, 0x12, 0x21, 0x01])),
        ]),
        Service('180D', [heart_rate, read_only('2A38', bytes([1]))]),
        Service('1809', [temperature]),
        Service('181A', [read_only('2A6E', struct.pack('<h', 2150)), read_only('2A6F', struct.pack('<H', 4550)),
                         read_only('2A6D', struct.pack('<I', 1013250))]),
        Service(VENDOR, [
            read_only(vendor(1), b'read me'),
            Characteristic(vendor(2), P.WRITE, writeable, CharacteristicValue(write=on_write)),
            Characteristic(vendor(3), P.WRITE_WITHOUT_RESPONSE, writeable, CharacteristicValue(write=on_write)),
            vendor_notify, vendor_indicate,
            read_only(vendor(6), bytes(i % 256 for i in range(512))),
            Characteristic(vendor(7), P.READ | P.WRITE, readable | writeable,
                           CharacteristicValue(read=lambda connection: bytes(written), write=on_write)),
            Characteristic(vendor(8), P.READ, readable, bytes([0xD7, 0x00]),
                           descriptors=[Descriptor('2901', readable, b'Set point'),
                                        Descriptor('2904', readable, bytes([0x06, 0xFF, 0x2F, 0x27, 0x01, 0x00, 0x00]))]),
            Characteristic(vendor(9), P.READ, Characteristic.Permissions.READ_REQUIRES_ENCRYPTION, b'secret'),
            Characteristic(vendor(10), P.READ, readable, CharacteristicValue(read=refuse)),
        ]),
    ]
    device.add_services(services)

    async def stream_heart_rate(connection, characteristic):
        # Paced by the clock, not by sleeping between sends: each wake-up sends what is due,
        # so asking for 1,000 a second gives 1,000. Each goes straight to the
        # subscriber's link; SENT gives the count when the stream ends.
        loop = asyncio.get_running_loop()
        start, n = loop.time(), 0
        try:
            while True:
                due = int((loop.time() - start) * args.heart_rate) + 1
                while n < due:
                    # The configuration may be written off before this task hears of it.
                    cccd = device.gatt_server.subscribers.get(connection, {}).get(characteristic.handle)
                    if not cccd or not cccd[0] & 1:
                        return
                    await device.notify_subscriber(connection, characteristic,
                                                   bytes([0x10, 72]) + ((n + 1) & 0xFFFF).to_bytes(2, 'little'))
                    n += 1
                # Waking at most every 10 ms: at high rates each wake sends a batch.
                await asyncio.sleep(max(0.01, start + n / args.heart_rate - loop.time()))
        finally:
            say('SENT', '2A37', n)

    async def stream_temperature(connection, characteristic):
        n = 0
        while True:
            n += 1
            await device.indicate_subscribers(characteristic, bytes([0x00]) + (366 + n).to_bytes(3, 'little') + bytes([0xFF]))
            say('CONFIRMED', n)
            await asyncio.sleep(1)

    streams[heart_rate] = stream_heart_rate
    streams[temperature] = stream_temperature

    def on_subscription(connection, characteristic, notify_enabled, indicate_enabled):
        uuid = str(characteristic.uuid).replace('UUID-16:', '')
        task = running.pop(characteristic, None)
        if task:
            task.cancel()
        if not (notify_enabled or indicate_enabled):
            say('UNSUBSCRIBED', uuid)
            return
        say('SUBSCRIBED', uuid)
        if characteristic in streams:
            running[characteristic] = asyncio.get_running_loop().create_task(
                streams[characteristic](connection, characteristic))

    device.on('characteristic_subscription', on_subscription)

    def on_connection(connection):
        say('CONNECTED', connection.peer_address)

        def on_disconnection(reason):
            for task in running.values():
                task.cancel()
            running.clear()
            say('DISCONNECTED', reason)
        connection.on('disconnection', on_disconnection)

    device.on('connection', on_connection)
    device.advertising_data = bytes(AdvertisingData([
        (AdvertisingData.FLAGS, bytes([0x06])),
        (AdvertisingData.COMPLETE_LOCAL_NAME, args.name.encode('utf-8')),
    ]))
    await device.power_on()
    await device.start_advertising(auto_restart=True)
    # Each type as FavBlue writes it: four hex digits, or the full UUID.
    table = [[attribute.handle, str(attribute.type).replace('UUID-16:', '').split(' ')[0].upper()]
             for attribute in device.gatt_server.attributes]
    say('TABLE', json.dumps(table))
    say('READY', args.transport, args.name)
    await transport.source.terminated


if __name__ == '__main__':
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--transport', default='tcp-server:127.0.0.1:9002')
    parser.add_argument('--name', default='GATT Peer')
    parser.add_argument('--heart-rate', type=float, default=10, help='Heart Rate notifications a second')
    parser.add_argument('-v', '--verbose', action='store_true')
    arguments = parser.parse_args()
    logging.basicConfig(level=logging.DEBUG if arguments.verbose else logging.WARNING)
    asyncio.run(main(arguments))
