#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""GATT discovery and read-all against Bumble's own client: the same peer (gatt_peer.py, a
fresh one each run, its controller over H4/TCP), the whole process timed, FavBlue's
`favblue-scan gatt ADDRESS --read --json` and bumble_client.py alternating. Prints each
one's median and their ratio (the goal: at most 1.0).

    python3 Benchmarks/gatt-vs-bumble/run.py [FAVBLUE_SCAN_BINARY] [--runs N]
"""
import argparse
import os
import socket
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PEER = os.path.join(ROOT, "Tests", "PeerTests", "peers", "gatt_peer.py")
PYTHON = os.path.join(os.environ.get("FAVBLUE_VENV", os.path.join(ROOT, ".venv-peers")), "bin", "python")
ADDRESS = "F0:F1:F2:F3:F4:F7"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def timed(command):
    """Starts a fresh peer, then times `command(port)` from start to exit, in seconds."""
    port = free_port()
    peer = subprocess.Popen([PYTHON, PEER, "--transport", f"tcp-server:127.0.0.1:{port}", "--heart-rate", "1"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        for line in peer.stdout:
            if line.startswith("READY"):
                break
        start = time.monotonic()
        run = subprocess.run(command(port), capture_output=True, text=True, timeout=60)
        elapsed = time.monotonic() - start
        if run.returncode != 0:
            sys.exit(f"{command(port)[0]} failed: {run.stderr[-1000:]}")
        return elapsed
    finally:
        peer.kill()
        peer.wait()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary", nargs="?", default=os.path.join(ROOT, ".build", "release", "favblue-scan"))
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    favblue, bumble = [], []
    for _ in range(args.runs):
        favblue.append(timed(lambda port: [args.binary, "gatt", f"{ADDRESS}/le-random", "--source", f"h4-tcp:127.0.0.1:{port}",
                                           "--read", "--json"]))
        bumble.append(timed(lambda port: [PYTHON, os.path.join(HERE, "bumble_client.py"), f"tcp-client:127.0.0.1:{port}", ADDRESS]))
    f, b = statistics.median(favblue), statistics.median(bumble)
    print(f"GATT discovery and read-all, whole process, {args.runs} alternating runs each")
    print(f"favblue-scan gatt   median {f:.3f} s   runs {' '.join(f'{x:.3f}' for x in favblue)}")
    print(f"Bumble's client     median {b:.3f} s   runs {' '.join(f'{x:.3f}' for x in bumble)}")
    print(f"ratio {f / b:.2f}x (goal: at most 1.0)")


if __name__ == "__main__":
    main()
