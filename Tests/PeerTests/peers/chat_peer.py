#!/usr/bin/env python3
# Origin: FavBlue's shared peer recipes (reference/peers/chat_peer.py), copied into the project
# so its tests do not depend on the shared folder; extended here with --peers (a second device),
# the peer's own address on CONNECTED/DISCONNECTED lines and --advertising-interval (for
# Benchmarks/ChatBench), and pairing (--pairing, --legacy, --refuse, --secure, --irk). Uses Bumble (Apache-2.0).
"""A chat peripheral on a virtual LE "air", for testing an external HCI host's GATT client.

One Bumble virtual controller (EXPOSED) speaks H4 on --transport; the host under test
(the app) drives it. A second controller on the same LocalLink carries a Bumble Device
(the PEER) that advertises connectably and serves, as GATT services:

  chat  7E57C000-2C8F-4F3C-9F91-8577E1891234
        TX 7E57C001-...  notify   (peer -> app)
        RX 7E57C002-...  write / write without response (app -> peer)
  nus   6E400001-B5A3-F393-E0A9-E50E24DCCA9E  (Nordic UART Service)
        RX 6E400002-...  write / write without response (app -> peer)
        TX 6E400003-...  notify   (peer -> app)

What the peer does:
  * every write to an RX characteristic is printed as `RX <service> <hex> <text>` and
    answered on that service's TX with `echo: <text>` (only once the app subscribed);
  * --burst N sends N numbered messages right after the app subscribes (unread badges);
  * --every S sends one message every S seconds while subscribed;
  * --disconnect-after S drops the connection S seconds after it was made.
Lines that begin with CONNECTED, SUBSCRIBED, RX, SENT, DISCONNECTED are for tests to wait on.

  * --peers 2 puts a second, identical peer ("NAME 2", F0:F1:F2:F3:F4:F6) on the same air,
    so a central can connect to one while the other still advertises.
CONNECTED and DISCONNECTED lines end with the address of the peer they concern.

  * --advertising-interval MS (default: Bumble's 1000). The virtual controller completes a
    connection on the peer's next advertisement, so this bounds the time to connect.

  * --info adds a Battery service (87 %), Device Information (a 300-byte manufacturer
    name, a PnP ID) and a vendor service: "Set point" (read and write, 21.5 °C, with a
    0x2901 description and a 0x2904 format; each write prints `WROTE <hex>`) and a value that
    needs an encrypted link; Heart Rate, whose measurement notifies --heart-rate times a second
    while subscribed (72 bpm, its RR interval counting up from 1 so order and loss show; each
    sent prints `HR <n>`), and Health Thermometer, which indicates a temperature every second
    (`CONFIRMED <n>` once the app confirmed indication n).
  * --airtag advertises as an AirTag away from its owner (nameless, Apple's Find My frame) and
    serves the AirTag's sound characteristic; each write prints `SOUND <hex>`.
  * --dult advertises as a DULT location tag away from its owner (service data 0xFCB2, the
    near-owner bit clear) and serves the non-owner service; each write to its control point
    prints `SOUND <hex>` and is answered with Command_Response by indication.

Pairing (the peer is the responder; keys live in memory for the peer's lifetime):
  * --pairing none|display|yesno|keyboard|keyboard-display sets its IO capability
    (none: Just Works; yesno or keyboard-display: numeric comparison under Secure
    Connections; display: the app types the code this peer prints; keyboard: the peer prints
    TYPE and reads the app's code from a line on stdin);
  * --legacy turns Secure Connections off (LE legacy pairing);
  * --refuse answers "no" to a numeric comparison;
  * --secure makes the chat characteristics need an encrypted, authenticated link;
  * --irk HEX gives the peer that identity key; with --private it advertises from a resolvable
    private address made from it (PRIVATE <address>), and with --rotate S takes a new one every
    S seconds (ROTATED <address>).
  * --request-pairing sends a Security Request half a second into every connection (REQUESTED).
  * --ask-central has the peer ask the central's own GATT server, a second into every
    connection: CENTRAL_SERVICES <uuids>, CENTRAL_NAME <Device Name>, CENTRAL_APPEARANCE <hex>,
    CENTRAL_SUBSCRIBED 2A05 once it subscribed to Service Changed, CENTRAL_HASH <hex> (Database
    Hash, or "-") with CENTRAL_HASH_EXPECTED <hex> (Bumble's own computation over the attributes it
    discovered), CENTRAL_FEATURES <hex> after setting robust caching in Client Supported Features,
    CENTRAL_FEATURES_REFUSED <code> when clearing it is refused, or CENTRAL_ERROR <why>.
  * --cache-central has the peer cache the central's GATT server as a bonded phone does: once a
    link is encrypted, the first time it sets robust caching in Client Supported Features and keeps
    the Device Name's handle (CENTRAL_CACHED <handle>); every later time it reads that handle at
    once, twice, without discovering (CENTRAL_READ <the answer's PDU in hex>).
  * --claim-resolving-list leaves the controller FavBlue drives claiming a resolving list it never
    resolves with, as Bumble ships; --unanswered-encryptions N leaves every other LE Enable
    Encryption after pairing's without an answer, N times (UNANSWERED_ENCRYPTION), the link up
    and silent.
Lines: PASSKEY <code>, COMPARE <code>, PAIRING_FAILED <reason>, ENCRYPTED <0|1>, and
PAIRED <ltk> <irk> <authenticated|->: the LTK both use and the app's identity key, as they travel (or -).

Usage (in a venv with `bumble` installed):
  python chat_peer.py [--transport tcp-server:127.0.0.1:9001] [--name "Chat Peer"]
        [--service chat|nus|both] [--burst N] [--every S] [--disconnect-after S]
        [--legacy-reports] [--peers 1|2] [--advertising-interval MS]

Observed with bumble 0.0.236 (see PEERS.md): the central must use a random own address
or ATT traffic is dropped; notifications longer than ATT_MTU-3 are cut silently and are
dropped silently before the CCCD is written; after LE Create Connection Cancel the
virtual controller refuses the next Create Connection (start a fresh peer per test).
"""
import argparse
import asyncio
import logging
import struct
import sys

