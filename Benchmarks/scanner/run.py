#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""Busy-room benchmark: a btsnoop capture of 5,000 LE devices sending 2,000
advertising reports a second for 60 s, replayed into the real window of the
release favblue under Xvfb. Prints the main thread's busy share, frame-interval
p50/p95 from the GdkFrameClock, peak RSS and list refreshes per second.

The same window scanning a quiet room (10 devices, 10 reports a second) runs
first, so the cost of the busy room reads as a ratio measured on the same
machine in the same run: Xvfb renders with software GL, which alone costs
frames and about 100 MiB. The minimal C libadwaita window of Benchmarks/startup,
idle for 10 s on the same display, is the third figure: the busy room's peak RSS
against it (the goal: at most 1.5x).

    meson-helpers/on-display python3 Benchmarks/scanner/run.py [FAVBLUE_BINARY] [--seconds N] [--sensors N]
                                                               [--renderer cairo]

With --sensors N, N of the busy room's devices are BTHome thermometers whose readings change
in every report, so each one is decoded and its row's readings drawn again.
"""
import argparse
import json
import os
import random
import struct
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DEVICES = 5000
RATE = 2000
# Microseconds from 0000-01-01 to 1970-01-01, the btsnoop epoch.
EPOCH_DELTA = 0x00DCDDB30F2F8000


def advertising_report(address, name, rssi, service=b""):
    data = bytes([0x02, 0x01, 0x06]) + service
    if name:
        encoded = name.encode()
        data += bytes([len(encoded) + 1, 0x09]) + encoded
    report = bytes([0x01, 0x00, 0x01]) + address + bytes([len(data)]) + data + struct.pack("b", rssi)
    body = bytes([0x02]) + report
    return bytes([0x04, 0x3E, len(body)]) + body


def bthome(n, step):
    """BTHome v2 service data: a temperature that moves with every report, and humidity."""
    body = struct.pack("<HBBhBH", 0xFCD2, 0x40, 0x02, 2000 + (n + step) % 500, 0x03, 4800)
    return bytes([len(body) + 1, 0x16]) + body


def write_capture(path, seconds, count=DEVICES, rate=RATE, sensors=0):
    rng = random.Random(7)
    devices = []
    for n in range(count):
        address = bytes([n & 0xFF, (n >> 8) & 0xFF, 0x10, 0x20, 0x30, 0xC0])
        # Most devices name themselves; a fifth stay anonymous, as in a real room.
        name = f"Sensor {n:04d}" if n % 5 else None
        devices.append([address, name, rng.randint(-95, -40), n])
    start = 1_700_000_000_000_000 + EPOCH_DELTA
    with open(path, "wb") as f:
        f.write(b"btsnoop\0" + struct.pack(">II", 1, 1002))
        for i in range(seconds * rate):
            device = devices[rng.randrange(count)]
            device[2] = max(-100, min(-30, device[2] + rng.randint(-3, 3)))
            n = device[3]
            service = bthome(n, i) if n < sensors else b""
            # A sensor's name is short, so its readings fit in legacy advertising's 31 bytes.
            packet = advertising_report(device[0], f"T{n:04d}" if service else device[1], device[2], service)
            stamp = start + i * 1_000_000 // rate
            f.write(struct.pack(">IIIIq", len(packet), len(packet), 3, 0, stamp) + packet)


def print_table(rows, first, second, names):
    """Each row's figure in both runs and their ratio, with its aim."""
    print(f"{'':22s} {names[0]:>11s} {names[1]:>11s} {'ratio':>7s}")
    for label, key, scale, unit, aim in rows:
        a, b = first[key] * scale, second[key] * scale
        ratio = f"{a / b:6.2f}x" if b else "     -"
        print(f"{label:22s} {a:7.1f} {unit:<3s} {b:7.1f} {unit:<3s} {ratio}   {aim}")


