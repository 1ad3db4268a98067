#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""favblue-scan's sensor readings against trusted decoders, value by value.

Advertisements are generated for each family FavBlue reads, with edge values (each format's
minimum and maximum, negative temperatures, invalid markers), cut-off objects, and encrypted
frames with the right key, a wrong key and none. They go into one capture that
`favblue-scan --fast --format json --sensor-keys FILE` reads, and to the oracles: Home
Assistant's parsers (bthome-ble, govee-ble, ruuvitag-ble, xiaomi-ble, qingping-ble,
thermopro-ble, victron-ble, bluemaestro-ble, and those more_families.py names) and Theengs Decoder
(Xiaomi custom firmwares, Tilt, SwitchBot, Inkbird, ThermoBeacon, iBeacon). For
each device, every reading FavBlue prints must equal the oracle's, and every quantity the oracle gives that
FavBlue's family reads must be printed.

    .venv-peers/bin/python Tests/sensors/oracles.py [FAVBLUE_SCAN]

Closes with "Sensors: N passed, N failed" (one per device)."""

import json
import logging
import os
import random
import struct
import subprocess
import sys
import tempfile
import time

from cryptography.hazmat.primitives.ciphers.aead import AESCCM
from habluetooth import BluetoothServiceInfoBleak
from TheengsDecoder import decodeBLE

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import more_families  # noqa: E402
from capture import ad, write  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
UUID16 = "0000{:04x}-0000-1000-8000-00805f9b34fb"
rng = random.Random(44)
# The oracles' own "Decryption failed" for the wrong-key cases is expected, not news.
logging.disable(logging.WARNING)

# HA's names where FavBlue's differ: a binary sensor named as a measurement is (battery low,
# power on, gas, moisture), and bthome-ble's "mass" is the weight device class.
HA_BINARY = {"battery": "battery_low", "power": "power_on", "gas": "gas_detected", "moisture": "wet", "door_left_open": "problem"}
HA_SENSOR = {"mass": "weight"}


def service_info(name, address, manufacturer=None, service=None, uuids=()):
    return BluetoothServiceInfoBleak(
        name=name or "", address=address, rssi=-60, manufacturer_data=manufacturer or {},
        service_data={UUID16.format(u): d for u, d in (service or {}).items()},
        service_uuids=[UUID16.format(u) for u in (service or {})] + list(uuids), source="local", device=None,
        advertisement=None, connectable=False, time=time.monotonic(), tx_power=None)


def ha_values(update, supported):
    """An HA parser's SensorUpdate as FavBlue's names → numbers; its events as their codes."""
    out = {}
    for key, value in update.entity_values.items():
        if value.native_value is None:
            continue  # the format's marker for "not measured"
        name = HA_SENSOR.get(key.key, key.key)
        if name.rsplit("_", 1)[0] in supported or name in supported:
            out[name] = value.native_value
    for key, value in update.binary_entity_values.items():
        text = key.key[1] if isinstance(key.key, tuple) else key.key  # a parser's own key: (device, key)
        base, _, number = text.rpartition("_")
        if number.isdigit() and base in HA_BINARY:
            name = f"{HA_BINARY[base]}_{number}"  # a repeated binary object, numbered
        else:
            name = HA_BINARY.get(text, text)
        if name.rsplit("_", 1)[0] in supported or name in supported:
            out[name] = 1 if value.native_value else 0
    return out


# MARK: BTHome

BTHOME = {}  # object id → (FavBlue's name, length, signed, factor)
for oid, name, length, signed, factor in [
        (0x00, "packet_id", 1, False, 1), (0x01, "battery", 1, False, 1), (0x02, "temperature", 2, True, 0.01),
        (0x03, "humidity", 2, False, 0.01), (0x04, "pressure", 3, False, 0.01), (0x05, "illuminance", 3, False, 0.01),
        (0x06, "weight", 2, False, 0.01), (0x08, "dew_point", 2, True, 0.01), (0x09, "count", 1, False, 1),
        (0x0A, "energy", 3, False, 0.001), (0x0B, "power", 3, False, 0.01), (0x0C, "voltage", 2, False, 0.001),
        (0x0D, "pm25", 2, False, 1), (0x0E, "pm10", 2, False, 1), (0x12, "carbon_dioxide", 2, False, 1),
        (0x13, "volatile_organic_compounds", 2, False, 1), (0x14, "moisture", 2, False, 0.01),
        (0x2E, "humidity", 1, False, 1), (0x2F, "moisture", 1, False, 1), (0x3D, "count", 2, False, 1),
        (0x3E, "count", 4, False, 1), (0x3F, "rotation", 2, True, 0.1), (0x40, "distance", 2, False, 1),
        (0x42, "duration", 3, False, 0.001), (0x43, "current", 2, False, 0.001), (0x44, "speed", 2, False, 0.01),
        (0x45, "temperature", 2, True, 0.1), (0x46, "uv_index", 1, False, 0.1), (0x47, "volume", 2, False, 0.1),
        (0x49, "volume_flow_rate", 2, False, 0.001), (0x4A, "voltage", 2, False, 0.1), (0x4B, "gas", 3, False, 0.001),
        (0x4C, "gas", 4, False, 0.001), (0x4D, "energy", 4, False, 0.001), (0x4E, "volume", 4, False, 0.001),
        (0x4F, "water", 4, False, 0.001), (0x51, "acceleration", 2, False, 0.001), (0x52, "gyroscope", 2, False, 0.001),
        (0x55, "volume_storage", 4, False, 0.001), (0x56, "conductivity", 2, False, 1), (0x57, "temperature", 1, True, 1),
        (0x58, "temperature", 1, True, 0.35), (0x5A, "count", 2, True, 1), (0x5B, "count", 4, True, 1),
        (0x5C, "power", 4, True, 0.01), (0x5D, "current", 2, True, 0.001), (0x5E, "direction", 2, False, 0.01),
        (0x5F, "precipitation", 2, False, 0.1), (0x61, "rotational_speed", 2, False, 1)]:
    BTHOME[oid] = (name, length, signed, factor)
BINARY = {0x0F: "generic", 0x10: "power_on", 0x11: "opening", 0x15: "battery_low", 0x16: "battery_charging",
          0x1A: "door", 0x20: "wet", 0x21: "motion", 0x23: "occupancy", 0x29: "smoke", 0x2D: "window"}
BTHOME_SUPPORTED = {n for n, *_ in BTHOME.values()} | set(BINARY.values())


def edge(length, signed):
    bits = length * 8
    low, high = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
    return rng.choice([low, high, 0, rng.randint(low, high), rng.randint(low, high)])


def bthome_objects():
    """Object IDs in rising order, some repeated, each with an edge or random value."""
    ids = sorted(rng.sample(sorted(BTHOME), rng.randint(1, 4)) + rng.sample(sorted(BINARY), rng.randint(0, 2)))
    if rng.random() < 0.3:
        ids.append(ids[-1])  # one type twice: temperature_1, temperature_2
        ids.sort()
    out = b""
    for oid in ids:
        if oid in BINARY:
            out += bytes([oid, rng.randint(0, 1)])
        else:
            _, length, signed, _ = BTHOME[oid]
            out += bytes([oid]) + edge(length, signed).to_bytes(length, "little", signed=signed)
    return out


def mac_bytes(address):
    return bytes(int(p, 16) for p in address.split(":"))


def bthome_encrypted(address, key, payload, counter, carried=None):
    """With `carried`, the frame carries that MAC (information bit 1), and the nonce is built from it."""
    info = 0x43 if carried else 0x41
    nonce = mac_bytes(carried or address) + b"\xd2\xfc" + bytes([info]) + counter
    sealed = AESCCM(key, tag_length=4).encrypt(nonce, payload, None)
    mac = mac_bytes(carried)[::-1] if carried else b""
    return bytes([info]) + mac + sealed[:-4] + counter + sealed[-4:]


def bthome_oracle(case):
    from bthome_ble import BTHomeBluetoothDeviceData
    parser = BTHomeBluetoothDeviceData(bindkey=case.get("oracle_key"))
    update = parser.update(service_info(case["name"], case["address"], service=case["service"]))
    values = ha_values(update, BTHOME_SUPPORTED)
    for event in (update.events or {}).values():
        if event.device_key.key.startswith("button") and event.event_type:
            from bthome_ble.event import BUTTON_EVENTS
            code = next(c for c, n in BUTTON_EVENTS.items() if n == event.event_type)
            values[event.device_key.key] = code
    return values


# MARK: Govee, Ruuvi, Xiaomi custom firmware, iBeacon

def govee_oracle(case):
    from govee_ble import GoveeBluetoothDeviceData
    update = GoveeBluetoothDeviceData().update(service_info(case["name"], case["address"], manufacturer=case["manufacturer"]))
    values = ha_values(update, {"temperature", "humidity", "battery"})
    return {k: v for k, v in values.items() if v != "error"}


def ruuvi_oracle(case):
    from ruuvitag_ble import RuuvitagBluetoothDeviceData
    update = RuuvitagBluetoothDeviceData().update(service_info(case["name"], case["address"], manufacturer=case["manufacturer"]))
    values = ha_values(update, {"temperature", "humidity", "pressure", "voltage", "movement_counter"})
    if "voltage" in values:
        values["voltage"] = values["voltage"] / 1000  # ruuvitag-ble gives millivolts; FavBlue volts
    return values


THEENGS = {"tempc": "temperature", "hum": "humidity", "batt": "battery", "volt": "voltage", "gravity": "specific_gravity"}


def theengs(case):
    query = {"id": case["address"], "name": case["name"] or ""}
    if case.get("service"):
        (uuid, data), = case["service"].items()
        query.update(servicedata=data.hex(), servicedatauuid=f"0x{uuid:04x}")
    if case.get("manufacturer"):
        (company, data), = case["manufacturer"].items()
        query["manufacturerdata"] = struct.pack("<H", company).hex() + data.hex()
    if case.get("theengs_uuid"):
        query["servicedatauuid"] = case["theengs_uuid"]  # how Theengs Gateway passes a listed service
    answer = decodeBLE(json.dumps(query))
    return json.loads(answer) if answer else {}


def xiaomi_custom_oracle(case):
    return {THEENGS[k]: v for k, v in theengs(case).items() if k in THEENGS}


# Tilt hydrometers and SwitchBot meters, read by Theengs Decoder.
tilt_oracle = switchbot_oracle = inkbird_oracle = thermobeacon_oracle = xiaomi_custom_oracle


def switchbot_meter(t_tenths, humidity, battery):
    """SwitchBot Meter service data: 'T', a byte, battery, tenths, whole degrees (bit 7: not negative), humidity."""
    whole, tenth = divmod(abs(t_tenths), 10)
    return bytes([0x54, 0x00, battery, tenth, whole | (0x80 if t_tenths >= 0 else 0), humidity])


def ibeacon_oracle(case):
    answer = theengs(case)
    u = answer["uuid"].upper()
    return {"beacon": {"kind": "ibeacon", "uuid": f"{u[:8]}-{u[8:12]}-{u[12:16]}-{u[16:20]}-{u[20:]}",
                       "major": answer["major"], "minor": answer["minor"], "power": answer["txpower"]}}


# MARK: Xiaomi MiBeacon

MIBEACON_SUPPORTED = {"temperature", "humidity", "battery", "illuminance", "moisture", "conductivity", "formaldehyde"}


def mibeacon_oracle(case):
    from xiaomi_ble import XiaomiBluetoothDeviceData
    parser = XiaomiBluetoothDeviceData(bindkey=case.get("oracle_key"))
    update = parser.update(service_info(case["name"], case["address"], service=case["service"]))
    return ha_values(update, MIBEACON_SUPPORTED)


def mibeacon_objects(product):
    """Objects a product of that kind sends, each quantity once, with edge or random values."""
    # LYWSD03MMC and MHO-C401 humidity in whole percent: Home Assistant drops their tenths.
    h = rng.randrange(0, 1001, 10 if product in (0x055B, 0x0387) else 1)
    t = rng.choice([-400, -1, 0, 215, 600, rng.randint(-400, 600)])
    climate = rng.choice([[(0x1004, struct.pack("<h", t))], [(0x1006, struct.pack("<H", h))],
                          [(0x100D, struct.pack("<hH", t, h))], [(0x4C01, struct.pack("<f", rng.randint(-160, 400) / 4))],
                          [(0x1004, struct.pack("<h", t)), (0x1006, struct.pack("<H", h))], []])
    extra = [(0x100A, bytes([rng.randint(0, 100)]))]
    if product in (0x0098, 0x03BC):
        extra += [(0x1007, rng.randint(0, 0xFFFFFF).to_bytes(3, "little")), (0x1008, bytes([rng.randint(0, 100)])),
                  (0x1009, struct.pack("<H", rng.randint(0, 5000)))]
    if product == 0x02DF:
        extra.append((0x1010, struct.pack("<H", rng.randint(0, 2000))))
    objects = climate + rng.sample(extra, rng.randint(0 if climate else 1, len(extra)))
    return b"".join(struct.pack("<HB", t, len(v)) + v for t, v in objects)


def mibeacon(address, product, payload, version=5, with_mac=True, key=None):
    """A MiBeacon frame; encrypted with `key` (v4/v5 with a MIC, v2/v3 without)."""
    control = version << 12 | 0x40 | (0x10 if with_mac else 0) | (0x08 if key else 0)
    counter = rng.randrange(256)
    head = struct.pack("<HHB", control, product, counter) + (mac_bytes(address)[::-1] if with_mac else b"")
    if not key:
        return head + payload
    ext = os.urandom(3)
    if version >= 4:
        nonce = mac_bytes(address)[::-1] + head[2:5] + ext
        sealed = AESCCM(key, tag_length=4).encrypt(nonce, payload, b"\x11")
        return head + sealed[:-4] + ext + sealed[-4:]
    nonce = head[0:5] + ext + mac_bytes(address)[::-1][:5]
    return head + AESCCM(key, tag_length=4).encrypt(nonce, payload, b"\x11")[:-4] + ext + b"\x00"


# MARK: Qingping, ThermoPro

def qingping_oracle(case):
    from qingping_ble import QingpingBluetoothDeviceData
    update = QingpingBluetoothDeviceData().update(service_info(case["name"], case["address"], service=case["service"]))
    return ha_values(update, {"temperature", "humidity", "battery", "pressure", "illuminance", "pm25", "pm10", "carbon_dioxide",
                              "motion", "light", "door", "problem"})


def qingping(address, product, flags=0x08):
    """A Qingping frame: flags, product, the address (least significant first), readings."""
    chunks = [(0x01, struct.pack("<hH", rng.randint(-400, 600), rng.randint(0, 1000))), (0x02, bytes([rng.choice([0, 55, 100, 0xFF])])),
              (0x07, struct.pack("<H", rng.randint(3000, 11000))), (0x09, struct.pack("<I", rng.randint(0, 100000))),
              (0x12, struct.pack("<HH", rng.randint(0, 999), rng.randint(0, 999))), (0x13, struct.pack("<H", rng.randint(400, 5000))),
              (0x08, bytes([rng.randint(0, 1)]) + struct.pack("<HB", rng.randint(0, 65535), rng.randint(0, 3))),
              (0x04, bytes([rng.randint(0, 2)])), (0x11, bytes([rng.randint(0, 1)]))]
    body = b"".join(bytes([t, len(v)]) + v for t, v in rng.sample(chunks, rng.randint(1, 4)))
    return bytes([flags, product]) + mac_bytes(address)[::-1] + body


def thermopro_oracle(case):
    from thermopro_ble import ThermoProBluetoothDeviceData
    update = ThermoProBluetoothDeviceData().update(service_info(case["name"], case["address"], manufacturer=case["manufacturer"]))
    return ha_values(update, {"temperature", "humidity", "battery"})


# MARK: BlueMaestro

def bluemaestro_oracle(case):
    from bluemaestro_ble import BlueMaestroBluetoothDeviceData
    update = BlueMaestroBluetoothDeviceData().update(service_info(case["name"], case["address"], manufacturer=case["manufacturer"]))
    # The Maxi models send no dew point; bluemaestro-ble works one out, FavBlue shows what was sent.
    supported = {"temperature", "humidity", "battery", "pressure"} | ({"dew_point"} if case["manufacturer"][0x0133][0] < 0x29 else set())
    return ha_values(update, supported)


def bluemaestro(product):
    battery, t, h = rng.randint(0, 100), rng.randint(-400, 850), rng.randint(0, 1000)
    if product < 0x29:
        last = rng.randint(3000, 11000) if product == 0x1B else rng.randint(-400, 300)
        body = struct.pack(">B4xhHh" if product != 0x1B else ">B4xhHH", battery, t, h, last) if product not in (0x08, 0x0D) \
            else struct.pack(">B4xh", battery, t)
    else:
        body = struct.pack("<B13xhhi", battery, t * 10, h * 10, rng.randint(30000, 110000))[:{0x29: 16, 0x2A: 18, 0x2B: 22}[product]]
    return bytes([product]) + body + bytes([0])  # one byte more than the fields, as the devices send


# MARK: Victron

def victron_oracle(case):
    from victron_ble.devices import detect_device_type
    from victron_ble.exceptions import AdvertisementKeyMismatchError
    raw, key = case["manufacturer"][0x02E1], case.get("oracle_key")
    if key is None:
        return {}
    try:
        parsed = detect_device_type(raw)(key.hex()).parse(raw)._data
    except AdvertisementKeyMismatchError:
        return {}
    names = {"battery_voltage": "voltage", "battery_charging_current": "current", "solar_power": "power",
             "voltage": "voltage", "current": "current", "soc": "battery"}
    out = {names[k]: v for k, v in parsed.items() if k in names and v is not None}
    if parsed.get("yield_today") is not None:
        out["energy"] = parsed["yield_today"] / 1000  # Wh; FavBlue says kWh
    return out


def victron(key, record_type, record):
    """An Instant Readout frame: prefix, model, type, IV, the key's first byte, the record in AES-CTR."""
    from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
    iv = rng.randrange(65536)
    sealed = Cipher(algorithms.AES(key), modes.CTR(iv.to_bytes(16, "little"))).encryptor().update(record)
    return bytes([0x10, 0x00]) + struct.pack("<HBH", 0xA060, record_type, iv) + bytes([key[0]]) + sealed


