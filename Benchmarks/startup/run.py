#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""Start-up benchmark: time from exec to the first presented frame, and RSS
after 5 s idle, for the release favblue (splash on) and a minimal C
GTK 4 + libadwaita window built the same way. Median of 5 runs each.

    meson-helpers/on-display python3 Benchmarks/startup/run.py [FAVBLUE_BINARY]
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
RUNS = 5


def build_minimal(out_dir):
    flags = subprocess.run(["pkg-config", "--cflags", "--libs", "libadwaita-1"],
                           capture_output=True, text=True, check=True).stdout.split()
    binary = os.path.join(out_dir, "minimal-window")
    subprocess.run(["cc", "-O2", "-o", binary, os.path.join(HERE, "minimal-window.c"), *flags], check=True)
    return binary


def measure(argv, env):
    start_us = time.monotonic_ns() // 1000
    proc = subprocess.Popen(argv, env=env, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    first = None
    for line in proc.stderr:
        if line.startswith("first-frame "):
            first = int(line.split()[1])
            break
    time.sleep(5)
    with open(f"/proc/{proc.pid}/status") as f:
        rss_kb = next(int(l.split()[1]) for l in f if l.startswith("VmRSS:"))
    proc.terminate()
    proc.wait(timeout=10)
    return (first - start_us) / 1000.0, rss_kb / 1024.0


def main():
    favblue = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build", "release", "favblue")
    with tempfile.TemporaryDirectory() as tmp:
        minimal = build_minimal(tmp)
        env = dict(os.environ, FAVBLUE_REPORT_FIRST_FRAME="1", GSETTINGS_BACKEND="memory",
                   XDG_DATA_HOME=os.path.join(tmp, "data"), XDG_CACHE_HOME=os.path.join(tmp, "cache"))
        results = {}
        for name, argv in (("favblue", [favblue, "--storage", "memory"]), ("minimal C window", [minimal])):
            runs = [measure(argv, env) for _ in range(RUNS)]
            results[name] = (statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs))
        for name, (ms, rss) in results.items():
            print(f"{name:18s} first frame {ms:7.1f} ms   RSS after 5 s idle {rss:6.1f} MiB")
        fb, base = results["favblue"], results["minimal C window"]
        print(f"ratio favblue/minimal: first frame {fb[0] / base[0]:.2f}x, RSS {fb[1] / base[1]:.2f}x")


if __name__ == "__main__":
    main()
