#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""Decoding cost: favblue-scan (release) replays one generated capture of 1,000,000 reports
from 5,000 devices, 1,000 of them sensors, the other devices repeating their data with a new
signal. The sensors are of every family FavBlue reads: each advertisement the oracle test
generates (Tests/sensors/oracles.py) that reads as a sensor is one device, every other report
of it with its last byte changed; the rest are BTHome, MiBeacon, Xiaomi custom firmware, Govee,
RuuviTag and Qingping sensors whose readings change in every report. Each run writes every
device's JSON line. A sensor's frame is decoded when read, not per report. Runs with decoding and
with FAVBLUE_SENSORS=off alternate; prints each one's time and peak memory (median of RUNS),
the ratio (goal: at most 1.05x), the median of the paired runs' ratios by wall clock and by CPU
time with their spread, the ratio of the fastest runs, and how many devices came out with readings.

    .venv-peers/bin/python Benchmarks/sensors/run.py [RUNS]
                                 (default 5; builds the release favblue-scan first)
"""

import json
import os
import random
import statistics
import struct
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "Tests", "sensors"))
from capture import EPOCH_2023, address_bytes  # noqa: E402

REPORTS = 1_000_000
DEVICES = 5_000
SENSORS = 1_000
rng = random.Random(44)


def sensor_frame(family, n, address):
    """One advertisement of a sensor of `family`, its readings moved on by `n`."""
    t = 200 + n % 50
    if family == 0:  # BTHome v2: packet id, temperature, humidity, battery
        return [(0x16, struct.pack("<HBBBBhBHBB", 0xFCD2, 0x40, 0x00, n & 0xFF, 0x02, t * 10, 0x03, 4800 + n % 100, 0x01, 80))]
    if family == 1:  # MiBeacon v5 with the address: temperature and humidity
        mac = address_bytes(address)
        return [(0x16, struct.pack("<HHHB", 0xFE95, 0x5050, 0x055B, n & 0xFF) + mac + struct.pack("<HBhH", 0x100D, 4, t, 480))]
    if family == 2:  # pvvx custom firmware
        return [(0x16, struct.pack("<H", 0x181A) + address_bytes(address) + struct.pack("<hHHBBB", t * 10, 4800, 3000, 80, n & 0xFF, 4))]
    if family == 3:  # Govee H5075
        word = t * 1000 + 480
        return [(0xFF, struct.pack("<HB", 0xEC88, 0) + word.to_bytes(3, "big") + bytes([64, 0])), (0x09, b"GVH5075_1A2B")]
    if family == 4:  # RuuviTag data format 5
        body = bytes([5]) + struct.pack(">hHHhhhHBH", t * 20, 20000, 50000, 12, -1000, 1036, 0xAC36, n & 0xFF, 7) + bytes(6)
        return [(0xFF, struct.pack("<H", 0x0499) + body)]
    # Qingping CGDK2: temperature and humidity, battery
    return [(0x16, struct.pack("<HBB", 0xFDCD, 0x08, 0x10) + address_bytes(address) + struct.pack("<BBhHBBB", 1, 4, t, 480, 2, 1, 90))]


def ad(structures):
    out = bytes([0x02, 0x01, 0x06])
    for kind, body in structures:
        out += bytes([len(body) + 1, kind]) + body
    return out


def every_family(scan, work):
    """The oracle test's advertisements that read as sensors without a key, by address."""
    import oracles
    from capture import ad as whole, write as write_capture
    cases = oracles.cases()
    ads = {c["address"]: whole(c["name"], c["manufacturer"], c["service"], c.get("services")) for c in cases}
    path = os.path.join(work, "families.btsnoop")
    write_capture(path, list(ads.items()))
    rows = [json.loads(line) for line in subprocess.run([scan, "--source", f"btsnoop:{path}", "--fast", "--format", "json"],
                                                        check=True, stdout=subprocess.PIPE, text=True).stdout.splitlines()]
    read = {r["address"] for r in rows if r.get("readings")}
    families = sorted({c["family"] for c in cases if c["address"] in read})
    return {a: d for a, d in ads.items() if a in read}, families