def bits(*fields):
    """Bit fields, least significant bit first, as Victron packs them: (value, width) pairs."""
    value, at = 0, 0
    for v, width in fields:
        value |= (v & ((1 << width) - 1)) << at
        at += width
    return value.to_bytes((at + 7) // 8, "little")


def govee_packed(temperature_tenths, humidity_tenths, battery):
    word = abs(temperature_tenths) * 1000 + humidity_tenths
    if temperature_tenths < 0:
        word |= 0x800000
    return word.to_bytes(3, "big") + bytes([battery])


# MARK: the cases

def cases():
    out = []
    n = [0]

    def add(family, oracle, name=None, manufacturer=None, service=None, **extra):
        n[0] += 1
        address = f"C4:7C:8D:{n[0] >> 8:02X}:{n[0] & 0xFF:02X}:{rng.randrange(256):02X}"
        out.append(dict(family=family, oracle=oracle, name=name, address=address, manufacturer=manufacturer,
                        service=service, **extra))
        return out[-1]

    for _ in range(60):
        add("bthome", bthome_oracle, service={0xFCD2: bytes([0x40]) + bthome_objects()})
    # A frame cut inside its last object: the objects before it are read, the cut one is not.
    for _ in range(6):
        whole = bthome_objects() + bytes([0x02, 0x34, 0x12])
        add("bthome", bthome_oracle, service={0xFCD2: bytes([0x40]) + whole[:-1]})
    # An object ID the specification does not have ends what can be read.
    add("bthome", bthome_oracle, service={0xFCD2: bytes([0x40, 0x01, 0x50, 0x02, 0xC4, 0x09]) + bytes([0xEE, 0x01, 0x02])})
    for _ in range(6):
        add("bthome", bthome_oracle, service={0xFCD2: bytes([0x40, 0x3A, rng.choice([0, 1, 2, 3, 4, 0x80])])})
    for kind in ["right"] * 6 + ["wrong"] * 3 + ["none"] * 3:
        key = os.urandom(16)
        case = add("bthome", bthome_oracle, service=None, kind=kind)
        case["service"] = {0xFCD2: bthome_encrypted(case["address"], key, bthome_objects(), os.urandom(4))}
        if kind == "right":
            case["key"] = case["oracle_key"] = key
        elif kind == "wrong":
            case["key"] = case["oracle_key"] = os.urandom(16)
    # The MAC included (information bit 1): six bytes, least significant first, before the
    # objects; an encrypted frame's nonce is built from it, as a relayed frame's must be.
    for _ in range(3):
        carried = ":".join(f"{rng.randrange(256):02X}" for _ in range(6))
        add("bthome", bthome_oracle, service={0xFCD2: bytes([0x42]) + mac_bytes(carried)[::-1] + bthome_objects()})
    for _ in range(3):
        key = os.urandom(16)
        carried = ":".join(f"{rng.randrange(256):02X}" for _ in range(6))
        case = add("bthome", bthome_oracle, service=None, kind="right")
        case["service"] = {0xFCD2: bthome_encrypted(case["address"], key, bthome_objects(), os.urandom(4), carried=carried)}
        case["key"] = case["oracle_key"] = key

    for t in [-400, -399, -1, 0, 1, 215, 999, 1000, rng.randint(-400, 1000)]:
        add("govee", govee_oracle, name="GVH5075_1A2B",
            manufacturer={0xEC88: bytes([0]) + govee_packed(t, rng.randint(0, 999), rng.randint(0, 100)) + bytes([0])})
    add("govee", govee_oracle, name="GVH5075_1A2B", manufacturer={0xEC88: bytes([0]) + govee_packed(215, 480, 0x80 | 55) + bytes([0])})
    for _ in range(4):
        t, h, b = rng.randint(-4000, 10000), rng.randint(0, 10000), rng.randint(0, 100)
        add("govee", govee_oracle, name="Govee_H5074_1A2B", manufacturer={0xEC88: bytes([0]) + struct.pack("<hHB", t, h, b) + bytes([2])})
        add("govee", govee_oracle, name=rng.choice(["GVH5101_1A2B", "GVH5104_1A2B", "GVH5105_1A2B", "GVH5174_1A2B", "GV5179_1A2B"]),
            manufacturer={0x0001: bytes([1, 1]) + govee_packed(t // 10, h // 10, b)})
        add("govee", govee_oracle, name="Govee_H5179_1A2B",
            manufacturer={0x8801: bytes([0xEC, 0, 1, 1]) + struct.pack("<hHB", t, h, b)})

    for t, h, p in [(-32767, 0, 0), (32767, 40000, 65534), (-32768, 65535, 65535), (4733, 15000, 49250), (100, 65534, 49250)] + [
            (rng.randint(-32767, 32767), rng.randint(0, 40000), rng.randint(0, 65534)) for _ in range(4)]:
        power = (rng.randint(0, 2046) << 5) | rng.randint(0, 31)
        body = bytes([5]) + struct.pack(">hHHhhhHBH", t, h, p, 12, -1000, 1036, power, rng.randint(0, 254), 7) + bytes(6)
        add("ruuvi", ruuvi_oracle, manufacturer={0x0499: body})
    # Data format 3's maximum values (docs.ruuvi.com): all but the humidity of 127.5 % are read.
    add("ruuvi", ruuvi_oracle, manufacturer={0x0499: bytes.fromhex("03FF7F63FFFF7FFF7FFF7FFFFFFF")})

    for _ in range(6):
        a = None
        case = add("xiaomi-custom", xiaomi_custom_oracle, name="ATC_001122")
        case["address"] = "A4:C1:38" + case["address"][8:]  # Theengs reads these under Xiaomi's OUI only
        mac = mac_bytes(case["address"])
        if rng.random() < 0.5:
            a = mac + struct.pack(">hBBHB", rng.randint(-400, 600), rng.randint(0, 100), rng.randint(0, 100), rng.randint(2000, 3300), 7)
        else:
            a = mac[::-1] + struct.pack("<hHHBBB", rng.randint(-4000, 6000), rng.randint(0, 10000), rng.randint(2000, 3300),
                                        rng.randint(0, 100), 9, 4)
        case["service"] = {0x181A: a}

    products = [0x055B, 0x0387, 0x01AA, 0x0347, 0x066F, 0x0098, 0x03BC, 0x02DF, 0x045B]
    for version in (2, 3, 4, 5) * 4:
        product = rng.choice(products)
        add("mibeacon", mibeacon_oracle)
        case = out[-1]
        case["service"] = {0xFE95: mibeacon(case["address"], product, mibeacon_objects(product), version, rng.random() < 0.7)}
    for version, kind in [(5, "right")] * 4 + [(4, "right")] * 2 + [(3, "right")] * 2 + [(2, "right")] + [(5, "wrong")] * 2 + [(4, "none"), (2, "none")]:
        key = os.urandom(16)
        product = rng.choice(products)
        case = add("mibeacon", mibeacon_oracle, kind=kind)
        case["service"] = {0xFE95: mibeacon(case["address"], product, mibeacon_objects(product), version, rng.random() < 0.5, key)}
        if kind == "right":
            case["key"] = case["oracle_key"] = key
        elif kind == "wrong":
            case["key"] = case["oracle_key"] = os.urandom(16)
    # Cut inside the last object: what comes before it is read.
    for _ in range(3):
        case = add("mibeacon", mibeacon_oracle)
        case["service"] = {0xFE95: mibeacon(case["address"], 0x055B, struct.pack("<HBB", 0x100A, 1, 77) + struct.pack("<HB", 0x100D, 4) + b"\x10\x01")}

    # States: motion (with the light as each model tells it), doors, floods, smoke, a low battery.
    def mibeacon_state_oracle(case):
        from xiaomi_ble import XiaomiBluetoothDeviceData
        update = XiaomiBluetoothDeviceData().update(service_info(case["name"], case["address"], service=case["service"]))
        out = ha_values(update, MIBEACON_SUPPORTED | {"motion", "light", "opening", "wet", "smoke", "battery_low"})
        # The MUE4094RT's motion is an event in xiaomi-ble, as in FavBlue (motion_seen).
        if any(e.event_type == "motion_detected" for e in (update.events or {}).values()):
            out["motion_seen"] = 1
        return out
    states = [(0x03DD, 0x0003, lambda: bytes([1])), (0x0A8D, 0x000F, lambda: rng.choice([0, 256]).to_bytes(3, "little")), (0x07F6, 0x000F, lambda: rng.choice([1, 100]).to_bytes(3, "little")),
              (0x0A83, 0x000F, lambda: rng.randrange(1 << 16).to_bytes(3, "little")), (0x0A8D, 0x1017, lambda: struct.pack("<I", rng.choice([0, 30, 31, 120, 1800]))),
              (0x3531, 0x4818, lambda: struct.pack("<H", rng.choice([0, 30, 60, 1800]))), (0x3531, 0x4A08, lambda: struct.pack("<f", rng.uniform(0, 2000))),
              (0x3531, 0x4805, lambda: struct.pack("<f", rng.uniform(0, 2000))), (0x07F6, 0x1018, lambda: bytes([rng.choice([0, 1])])),
              (0x098B, 0x1019, lambda: bytes([rng.choice([0, 1, 2])])), (0x098B, 0x4A12, lambda: bytes([rng.choice([1, 2])])),
              (0x098B, 0x4A1A, lambda: bytes([1])), (0x098B, 0x4A0F, lambda: bytes([1])), (0x0863, 0x1014, lambda: bytes([rng.choice([0, 1])])),
              (0x0863, 0x4806, lambda: bytes([rng.choice([0, 1])])), (0x0997, 0x1015, lambda: bytes([rng.choice([0, 1])])),
              (0x098B, 0x4A01, lambda: bytes([rng.choice([0, 1])]))]
    for product, object_id, value in states + states:
        case = add("mibeacon-state", mibeacon_state_oracle, places=1)
        body = value()
        case["service"] = {0xFE95: mibeacon(case["address"], product, struct.pack("<HB", object_id, len(body)) + body, 5, True)}

    for product in [0x01, 0x07, 0x0E, 0x10, 0x12, 0x18, 0x33, 0x5D, 0x62, 0x4F]:
        case = add("qingping", qingping_oracle, name="Qingping Temp RH Lite")
        case["service"] = {0xFDCD: qingping(case["address"], product, rng.choice([0x08, 0x48]))}
    case = add("qingping", qingping_oracle, name="Qingping")
    case["service"] = {0xFDCD: qingping(case["address"], 0x10)[:-1]}  # cut inside its last reading

    for t, h, b in [(-400, 0, 0), (600, 100, 2), (215, 48, 1), (-1, 55, 3), (rng.randint(-400, 600), rng.randint(0, 100), rng.randint(0, 3))]:
        raw = struct.pack("<Bh", 0xC2, t) + bytes([h, 0x2C | b, 0x00])  # the company ID's two bytes, then the rest
        add("thermopro", thermopro_oracle, name=rng.choice(["TP357 (2142)", "TP393 (1A2B)", "TP358 (55AA)"]),
            manufacturer={struct.unpack("<H", raw[:2])[0]: raw[2:]})

    # Tilt: an iBeacon whose UUID names its colour; major °F (those of whole hundredths in °C), minor gravity × 1000.
    for colour, f in zip([0x10, 0x20, 0x30, 0x40, 0x50, 0x60, 0x70, 0x80], [32, 41, 50, 59, 68, 77, 86, 104]):
        uuid = bytes.fromhex("a495bb") + bytes([colour]) + bytes.fromhex("c5b14b44b5121370f02d74de")
        add("tilt", tilt_oracle, manufacturer={0x004C: bytes([2, 0x15]) + uuid + struct.pack(">HHb", f, rng.randint(990, 1120), -59)})
    for t, h, b in [(-300, 0, 0), (265, 51, 100), (-5, 99, 64), (599, 45, 7), (rng.randint(-300, 600), rng.randint(0, 99), rng.randint(0, 100))]:
        add("switchbot", switchbot_oracle, service={rng.choice([0x0D00, 0xFD3D]): switchbot_meter(t, h, b)})
        # The Meter Plus also sends type 'i' (0x69).
        add("switchbot", switchbot_oracle, service={0xFD3D: bytes([0x69]) + switchbot_meter(t, h, b)[1:]})

    # Inkbird IBS-TH: the company ID is the temperature; humidity, probe, checksum, battery, type.
    # (Theengs leaves out a humidity of exactly 0 %, so the lowest edge here is 0.01 %.)
    for t, h, name in [(-4000, 1, "sps"), (2662, 5379, "sps"), (-1, 10000, "sps"), (1234, 0, "tps"), (2662, 4512, "tps"), (rng.randint(-4000, 6000), rng.randint(0, 10000), "sps")]:
        raw = struct.pack("<hH", t, h) + bytes([rng.randint(0, 1), 0x10, 0x80, rng.randint(0, 100), 0x08])
        add("inkbird", inkbird_oracle, name=name, manufacturer={struct.unpack("<H", raw[:2])[0]: raw[2:]})
    # ThermoBeacon: two bytes, the address, mV, temperature and humidity in sixteenths, uptime.
    for t, h in [(-640, 0), (338, 558), (1600, 1600), (rng.randint(-640, 1600), rng.randint(0, 1600))]:
        case = add("thermobeacon", thermobeacon_oracle)
        # 0x0014, which thermobeacon-ble accepts and Theengs does not, is in SensorDecoderTests.
        case["manufacturer"] = {rng.choice([0x0010, 0x0011, 0x0015, 0x0018, 0x001B]): bytes(2) + mac_bytes(case["address"])[::-1]
                                + struct.pack("<HhHI", rng.randint(2000, 3300), t, h, rng.randint(0, 99999))}

    for product in [0x08, 0x0D, 0x16, 0x17, 0x1B, 0x29, 0x2A, 0x2B]:
        add("bluemaestro", bluemaestro_oracle, name="TempoDisc", manufacturer={0x0133: bluemaestro(product)})

    for kind in ["right"] * 6 + ["wrong", "none"]:
        key = os.urandom(16)
        if rng.random() < 0.5:
            record_type, record = 0x01, bits((3, 8), (0, 8), (rng.randint(-2000, 6000), 16), (rng.randint(-300, 800), 16),
                                              (rng.randint(0, 5000), 16), (rng.randint(0, 900), 16), (rng.randint(0, 300), 9))
        else:
            record_type, record = 0x02, bits((rng.randint(0, 9000), 16), (rng.randint(900, 1500), 16), (0, 16), (0, 16), (3, 2),
                                              (rng.randint(-200000, 200000), 22), (rng.randint(0, 9999), 20), (rng.randint(0, 1000), 10))
        case = add("victron", victron_oracle, kind=kind)
        case["manufacturer"] = {0x02E1: victron(key, record_type, record)}
        if kind == "right":
            case["key"] = case["oracle_key"] = key
        elif kind == "wrong":
            other = os.urandom(16)
            case["key"] = case["oracle_key"] = bytes([key[0] ^ 1]) + other[1:]

    for _ in range(4):
        # Theengs reads major and minor as signed: above 32767 it is wrong, so they stay below
        # here (the unit tests hold 65535).
        body = bytes([2, 0x15]) + os.urandom(16) + struct.pack(">HHb", rng.randrange(32768), rng.randrange(32768), rng.randint(-100, -30))
        add("ibeacon", ibeacon_oracle, manufacturer={0x004C: body})
    more_families.cases(add, rng, service_info, theengs, govee_packed)
    return out


def quantum(value):
    """Half the last decimal place the oracle printed: some round a format's finer steps
    (RuuviTag's 0.005 °C, BTHome's 0.35 °C) to two places or one, where FavBlue keeps the step."""
    text = repr(float(value))
    places = len(text.split(".")[1]) if "." in text and "e" not in text else 0
    return 0.5 * 10 ** -places + 1e-9


def main():
    scan = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build", "debug", "favblue-scan")
    all_cases = cases()
    work = tempfile.mkdtemp(prefix="favblue-sensors-")
    capture, keys = os.path.join(work, "sensors.btsnoop"), os.path.join(work, "keys.txt")
    write(capture, [(c["address"], ad(c["name"], c["manufacturer"], c["service"], c.get("services"))) for c in all_cases])
    with open(keys, "w") as f:
        f.write("# address and key, one device a line\n")
        for c in all_cases:
            if "key" in c:
                f.write(f"{c['address']} {c['key'].hex()}\n")
    run = subprocess.run([scan, "--source", f"btsnoop:{capture}", "--fast", "--format", "json", "--sensor-keys", keys],
                         capture_output=True, text=True, timeout=120)
    lines = {}
    for line in run.stdout.splitlines():
        record = json.loads(line)
        lines[record["address"]] = record
    passed = failed = 0
    for c in all_cases:
        record = lines.get(c["address"])
        expected = c["oracle"](c)
        problem = None
        if record is None:
            problem = "not listed"
        elif "beacon" in expected:
            if record.get("beacon") != expected["beacon"]:
                problem = f"beacon {record.get('beacon')} != {expected['beacon']}"
        else:
            ours = record.get("readings") or {}
            if set(ours) != set(expected):
                problem = f"quantities {sorted(ours)} != oracle {sorted(expected)}"
            else:
                # The tolerance is the family's stated resolution (`places`: the format's, or the
                # oracle's where it rounds coarser), else half the oracle's last printed place;
                # never the looser of two.
                allowed = {k: 0.5 * 10 ** -c["places"] + 1e-9 if "places" in c else quantum(expected[k]) for k in ours}
                wrong = {k: (ours[k], expected[k]) for k in ours if abs(ours[k] - expected[k]) > allowed[k]}
                if wrong:
                    problem = f"values (ours, oracle) {wrong}"
            kind = c.get("kind")
            if not problem and kind in ("wrong", "none"):
                sensor = record.get("sensor") or {}
                if not sensor.get("encrypted") or (kind == "wrong") != bool(sensor.get("wrongKey")):
                    problem = f"an encrypted frame with {kind} key reads {sensor}"
        if problem:
            failed += 1
            print(f"FAIL {c['family']} {c['address']} {ad(c['name'], c['manufacturer'], c['service']).hex()}: {problem}")
        else:
            passed += 1
    print(f"{len(all_cases)} advertisements, {len(lines)} listed by favblue-scan")
    print(f"Sensors: {passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
