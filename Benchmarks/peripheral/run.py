#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""Act as a Device, measured against a Bumble central (central_peer.py, its controller exposed to
FavBlue over H4/TCP) on FavBlue's own host:

1. Start to first report: the release favblue under Xvfb imports original.json and starts its
   advertisement 11 times; the central, scanning, notes when it first hears it after each start.
2. Notifications: the central follows Battery Level and counts; favblue presses Send RATE times
   a second for SECONDS with the page on screen. Prints how many a second arrived, whether any
   were lost, and the main thread's busy share.
3. Discovery: the central connects and discovers the whole tree, in turn of FavBlue's server
   (original.json) and of Bumble's own GATT server with the same tree ("Original"), both in the
   central's process and in a process of its own over H4 (original_server.py), RUNS times each,
   timed from CONNECT to the dump; the dumps must be equal.

    meson-helpers/on-display python3 Benchmarks/peripheral/run.py [FAVBLUE_BINARY] [--seconds N] [--rate N] [--runs N]
"""
import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import json

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CENTRAL = os.path.join(ROOT, "Tests", "PeerTests", "peers", "central_peer.py")
PYTHON = os.path.join(os.environ.get("FAVBLUE_VENV", os.path.join(ROOT, ".venv-peers")), "bin", "python")
ORIGINAL = "F0:F1:F2:F3:F4:F8"
ORIGINAL_APART = "F0:F1:F2:F3:F4:FB"
ORIGINAL_SERVER = os.path.join(ROOT, "Tests", "PeerTests", "peers", "original_server.py")
NAME_HEX = b"Bench".hex()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Lines:
    """Every line a child prints, with the time it was read, by a thread of its own."""

    def __init__(self, stream):
        self.lock = threading.Lock()
        self.items = []
        threading.Thread(target=self.read, args=(stream,), daemon=True).start()

    def read(self, stream):
        for line in stream:
            with self.lock:
                self.items.append((time.monotonic(), line.rstrip("\n")))

    def snapshot(self):
        with self.lock:
            return list(self.items)

    def wait(self, prefix, timeout=30, after=0):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for i, (when, line) in enumerate(self.snapshot()):
                if i >= after and line.startswith(prefix):
                    return i, when, line
            time.sleep(0.002)
        sys.exit(f"no line {prefix!r} within {timeout} s: {[l for _, l in self.snapshot()][-20:]}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary", nargs="?", default=os.path.join(ROOT, ".build", "release", "favblue-bench"))
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--rate", type=int, default=4000)
    parser.add_argument("--runs", type=int, default=11)
    args = parser.parse_args()
    port, second = free_port(), free_port()
    central = subprocess.Popen([PYTHON, CENTRAL, "--transport", f"tcp-server:127.0.0.1:{port}", "--original",
                                "--second-transport", f"tcp-server:127.0.0.1:{second}"],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    said = Lines(central.stdout)
    apart = None

    def send(command):
        central.stdin.write(command + "\n")
        central.stdin.flush()

    said.wait("READY")
    tmp = tempfile.TemporaryDirectory()
    env = dict(os.environ, GSETTINGS_BACKEND="memory", FAVBLUE_PERIPHERAL_BENCHMARK=os.path.join(HERE, "original.json"),
               FAVBLUE_PERIPHERAL_BENCHMARK_SECONDS=str(args.seconds), FAVBLUE_PERIPHERAL_BENCHMARK_RATE=str(args.rate),
               FAVBLUE_PERIPHERAL_BENCHMARK_STARTS=str(args.runs),
               XDG_DATA_HOME=os.path.join(tmp.name, "data"), XDG_CACHE_HOME=os.path.join(tmp.name, "cache"))
    app = subprocess.Popen([args.binary, "--splash-ms", "0", "--storage", "memory", "--source", f"h4-tcp:127.0.0.1:{port}"],
                           env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    told = Lines(app.stderr)
    try:
        # 1. Start to first report.
        send("SCAN")
        send(f"WATCH {NAME_HEX}")
        delays = []
        after = 0
        for run in range(args.runs):
            i, _, line = told.wait(f"peripheral-benchmark start {run} ", timeout=60, after=after)
            after = i + 1
            started = int(line.split()[3])
            deadline = time.monotonic() + 5
            heard = None
            while heard is None and time.monotonic() < deadline:
                heard = next((int(l.split()[2]) for _, l in said.snapshot() if l.startswith("SEEN ") and int(l.split()[2]) > started), None)
                time.sleep(0.01)
            if heard is None:
                sys.exit(f"start {run}: the central never heard the advertisement")
            delays.append((heard - started) / 1000)
        address = next(l.split()[1] for _, l in said.snapshot() if l.startswith("SEEN "))
        told.wait("peripheral-benchmark starts-done", timeout=30)
        send("UNWATCH")
        send("STOPSCAN")

        # 2. Notifications.
        _, _, line = told.wait("peripheral-benchmark serving ", timeout=30)
        uuid = line.split()[2]
        send(f"CONNECT {address}")
        said.wait(f"CONNECTED {address}")
        send(f"COUNT {uuid}")
        said.wait(f"COUNTING {uuid}")
        _, _, line = told.wait("peripheral-benchmark {", timeout=args.seconds + 60)
        result = json.loads(line.split(" ", 1)[1])
        if "error" in result:
            sys.exit(result["error"])
        first_send = int(told.wait("peripheral-benchmark sending ")[2].split()[2])
        total = None
        for _ in range(100):
            mark = len(said.snapshot())
            send(f"TOTAL {uuid}")
            _, _, total = said.wait(f"TOTAL {uuid} ", after=mark)
            if int(total.split()[2]) >= result["sent"]:
                break
            time.sleep(0.1)
        received, first, last = (int(x) for x in total.split()[2:5])
        send("DISCONNECT")
        said.wait("DISCONNECTED")
        app.wait(timeout=30)

        # 3. Discovery, FavBlue's server (served by `favblue-scan serve`) against Bumble's.
        scan = os.path.join(os.path.dirname(args.binary), "favblue-scan")
        server = subprocess.Popen([scan, "serve", os.path.join(HERE, "original.json"), "--source", f"h4-tcp:127.0.0.1:{port}"],
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        served = Lines(server.stdout)
        served.wait('{"event": "advertising"', timeout=30)
        mark = len(said.snapshot())
        send("SCAN")
        send(f"WATCH {NAME_HEX}")
        _, _, seen = said.wait("SEEN ", after=mark)
        server_address = seen.split()[1]
        send("UNWATCH")
        send("STOPSCAN")
        # Bumble's own server with the same tree, in a process of its own over H4 as FavBlue's is.
        apart = subprocess.Popen([PYTHON, ORIGINAL_SERVER, f"tcp-client:127.0.0.1:{second}", ORIGINAL_APART],
                                 stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        if apart.stdout.readline().strip() != "READY":
            sys.exit("original_server.py did not start")
        times = {"favblue": [], "bumble": [], "apart": []}
        dumps = {}
        for _ in range(args.runs):
            for who, target in (("favblue", server_address), ("bumble", ORIGINAL), ("apart", ORIGINAL_APART)):
                mark = len(said.snapshot())
                began = time.monotonic()
                send(f"CONNECT {target}")
                _, connected, _ = said.wait(f"CONNECTED {target}", after=mark)
                send("DUMP")
                _, when, dump = said.wait("DUMP ", after=mark)
                times[who].append((when - began, when - connected))
                dumps[who] = dump
                mark = len(said.snapshot())
                send("DISCONNECT")
                said.wait("DISCONNECTED", after=mark)
                time.sleep(0.3)
        server.terminate()
        server.wait(timeout=10)
    finally:
        for proc in (app, central, apart):
            if proc is None:
                continue
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        tmp.cleanup()

    print(f"Start to the central's first report, {args.runs} starts (advertising interval 100 ms)")
    print(f"  median {statistics.median(delays):.1f} ms; each: {' '.join(f'{d:.0f}' for d in delays)}")
    seconds_to_all = (last - first_send) / 1e6
    print(f"Notifications (Send pressed {args.rate} times a second for {result['seconds']:.1f} s, the page on screen)")
    print(f"  sent {result['sent']}, received {received}, lost {result['sent'] - received}")
    print(f"  delivered {received / seconds_to_all:.0f} a second (first Send to the last arrival: {seconds_to_all:.2f} s)")
    print(f"  main thread busy {100 * result['main_thread_busy']:.1f} % while sending "
          f"({100 * result['quiet_main_thread_busy']:.1f} % idle before)")
    print(f"Discovery of the whole tree by Bumble's client, {args.runs} alternating runs (medians, ms)")
    for i, what in ((1, "discovery, connected to the dump"), (0, "whole, CONNECT to the dump")):
        f, b, a = (statistics.median(t[i] for t in times[who]) for who in ("favblue", "bumble", "apart"))
        print(f"  {what}: FavBlue's server {1000 * f:.1f}; Bumble's own server in the central's process "
              f"{1000 * b:.1f} (ratio {f / b:.2f}x), in a process of its own over H4 {1000 * a:.1f} (ratio {f / a:.2f}x)")
    print("  (the goal is for discovery; the whole adds the wait for an advertisement, 100 ms apart"
          " from FavBlue, Bumble's own default apart from the original. In the central's process, Bumble's"
          " server answers on the virtual air with no socket between; FavBlue's, and the one in a process of"
          " its own, answer over H4/TCP through the central's controller)")
    same = dumps["favblue"] == dumps["bumble"] == dumps["apart"]
    print(f"  the dumps are {'equal' if same else 'DIFFERENT: ' + ' / '.join(dumps[w] for w in ('favblue', 'bumble', 'apart'))}")


if __name__ == "__main__":
    main()