def write(path, family_ads):
    addresses = list(family_ads)[:SENSORS // 2]
    addresses += [f"C8:{i >> 16 & 0xFF:02X}:{i >> 8 & 0xFF:02X}:{i & 0xFF:02X}:{rng.randrange(256):02X}:{rng.randrange(256):02X}"
                  for i in range(DEVICES - len(addresses))]
    others = {a: ad([(0xFF, struct.pack("<H", 0x004C) + bytes([0x10, 0x05]) + os.urandom(5))]) for a in addresses[SENSORS:]}
    last = REPORTS // DEVICES - 1
    with open(path, "wb") as f:
        f.write(b"btsnoop\0" + struct.pack(">II", 1, 1002))
        for i in range(REPORTS):
            k = i % DEVICES
            address = addresses[k]
            n = i // DEVICES
            if address in family_ads:
                data = family_ads[address]
                if n % 2 and n != last:  # every other report changed, the last as generated
                    data = data[:-1] + bytes([data[-1] ^ 0x01])
            elif k < SENSORS:
                data = ad(sensor_frame(k % 6, n, address))
            else:
                data = others[address]
            report = (struct.pack("<H", 0x0000) + bytes([0x01]) + address_bytes(address) + bytes([0x01, 0x00, 0xFF, 0x7F])
                      + struct.pack("b", -40 - i % 50) + struct.pack("<H", 0) + bytes([0x00]) + bytes(6) + bytes([len(data)]) + data)
            body = bytes([0x0D, 0x01]) + report
            packet = bytes([0x04, 0x3E, len(body)]) + body
            f.write(struct.pack(">IIIIq", len(packet), len(packet), 3, 0, EPOCH_2023 + i * 100) + packet)


def run_once(scan, capture, decoding):
    env = dict(os.environ)
    if not decoding:
        env["FAVBLUE_SENSORS"] = "off"
    # A fresh interpreter per run, so the peak memory is this run's alone.
    probe = ("import resource,subprocess,sys,time;s=time.monotonic();"
             "subprocess.run(sys.argv[1:],check=True,stdout=subprocess.DEVNULL);"
             "u=resource.getrusage(resource.RUSAGE_CHILDREN);"
             "print(time.monotonic()-s, u.ru_utime+u.ru_stime, u.ru_maxrss/1024)")
    # JSON, so both runs write every device's line and the decoding run reads each sensor.
    command = [scan, "--source", f"btsnoop:{capture}", "--fast", "--format", "json"]
    out = subprocess.run([sys.executable, "-c", probe, *command], check=True, stdout=subprocess.PIPE, text=True, env=env).stdout
    seconds, cpu, mib = map(float, out.split())
    return seconds, cpu, mib


def main():
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    subprocess.run(["swift", "build", "-c", "release", "--product", "favblue-scan"], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    scan = os.path.join(ROOT, ".build", "release", "favblue-scan")
    work = tempfile.mkdtemp(prefix="favblue-sensors-bench-")
    capture = os.path.join(work, "room.btsnoop")
    family_ads, families = every_family(scan, work)
    print(f"{len(family_ads)} of the sensors are the oracle test's advertisements, of {len(families)} families")
    write(capture, family_ads)
    rows = [json.loads(line) for line in subprocess.run(
        [scan, "--source", f"btsnoop:{capture}", "--fast", "--format", "json"], check=True, stdout=subprocess.PIPE,
        text=True).stdout.splitlines() if line.strip()]
    with_readings = sum(1 for r in rows if r.get("readings"))
    print(f"{len(rows)} devices, {with_readings} with readings (goal {SENSORS})")
    on, off = [], []
    for _ in range(runs):
        on.append(run_once(scan, capture, True))
        off.append(run_once(scan, capture, False))
    t1, m1 = statistics.median(r[0] for r in on), statistics.median(r[2] for r in on)
    t0, m0 = statistics.median(r[0] for r in off), statistics.median(r[2] for r in off)
    print(f"favblue-scan, {REPORTS:,} reports, decoding off: {t0:.3f} s, peak {m0:.1f} MiB (median of {runs})")
    print(f"favblue-scan, {REPORTS:,} reports, decoding on:  {t1:.3f} s, peak {m1:.1f} MiB")
    print(f"ratio on / off: {t1 / t0:.3f}x (goal at most 1.05x); memory {m1 / m0:.3f}x")
    # The machine's speed drifts between runs: each run with decoding is also compared with the
    # run without it just after, and the CPU time (user and system) beside the wall-clock time.
    paired = sorted(a[0] / b[0] for a, b in zip(on, off))
    cpu = sorted(a[1] / b[1] for a, b in zip(on, off))
    print(f"paired runs: wall-clock ratio median {statistics.median(paired):.3f}x (lowest {paired[0]:.3f}x, highest {paired[-1]:.3f}x);"
          f" CPU time ratio median {statistics.median(cpu):.3f}x (lowest {cpu[0]:.3f}x, highest {cpu[-1]:.3f}x)")
    # The fastest run of each is the one the machine disturbed least.
    fastest = min(r[1] for r in on) / min(r[1] for r in off)
    print(f"fastest runs by CPU time: on {min(r[1] for r in on):.3f} s, off {min(r[1] for r in off):.3f} s, ratio {fastest:.3f}x")
    print(f"decoding per sensor report: {(t1 - t0) / (REPORTS * SENSORS / DEVICES) * 1e9:.0f} ns")
    if with_readings != SENSORS:
        sys.exit(1)


if __name__ == "__main__":
    main()