from bumble import att
from bumble import crypto as bumble_crypto
from bumble import hci
from bumble.att import ATT_Error
from bumble.controller import Controller
from bumble.core import AdvertisingData
from bumble.core import UUID
from bumble.device import Device, DeviceConfiguration, Peer
from bumble.gatt import Characteristic, CharacteristicValue, Descriptor, Service
from bumble.host import Host
from bumble.keys import MemoryKeyStore
from bumble.pairing import PairingConfig, PairingDelegate
from bumble.link import LocalLink
from bumble.transport import open_transport

from spec_controller import keep_to_the_spec

SERVICES = {
    'chat': ('7E57C000-2C8F-4F3C-9F91-8577E1891234',
             '7E57C001-2C8F-4F3C-9F91-8577E1891234',    # TX notify
             '7E57C002-2C8F-4F3C-9F91-8577E1891234'),   # RX write
    'nus': ('6E400001-B5A3-F393-E0A9-E50E24DCCA9E',
            '6E400003-B5A3-F393-E0A9-E50E24DCCA9E',     # TX notify
            '6E400002-B5A3-F393-E0A9-E50E24DCCA9E'),    # RX write
}
PEER_ADDRESSES = ['F0:F1:F2:F3:F4:F5', 'F0:F1:F2:F3:F4:F6']   # static random


def say(*words):
    print(*words, flush=True)


class Delegate(PairingDelegate):
    """Answers for the peer's user, and prints what it would show."""
    IO = {'none': PairingDelegate.NO_OUTPUT_NO_INPUT, 'display': PairingDelegate.DISPLAY_OUTPUT_ONLY,
          'yesno': PairingDelegate.DISPLAY_OUTPUT_AND_YES_NO_INPUT, 'keyboard': PairingDelegate.KEYBOARD_INPUT_ONLY,
          'keyboard-display': PairingDelegate.DISPLAY_OUTPUT_AND_KEYBOARD_INPUT}

    def __init__(self, args):
        super().__init__(io_capability=self.IO[args.pairing])
        self.args = args

    async def compare_numbers(self, number, digits):
        say('COMPARE', f'{number:06d}')
        return not self.args.refuse

    async def display_number(self, number, digits):
        say('PASSKEY', f'{number:06d}')

    async def get_number(self):
        # The test types what the app shows, one line on stdin.
        say('TYPE')
        line = await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
        return int(line) if line.strip().isdigit() else None


