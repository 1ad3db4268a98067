#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""Start-up benchmark: time from exec to the first window mapped (the X server's
MapNotify, as another client sees it), to the first presented frame, and RSS
after 5 s idle, for the release favblue (splash on) and a minimal C
GTK 4 + libadwaita window built the same way. Median of RUNS runs each.
favblue also prints when each start-up phase ended, so the extra time can be
placed.

    meson-helpers/on-display python3 Benchmarks/startup/run.py [FAVBLUE_BINARY] [--runs N]
"""
import os
import queue
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
RUNS = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else 5


class MapWatcher:
    """Timestamps every top-level MapNotify on the display, read from xev."""

    def __init__(self):
        self.proc = subprocess.Popen(["xev", "-root", "-event", "substructure"], stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.events = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        time.sleep(0.5)

    def _read(self):
        for line in self.proc.stdout:
            if line.startswith("MapNotify"):
                self.events.put(time.monotonic_ns() // 1000)

    def drain(self):
        while not self.events.empty():
            self.events.get_nowait()

    def next_map(self, timeout=20):
        return self.events.get(timeout=timeout)

    def close(self):
        self.proc.terminate()


def build_minimal(out_dir):
    flags = subprocess.run(["pkg-config", "--cflags", "--libs", "libadwaita-1"],
                           capture_output=True, text=True, check=True).stdout.split()
    binary = os.path.join(out_dir, "minimal-window")
    subprocess.run(["cc", "-O2", "-o", binary, os.path.join(HERE, "minimal-window.c"), *flags], check=True)
    return binary


def measure(argv, env, watcher, phases):
    watcher.drain()
    start_us = time.monotonic_ns() // 1000
    proc = subprocess.Popen(argv, env=env, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    first = None
    for line in proc.stderr:
        if line.startswith("startup-phase "):
            _, name, stamp = line.split()
            phases.setdefault(name, []).append((int(stamp) - start_us) / 1000.0)
        if line.startswith("first-frame "):
            first = int(line.split()[1])
            break
    mapped = watcher.next_map()
    time.sleep(5)
    with open(f"/proc/{proc.pid}/status") as f:
        rss_kb = next(int(l.split()[1]) for l in f if l.startswith("VmRSS:"))
    proc.terminate()
    proc.wait(timeout=10)
    return (mapped - start_us) / 1000.0, (first - start_us) / 1000.0, rss_kb / 1024.0


def main():
    args = [a for i, a in enumerate(sys.argv[1:], 1) if a != "--runs" and sys.argv[i - 1] != "--runs"]
    favblue = args[0] if args else os.path.join(ROOT, ".build", "release", "favblue")
    watcher = MapWatcher()
    with tempfile.TemporaryDirectory() as tmp:
        minimal = build_minimal(tmp)
        env = dict(os.environ, FAVBLUE_REPORT_FIRST_FRAME="1", GSETTINGS_BACKEND="memory",
                   XDG_DATA_HOME=os.path.join(tmp, "data"), XDG_CACHE_HOME=os.path.join(tmp, "cache"))
        results = {}
        phases = {"favblue": {}, "minimal C window": {}}
        # Alternate the two, so a slow spell of this noisy machine hits both alike.
        runs = {"favblue": [], "minimal C window": []}
        for _ in range(RUNS):
            runs["favblue"].append(measure([favblue, "--storage", "memory"], env, watcher, phases["favblue"]))
            runs["minimal C window"].append(measure([minimal], env, watcher, phases["minimal C window"]))
        for name, rs in runs.items():
            results[name] = tuple(statistics.median(r[i] for r in rs) for i in range(3))
        watcher.close()
        for name, (mapped, ms, rss) in results.items():
            print(f"{name:18s} mapped {mapped:7.1f} ms   first frame {ms:7.1f} ms   RSS after 5 s idle {rss:6.1f} MiB")
        fb, base = results["favblue"], results["minimal C window"]
        print(f"ratio favblue/minimal: mapped {fb[0] / base[0]:.2f}x, first frame {fb[1] / base[1]:.2f}x, RSS {fb[2] / base[2]:.2f}x")
        for app, marks in phases.items():
            print(f"{app} phases, ms after exec (median):")
            for name, stamps in sorted(marks.items(), key=lambda kv: statistics.median(kv[1])):
                print(f"  {statistics.median(stamps):7.1f}  {name}")


if __name__ == "__main__":
    main()
