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


def timed(command, connected, done):
    """Starts a fresh peer, then runs `command(port)`: returns its whole time from start to exit
    and the split, in seconds: start to the stderr line holding `connected` (connection set-up,
    which includes waiting for the peer's next advertisement), from there to the line holding
    `done` (discovery and reads), and from there to exit."""
    port = free_port()
    peer = subprocess.Popen([PYTHON, PEER, "--transport", f"tcp-server:127.0.0.1:{port}", "--heart-rate", "1"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        for line in peer.stdout:
            if line.startswith("READY"):
                break
        start = time.monotonic()
        run = subprocess.Popen(command(port), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        marks, said = {}, []
        for line in run.stderr:
            said.append(line)
            for name, text in (("connected", connected), ("done", done)):
                if text in line and name not in marks:
                    marks[name] = time.monotonic()
        run.wait(timeout=60)
        end = time.monotonic()
        if run.returncode != 0 or len(marks) < 2:
            sys.exit(f"{command(port)[0]} failed: {''.join(said)[-1000:]}")
        return end - start, marks["connected"] - start, marks["done"] - marks["connected"], end - marks["done"]
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
                                           "--read", "--json", "--verbose"], "connected to", "discovered"))
        bumble.append(timed(lambda port: [PYTHON, os.path.join(HERE, "bumble_client.py"), f"tcp-client:127.0.0.1:{port}", ADDRESS],
                            "connected", "discovered and read"))
    f, b = ([statistics.median(r[i] for r in runs) for i in range(4)] for runs in (favblue, bumble))
    print(f"GATT discovery and read-all, whole process, {args.runs} alternating runs each (medians, s)")
    print(f"{'':20s} {'whole':>7s} {'set-up':>7s} {'browse':>7s} {'exit':>7s}   whole, each run")
    for name, m, runs in (("favblue-scan gatt", f, favblue), ("Bumble's client", b, bumble)):
        print(f"{name:20s} {m[0]:7.3f} {m[1]:7.3f} {m[2]:7.3f} {m[3]:7.3f}   {' '.join(f'{r[0]:.3f}' for r in runs)}")
    print("set-up: start to connected (the peer advertises once a second; both wait for it); browse: "
          "discovery and every read; exit: to the process's end")
    print(f"ratio {f[0] / b[0]:.2f}x whole (goal: at most 1.0); browse {f[2] / b[2]:.2f}x, exit {f[3] / b[3]:.2f}x")


if __name__ == "__main__":
    main()