async def main(args):
    link = LocalLink()
    transport = await open_transport(args.transport)
    exposed = keep_to_the_spec(Controller('EXPOSED', host_source=transport.source, host_sink=transport.sink,
                                          link=link, public_address='00:1B:DC:00:00:02'),
                               claim_resolving_list=args.claim_resolving_list,
                               unanswered_encryptions=args.unanswered_encryptions)
    if args.legacy_reports:
        exposed.le_features &= ~hci.LeFeatureMask.LE_EXTENDED_ADVERTISING

    names = ['chat', 'nus'] if args.service == 'both' else [args.service]

    async def start_peer(index):
        peer_controller = Controller(f'PEER{index}', link=link)
        host = Host()
        host.controller = peer_controller
        config = DeviceConfiguration()
        config.name = args.name if index == 0 else f'{args.name} {index + 1}'
        config.address = hci.Address(PEER_ADDRESSES[index])
        if args.irk:
            config.irk = bytes.fromhex(args.irk)
            config.le_privacy_enabled = args.private
        if args.advertising_interval > 0:
            config.advertising_interval_min = config.advertising_interval_max = args.advertising_interval
        device = Device(config=config)
        device.host = host
        device.keystore = MemoryKeyStore()
        if args.private:
            device.static_address = hci.Address(PEER_ADDRESSES[index])
        if args.pairing:
            device.pairing_config_factory = lambda connection: PairingConfig(
                sc=not args.legacy, mitm=True, bonding=True, delegate=Delegate(args))

        tx_of = {}
        services = []
        streams = {}
        running = {}
        # What --cache-central keeps of the central's server between links, as a bonded phone does.
        cached = {}

        async def stream_heart_rate(characteristic):
            n = 0
            while True:
                n += 1
                # Flags: uint8 rate, RR intervals present; 72 bpm; one RR interval (1/1024 s) = n.
                await device.notify_subscribers(characteristic, bytes([0x10, 72]) + n.to_bytes(2, 'little'))
                say('HR', n)
                await asyncio.sleep(1 / args.heart_rate)

        async def stream_temperature(characteristic):
            n = 0
            while True:
                n += 1
                # Flags: Celsius; 36.6 + n/10 as IEEE 11073 FLOAT (mantissa, exponent −1).
                mantissa = 366 + n
                await device.indicate_subscribers(characteristic, bytes([0x00]) + mantissa.to_bytes(3, 'little') + bytes([0xFF]))
                say('CONFIRMED', n)
                await asyncio.sleep(1)

        for name in names:
            service_uuid, tx_uuid, rx_uuid = SERVICES[name]
            tx = Characteristic(tx_uuid, Characteristic.Properties.NOTIFY, Characteristic.READABLE, b'')

            def on_write(connection, value, name=name, tx=tx):
                text = bytes(value).decode('utf-8', 'replace')
                say('RX', name, bytes(value).hex(), text)
                asyncio.get_running_loop().create_task(send(tx, name, f'echo: {text}'))

            permissions = Characteristic.WRITEABLE
            if args.secure:
                permissions = (Characteristic.Permissions.WRITE_REQUIRES_ENCRYPTION
                               | Characteristic.Permissions.WRITE_REQUIRES_AUTHENTICATION)
            rx = Characteristic(rx_uuid,
                                Characteristic.Properties.WRITE | Characteristic.Properties.WRITE_WITHOUT_RESPONSE,
                                permissions, CharacteristicValue(write=on_write))
            tx_of[name] = tx
            services.append(Service(service_uuid, [tx, rx]))
        if args.info:
            # A battery at 87 %, and Device Information with a manufacturer name longer than one
            # ATT_MTU (read whole with Read Blob) and a PnP ID (Bluetooth SIG vendor 0x000F).
            services.append(Service('180F', [Characteristic('2A19', Characteristic.Properties.READ,
                                                            Characteristic.READABLE, bytes([87]))]))
            services.append(Service('180A', [
                Characteristic('2A29', Characteristic.Properties.READ, Characteristic.READABLE,
                               ('Manufacturer ' + 'x' * 300).encode()[:300]),
                Characteristic('2A50', Characteristic.Properties.READ, Characteristic.READABLE,
                               bytes([0x01, 0x0F, 0x00, 0x34, 0x12, 0x21, 0x01])),
            ]))
            set_point = bytearray([0xD7, 0x00])

            def write_set_point(connection, value):
                set_point[:] = bytes(value)
                say('WROTE', bytes(value).hex())

            readable = Characteristic.READABLE
            services.append(Service('5E7F0000-1C2B-4A5D-8E9F-0A1B2C3D4E5F', [
                Characteristic('5E7F0001-1C2B-4A5D-8E9F-0A1B2C3D4E5F',
                               Characteristic.Properties.READ | Characteristic.Properties.WRITE,
                               Characteristic.READABLE | Characteristic.WRITEABLE,
                               CharacteristicValue(read=lambda connection: bytes(set_point), write=write_set_point),
                               descriptors=[Descriptor('2901', readable, b'Set point'),
                                            # uint16, exponent -1, degrees Celsius: 215 reads 21.5 °C.
                                            Descriptor('2904', readable, bytes([0x06, 0xFF, 0x2F, 0x27, 0x01, 0x00, 0x00]))]),
                Characteristic('5E7F0002-1C2B-4A5D-8E9F-0A1B2C3D4E5F', Characteristic.Properties.READ,
                               Characteristic.Permissions.READ_REQUIRES_ENCRYPTION, b'secret'),
            ]))
            heart_rate = Characteristic('2A37', Characteristic.Properties.NOTIFY, readable, b'')
            thermometer = Characteristic('2A1C', Characteristic.Properties.INDICATE, readable, b'')
            services.append(Service('180D', [heart_rate]))
            services.append(Service('1809', [thermometer]))
            streams[heart_rate] = stream_heart_rate
            streams[thermometer] = stream_temperature
        if args.airtag:
            # An AirTag's sound service, as AirGuard rings one: 0xAF written to 7DFC9001.
            def ring(connection, value):
                say('SOUND', bytes(value).hex())

            services.append(Service('7DFC9000-7D1C-4951-86AA-8D9728F8D66C', [
                Characteristic('7DFC9001-7D1C-4951-86AA-8D9728F8D66C',
                               Characteristic.Properties.WRITE | Characteristic.Properties.WRITE_WITHOUT_RESPONSE,
                               Characteristic.WRITEABLE, CharacteristicValue(write=ring)),
            ]))
        if args.dult:
            # The DULT non-owner service: Sound_Start (0x0300, little-endian) written to the
            # control point, Command_Response (0x0302: the opcode, then status 0 success) indicated.
            def control(connection, value):
                say('SOUND', bytes(value).hex())
                if len(value) >= 2:
                    answer = bytes([0x02, 0x03]) + bytes(value[:2]) + bytes([0x00, 0x00])
                    asyncio.get_running_loop().create_task(device.indicate_subscriber(connection, control_point, answer))

            control_point = Characteristic('8E0C0001-1D68-FB92-BF61-48377421680E',
                                           Characteristic.Properties.WRITE | Characteristic.Properties.INDICATE,
                                           Characteristic.WRITEABLE, CharacteristicValue(write=control))
            services.append(Service('15190001-12F4-C226-88ED-2AC5579F2A85', [control_point]))
        device.add_services(services)

        async def send(tx, name, text):
            await device.notify_subscribers(tx, text.encode('utf-8'))
            say('SENT', name, text)

        async def after_subscribe(name):
            tx = tx_of[name]
            for i in range(1, args.burst + 1):
                await send(tx, name, f'message {i}')
            while args.every > 0:
                await asyncio.sleep(args.every)
                await send(tx, name, f'tick {asyncio.get_running_loop().time():.1f}')

        def on_subscription(connection, characteristic, notify_enabled, indicate_enabled):
            if characteristic in streams:
                task = running.pop(characteristic, None)
                if task:
                    task.cancel()
                uuid = str(characteristic.uuid).replace('UUID-16:', '')
                if notify_enabled or indicate_enabled:
                    say('SUBSCRIBED', uuid)
                    running[characteristic] = asyncio.get_running_loop().create_task(streams[characteristic](characteristic))
                else:
                    say('UNSUBSCRIBED', uuid)
                return
            for name, tx in tx_of.items():
                if characteristic is tx and notify_enabled:
                    say('SUBSCRIBED', name)
                    asyncio.get_running_loop().create_task(after_subscribe(name))

        device.on('characteristic_subscription', on_subscription)

        def on_connection(connection):
            say('CONNECTED', connection.peer_address, PEER_ADDRESSES[index])
            def on_disconnection(reason):
                for task in running.values():
                    task.cancel()
                running.clear()
                say('DISCONNECTED', reason, PEER_ADDRESSES[index])
            connection.on('disconnection', on_disconnection)
            connection.on('pairing', lambda keys: say(
                'PAIRED', keys.ltk.value.hex() if keys.ltk else (keys.ltk_peripheral.value.hex() if keys.ltk_peripheral else '-'),
                keys.irk.value.hex() if keys.irk else '-',
                'authenticated' if (keys.ltk or keys.ltk_peripheral) and (keys.ltk or keys.ltk_peripheral).authenticated else '-'))
            connection.on('pairing_failure', lambda reason: say('PAIRING_FAILED', reason))
            connection.on('connection_encryption_change',
                          lambda *_: say('ENCRYPTED', 1 if connection.is_encrypted else 0))
            if args.cache_central:
                async def cache():
                    peer = Peer(connection)
                    if 'handle' not in cached:
                        await peer.discover_all()
                        features = peer.get_characteristics_by_uuid(UUID.from_16_bits(0x2B29))[0]
                        await peer.write_value(features, bytes([0x01]), with_response=True)
                        cached['handle'] = peer.get_characteristics_by_uuid(UUID.from_16_bits(0x2A00))[0].handle
                        say('CENTRAL_CACHED', cached['handle'])
                        return
                    for _ in range(2):
                        answer = await connection.gatt_client.send_request(att.ATT_Read_Request(attribute_handle=cached['handle']))
                        say('CENTRAL_READ', bytes(answer).hex())

                def on_encrypted(*_):
                    if connection.is_encrypted:
                        asyncio.get_running_loop().create_task(cache())
                connection.on('connection_encryption_change', on_encrypted)
            if args.request_pairing:
                async def request():
                    # Once the central has the link in hand: a PDU before that would be lost.
                    await asyncio.sleep(0.5)
                    say('REQUESTED')
                    connection.request_pairing()
                asyncio.get_running_loop().create_task(request())
            if args.ask_central:
                async def ask():
                    # The central's own GATT server, as a watch or a phone asks it once connected.
                    await asyncio.sleep(1.0)
                    try:
                        peer = Peer(connection)
                        await peer.discover_all()
                        say('CENTRAL_SERVICES', *[s.uuid.to_hex_str('-') for s in peer.services])
                        names = await peer.read_characteristics_by_uuid(UUID.from_16_bits(0x2A00))
                        say('CENTRAL_NAME', names[0].decode('utf-8', 'replace') if names else '-')
                        looks = await peer.read_characteristics_by_uuid(UUID.from_16_bits(0x2A01))
                        say('CENTRAL_APPEARANCE', looks[0].hex() if looks else '-')
                        changed = peer.get_characteristics_by_uuid(UUID.from_16_bits(0x2A05))
                        await peer.subscribe(changed[0], lambda value: say('SERVICE_CHANGED', value.hex()), prefer_notify=False)
                        say('CENTRAL_SUBSCRIBED', '2A05')
                        await ask_hash(peer)
                    except Exception as error:
                        say('CENTRAL_ERROR', repr(error))
                async def ask_hash(peer):
                    # Database Hash as FavBlue serves it, and as Bumble's own GATT service computes one
                    # over the attributes it discovered (Vol 3, Part G, §7.3.1); Client Supported Features.
                    hashes = await peer.read_characteristics_by_uuid(UUID.from_16_bits(0x2B2A))
                    if not hashes:
                        say('CENTRAL_HASH', '-')
                        return
                    say('CENTRAL_HASH', hashes[0].hex())
                    whole = {0x2800, 0x2801, 0x2802, 0x2803, 0x2900}
                    named = {0x2901, 0x2902, 0x2903, 0x2904, 0x2905}
                    m = b''
                    for attribute in await peer.discover_attributes():
                        kind = int.from_bytes(attribute.type.to_bytes(), 'little') if len(attribute.type.to_bytes()) == 2 else None
                        if kind in whole:
                            m += struct.pack('<H', attribute.handle) + attribute.type.to_bytes() + bytes(await peer.read_value(attribute.handle))
                        elif kind in named:
                            m += struct.pack('<H', attribute.handle) + attribute.type.to_bytes()
                    say('CENTRAL_HASH_EXPECTED', bumble_crypto.aes_cmac(m=m, k=bytes(16))[::-1].hex())
                    features = peer.get_characteristics_by_uuid(UUID.from_16_bits(0x2B29))[0]
                    await peer.write_value(features, bytes([0x01]), with_response=True)
                    say('CENTRAL_FEATURES', bytes(await peer.read_value(features)).hex())
                    try:
                        await peer.write_value(features, bytes([0x00]), with_response=True)
                        say('CENTRAL_FEATURES_CLEARED')
                    except ATT_Error as refusal:
                        say('CENTRAL_FEATURES_REFUSED', f'{refusal.error_code:02x}')
                asyncio.get_running_loop().create_task(ask())
            if args.disconnect_after > 0:
                async def drop():
                    await asyncio.sleep(args.disconnect_after)
                    await connection.disconnect()
                asyncio.get_running_loop().create_task(drop())

        device.on('connection', on_connection)
        device.advertising_data = bytes(AdvertisingData([
            (AdvertisingData.FLAGS, bytes([0x06])),
            (AdvertisingData.COMPLETE_LOCAL_NAME, config.name.encode('utf-8')),
        ]))
        if args.airtag:
            # Nameless, as AirTags are: Apple's Find My frame with a full key (away from its owner).
            device.advertising_data = bytes([30, 0xFF, 0x4C, 0x00, 0x12, 0x19, 0x10]) + bytes(range(1, 23)) + bytes([0, 0])
        if args.dult:
            # Nameless: service data 0xFCB2, network 0x02, the near-owner bit (0x80) clear.
            device.advertising_data = bytes([2, 0x01, 0x06, 5, 0x16, 0xB2, 0xFC, 0x02, 0x00])
        await device.power_on()
        await device.start_advertising(auto_restart=True)
        if args.private:
            say('PRIVATE', device.random_address)
        if args.private and args.rotate > 0:
            asyncio.get_running_loop().create_task(rotate(device))

    async def rotate(device):
        # Bumble skips its own rotation while advertising: stop, take a new address, start again.
        while True:
            await asyncio.sleep(args.rotate)
            # A connection keeps its address (and Bumble's virtual link routes by it).
            if device.connections:
                continue
            if device.is_advertising:
                await device.stop_advertising()
            device.random_address = hci.Address.generate_private_address(device.irk)
            # The advertising set takes the new address, but Bumble's virtual controller routes a
            # connection's data by its own random address: give it the new one too.
            await device.send_command(hci.HCI_LE_Set_Random_Address_Command(random_address=device.random_address))
            await device.start_advertising(auto_restart=True)
            say('ROTATED', device.random_address)

    for index in range(args.peers):
        await start_peer(index)
    say('READY', args.transport, args.name, ','.join(names))
    await transport.source.terminated