def measure(binary, capture, seconds, tmp):
    env = dict(os.environ, GSETTINGS_BACKEND="memory", FAVBLUE_BENCHMARK_SECONDS=str(seconds),
               XDG_DATA_HOME=os.path.join(tmp, "data"), XDG_CACHE_HOME=os.path.join(tmp, "cache"))
    proc = subprocess.run([binary, "--splash-ms", "0", "--storage", "memory", "--source", f"btsnoop:{capture}"],
                          env=env, capture_output=True, text=True, timeout=seconds + 120)
    line = next((l for l in proc.stderr.splitlines() if l.startswith("scanner-benchmark ")), None)
    if line is None:
        sys.exit("favblue printed no result:\n" + proc.stderr[-2000:])
    return json.loads(line.split(" ", 1)[1])


def minimal_window_rss(tmp):
    """The C window's peak RSS in MiB after 10 s idle, built as Benchmarks/startup builds it."""
    sys.path.insert(0, os.path.join(ROOT, "Benchmarks", "startup"))
    from run import build_minimal
    proc = subprocess.Popen([build_minimal(tmp)], env=dict(os.environ, GSETTINGS_BACKEND="memory"),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(10)
    with open(f"/proc/{proc.pid}/status") as f:
        hwm_kb = next(int(l.split()[1]) for l in f if l.startswith("VmHWM:"))
    proc.terminate()
    proc.wait(timeout=10)
    return hwm_kb / 1024.0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary", nargs="?", default=os.path.join(ROOT, ".build", "release", "favblue-bench"))
    parser.add_argument("--seconds", type=int, default=60)
    parser.add_argument("--sensors", type=int, default=0, help="how many of the busy room's devices are BTHome sensors")
    parser.add_argument("--renderer", help="GTK's renderer (GSK_RENDERER) for FavBlue and the C window alike, "
                        "e.g. cairo: under Xvfb the GL one draws on the CPU and keeps its buffers in the heap")
    args = parser.parse_args()
    if args.renderer:
        os.environ["GSK_RENDERER"] = args.renderer
    with tempfile.TemporaryDirectory() as tmp:
        quiet_capture = os.path.join(tmp, "quiet-room.btsnoop")
        busy_capture = os.path.join(tmp, "busy-room.btsnoop")
        write_capture(quiet_capture, args.seconds, count=10, rate=10)
        write_capture(busy_capture, args.seconds, sensors=args.sensors)
        quiet = measure(args.binary, quiet_capture, args.seconds, tmp)
        busy = measure(args.binary, busy_capture, args.seconds, tmp)
        minimal = minimal_window_rss(tmp)
    print(f"{DEVICES} devices ({args.sensors} of them sensors), {RATE} reports/s, {busy['seconds']:.0f} s into the real window "
          f"(quiet room: 10 devices, 10 reports/s), GTK renderer: {os.environ.get('GSK_RENDERER', 'GTK chooses')}")
    rows = [
        ("main thread busy", "main_thread_busy", 100, "%", "aim < 25 %"),
        ("frame interval p50", "frame_interval_p50_ms", 1, "ms", ""),
        ("frame interval p95", "frame_interval_p95_ms", 1, "ms", "aim <= 33 ms"),
        ("peak RSS", "peak_rss_mib", 1, "MiB", "aim <= 150 MB"),
        ("list refreshes", "refreshes_per_second", 1, "/s", "at most 4"),
    ]
    print_table(rows, busy, quiet, ("busy", "quiet"))
    print(f"frames drawn           {busy['frames']:7d}    {quiet['frames']:7d}")
    print(f"rows shown at the end  {busy['rows']:7d}    {quiet['rows']:7d}")
    print(f"minimal C window, peak RSS after 10 s idle {minimal:.1f} MiB; busy room's peak against it "
          f"{busy['peak_rss_mib'] / minimal:.2f}x (aim <= 1.5x)")


if __name__ == "__main__":
    main()
