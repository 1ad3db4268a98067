#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""Gateways benchmark: 5,000 devices heard by 4 gateways, 2,000 BTtoMQTT messages a second
through a local mosquitto into the real window of the release favblue for 60 s (the Scanner
open, under Xvfb). Prints every message published against every message the app took in, the
main thread's busy share, frame-interval p50/p95, peak RSS and list refreshes.

The same 5,000 devices at the same rate from a capture replayed in real time (the local
radio's route, btsnoop instead of H4) run first, so the cost of the bus reads as a ratio on
the same machine in the same run.

    meson-helpers/on-display python3 Benchmarks/gateways/run.py [FAVBLUE_BINARY] [--seconds N]
"""
import argparse
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "Benchmarks", "scanner"))
from run import DEVICES, RATE, print_table, write_capture  # noqa: E402

GATEWAYS = 4


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def publish(port, seconds, sent):
    """RATE messages a second, shared by the gateways, each through its own mosquitto_pub -l."""
    rng = random.Random(7)
    devices = [[f"C0:30:20:10:{(n >> 8) & 0xFF:02X}:{n & 0xFF:02X}", f"Sensor {n:04d}" if n % 5 else None,
                rng.randint(-95, -40)] for n in range(DEVICES)]
    pipes = [subprocess.Popen(["mosquitto_pub", "-h", "127.0.0.1", "-p", str(port), "-l", "-t", f"home/gw{g}/BTtoMQTT/x"],
                              stdin=subprocess.PIPE) for g in range(GATEWAYS)]
    start = time.monotonic()
    total = seconds * RATE
    for i in range(total):
        device = devices[rng.randrange(DEVICES)]
        device[2] = max(-100, min(-30, device[2] + rng.randint(-3, 3)))
        report = {"id": device[0], "mac_type": 1, "rssi": device[2]}
        if device[1]:
            report["name"] = device[1]
        pipes[i % GATEWAYS].stdin.write((json.dumps(report) + "\n").encode())
        sent[0] += 1
        if i % 200 == 199:
            for p in pipes:
                p.stdin.flush()
            # Paced to RATE a second, against the clock, not by sleeping a fixed time.
            ahead = (i + 1) / RATE - (time.monotonic() - start)
            if ahead > 0:
                time.sleep(ahead)
    for p in pipes:
        p.stdin.close()
        p.wait()


def measure(binary, sources, seconds, tmp, env_extra=None):
    env = dict(os.environ, GSETTINGS_BACKEND="memory", FAVBLUE_BENCHMARK_SECONDS=str(seconds),
               XDG_DATA_HOME=os.path.join(tmp, "data"), XDG_CACHE_HOME=os.path.join(tmp, "cache"), **(env_extra or {}))
    args = [binary, "--splash-ms", "0", "--storage", "memory"]
    for source in sources:
        args += ["--source", source]
    proc = subprocess.Popen(args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    return proc


def result(proc, seconds):
    _, err = proc.communicate(timeout=seconds + 120)
    line = next((l for l in err.splitlines() if l.startswith("scanner-benchmark ")), None)
    if line is None:
        sys.exit("favblue printed no result:\n" + err[-2000:])
    return json.loads(line.split(" ", 1)[1])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary", nargs="?", default=os.path.join(ROOT, ".build", "release", "favblue-bench"))
    parser.add_argument("--seconds", type=int, default=60)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        os.chmod(tmp, 0o755)
        capture = os.path.join(tmp, "busy-room.btsnoop")
        empty = os.path.join(tmp, "empty.btsnoop")
        write_capture(capture, args.seconds)
        write_capture(empty, 0, count=1, rate=1)
        local = result(measure(args.binary, [f"btsnoop:{capture}"], args.seconds, tmp), args.seconds)

        port = free_port()
        config = os.path.join(tmp, "mosquitto.conf")
        with open(config, "w") as f:
            f.write(f"listener {port} 127.0.0.1\nallow_anonymous true\nmax_queued_messages 0\n")
        broker = subprocess.Popen(["/usr/sbin/mosquitto", "-c", config], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            time.sleep(0.5)
            # This computer's own source is an empty capture: every report comes through the broker.
            proc = measure(args.binary, [f"btsnoop:{empty}", f"Gateways=mqtt://127.0.0.1:{port}/home"], args.seconds + 5, tmp)
            time.sleep(3)
            sent = [0]
            publisher = threading.Thread(target=publish, args=(port, args.seconds, sent))
            publisher.start()
            publisher.join()
            bus = result(proc, args.seconds)
        finally:
            broker.kill()
    print(f"{DEVICES} devices, {GATEWAYS} gateways, {RATE} messages/s for {args.seconds} s into the real window")
    taken = bus["source_messages"]
    lost = "none lost" if taken >= sent[0] else f"{sent[0] - taken} missing"
    print(f"messages published {sent[0]}, taken in by FavBlue {taken} ({lost})")
    rows = [
        ("main thread busy", "main_thread_busy", 100, "%", "aim <= 25 %"),
        ("process CPU", "process_cpu", 100, "%", ""),
        ("frame interval p50", "frame_interval_p50_ms", 1, "ms", ""),
        ("frame interval p95", "frame_interval_p95_ms", 1, "ms", "aim <= 33 ms"),
        ("peak RSS", "peak_rss_mib", 1, "MiB", ""),
        ("list refreshes", "refreshes_per_second", 1, "/s", "at most 4"),
    ]
    print_table(rows, bus, local, ("broker", "capture"))
    print(f"rows shown at the end  {bus['rows']:7d}    {local['rows']:7d}")


if __name__ == "__main__":
    main()
