#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""GATT browser benchmark: the release favblue under Xvfb connects over H4/TCP to Bumble's
gatt_peer.py, opens its Heart Rate service on the detail page and subscribes to the
measurement, which the peer notifies RATE times a second (100). Prints, for the same window
connected but quiet and then with values streaming in, the main thread's busy share and the
frame intervals (p50, p95, longest; the frame clock kept running), how many notifications a
second reached the log, and every one the peer sent against every one FavBlue received:
the cost of the stream reads as a ratio measured in one run.

    meson-helpers/on-display python3 Benchmarks/gatt/run.py [FAVBLUE_BINARY] [--seconds N] [--rate N]
"""
import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PEER = os.path.join(ROOT, "Tests", "PeerTests", "peers", "gatt_peer.py")
PYTHON = os.path.join(os.environ.get("FAVBLUE_VENV", os.path.join(ROOT, ".venv-peers")), "bin", "python")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary", nargs="?", default=os.path.join(ROOT, ".build", "release", "favblue-bench"))
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--rate", type=float, default=100)
    args = parser.parse_args()
    port = free_port()
    peer = subprocess.Popen([PYTHON, PEER, "--transport", f"tcp-server:127.0.0.1:{port}", "--heart-rate", str(args.rate)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        for line in peer.stdout:
            if line.startswith("READY"):
                break
        else:
            sys.exit("gatt_peer.py did not start")
        with tempfile.TemporaryDirectory() as tmp:
            env = dict(os.environ, GSETTINGS_BACKEND="memory", FAVBLUE_GATT_BENCHMARK=str(args.seconds),
                       FAVBLUE_GATT_BENCHMARK_DEVICE="F0:F1:F2:F3:F4:F7/le-random",
                       XDG_DATA_HOME=os.path.join(tmp, "data"), XDG_CACHE_HOME=os.path.join(tmp, "cache"))
            proc = subprocess.run([args.binary, "--splash-ms", "0", "--storage", "memory",
                                   "--source", f"h4-tcp:127.0.0.1:{port}"],
                                  env=env, capture_output=True, text=True, timeout=2 * args.seconds + 120)
    finally:
        peer.terminate()
        rest = peer.communicate(timeout=10)[0]
    sent = next((int(l.split()[2]) for l in rest.splitlines() if l.startswith("SENT 2A37 ")), None)
    line = next((l for l in proc.stderr.splitlines() if l.startswith("gatt-benchmark ")), None)
    if line is None:
        sys.exit("favblue printed no result:\n" + proc.stderr[-2000:])
    result = json.loads(line.split(" ", 1)[1])
    if "error" in result:
        sys.exit(result["error"])
    quiet, busy = result["quiet"], result["busy"]
    print(f"{args.rate:.0f} Heart Rate notifications/s for {args.seconds} s, the log on screen "
          f"(quiet: the same page, connected, nothing streaming)")
    print(f"{'':24s} {'streaming':>10s} {'quiet':>10s} {'ratio':>7s}")
    for label, key, scale, unit in [("main thread busy", "main_thread_busy", 100, "%"),
                                    ("frame interval p50", "frame_interval_p50_ms", 1, "ms"),
                                    ("frame interval p95", "frame_interval_p95_ms", 1, "ms"),
                                    ("longest frame interval", "frame_interval_max_ms", 1, "ms")]:
        b, q = busy[key] * scale, quiet[key] * scale
        ratio = f"{b / q:6.2f}x" if q else "     -"
        print(f"{label:24s} {b:7.1f} {unit:<2s} {q:7.1f} {unit:<2s} {ratio}")
    print(f"frames drawn             {busy['frames']:7.0f}    {quiet['frames']:7.0f}")
    print(f"notifications received   {result['notifications_per_second']:7.1f} /s while measured")
    received = result["notifications_received"]
    print(f"sent by the peer         {sent if sent is not None else '?':>7} (its own count, subscribe to unsubscribe)")
    print(f"received by FavBlue      {received:7d}  lost: {sent - received if sent is not None else '?'}")


if __name__ == "__main__":
    main()