if __name__ == '__main__':
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--transport', default='tcp-server:127.0.0.1:9001')
    parser.add_argument('--name', default='Chat Peer')
    parser.add_argument('--service', choices=['chat', 'nus', 'both'], default='both')
    parser.add_argument('--burst', type=int, default=0)
    parser.add_argument('--every', type=float, default=0)
    parser.add_argument('--disconnect-after', type=float, default=0)
    parser.add_argument('--legacy-reports', action='store_true')
    parser.add_argument('--peers', type=int, choices=[1, 2], default=1)
    parser.add_argument('--advertising-interval', type=float, default=0)
    parser.add_argument('--info', action='store_true')
    parser.add_argument('--heart-rate', type=float, default=10)
    parser.add_argument('--pairing', choices=list(Delegate.IO))
    parser.add_argument('--legacy', action='store_true')
    parser.add_argument('--refuse', action='store_true')
    parser.add_argument('--secure', action='store_true')
    parser.add_argument('--irk')
    parser.add_argument('--private', action='store_true')
    parser.add_argument('--rotate', type=float, default=0)
    parser.add_argument('--request-pairing', action='store_true')
    parser.add_argument('--airtag', action='store_true')
    parser.add_argument('--ask-central', action='store_true')
    parser.add_argument('--cache-central', action='store_true')
    parser.add_argument('--dult', action='store_true')
    parser.add_argument('--claim-resolving-list', action='store_true',
                        help="the controller FavBlue drives claims a resolving list and never resolves (Bumble as it ships)")
    parser.add_argument('--unanswered-encryptions', type=int, default=0,
                        help="the controller FavBlue drives leaves every other LE Enable Encryption after the first unanswered, N times")
    parser.add_argument('-v', '--verbose', action='store_true')
    arguments = parser.parse_args()
    logging.basicConfig(level=logging.DEBUG if arguments.verbose else logging.WARNING)
    asyncio.run(main(arguments))
