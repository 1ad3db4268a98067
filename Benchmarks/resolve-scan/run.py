#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""Whole-process resolution benchmark: favblue-scan (release) replays one generated capture of
1,000,000 reports from 5,000 devices, 1,000 of which change their private address every 60 s,
once without keys and once with the 100 bonded devices' keys (--keys). Prints each run's time
and peak memory (median of RUNS runs, alternating), the ratio with keys / without (goal: at
most 1.25x) and the resolution's cost per report in ns; checks that the bonded devices came
out as 100 rows under their identities. Then the same with --per-address: without the folding
rule (which folds the rotating devices that no key resolves), the ratio is resolution's alone.

    Benchmarks/resolve-scan/run.py [RUNS]     (default 5; builds the release products first)
"""

import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
REPORTS = 1_000_000


def build():
    for product in ("favblue-scan", "ResolveBench"):
        subprocess.run(["swift", "build", "-c", "release", "--product", product], cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL)
    return os.path.join(ROOT, ".build", "release")


def timed(command):
    """Wall seconds and the child's peak RSS in MiB."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    start = time.monotonic()
    out = subprocess.run(command, check=True, stdout=subprocess.PIPE).stdout
    seconds = time.monotonic() - start
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    # ru_maxrss of the children is the largest so far: each run is measured in a fresh process below.
    return seconds, max(peak, before) / 1024, out


def run_once(binary, capture, keys, fmt="null", extra=()):
    command = [os.path.join(binary, "favblue-scan"), "--source", f"btsnoop:{capture}", "--fast", "--format", fmt, *extra]
    if keys:
        command += ["--keys", keys]
    # A fresh interpreter per run, so the peak memory is this run's alone.
    probe = ("import resource,subprocess,sys,time;s=time.monotonic();"
             "subprocess.run(sys.argv[1:],check=True,stdout=subprocess.DEVNULL);"
             "print(time.monotonic()-s, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss/1024)")
    out = subprocess.run([sys.executable, "-c", probe, *command], check=True, stdout=subprocess.PIPE, text=True).stdout
    seconds, mib = map(float, out.split())
    return seconds, mib


def main():
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    binary = build()
    work = tempfile.mkdtemp(prefix="favblue-resolve-")
    capture, keys = os.path.join(work, "room.btsnoop"), os.path.join(work, "keys.txt")
    subprocess.run([os.path.join(binary, "ResolveBench"), "--write", capture, keys], check=True, stdout=subprocess.DEVNULL)

    # The result first: the bonded devices are one row each, under their identities.
    rows = [json.loads(line) for line in subprocess.run(
        [os.path.join(binary, "favblue-scan"), "--source", f"btsnoop:{capture}", "--fast", "--format", "json", "--keys", keys],
        check=True, stdout=subprocess.PIPE, text=True).stdout.splitlines() if line.strip()]
    identities = [r for r in rows if str(r.get("address", "")).startswith("C4:00:00:00:00:")]
    without = [json.loads(line) for line in subprocess.run(
        [os.path.join(binary, "favblue-scan"), "--source", f"btsnoop:{capture}", "--fast", "--format", "json"],
        check=True, stdout=subprocess.PIPE, text=True).stdout.splitlines() if line.strip()]
    print(f"rows without keys: {len(without)}; with keys: {len(rows)}, of which {len(identities)} under a bonded identity")

    for label, extra in (("", ()), (" --per-address", ("--per-address",))):
        plain, keyed = [], []
        for _ in range(runs):
            plain.append(run_once(binary, capture, None, extra=extra))
            keyed.append(run_once(binary, capture, keys, extra=extra))
        t0, m0 = statistics.median(s for s, _ in plain), statistics.median(m for _, m in plain)
        t1, m1 = statistics.median(s for s, _ in keyed), statistics.median(m for _, m in keyed)
        print(f"favblue-scan{label}, {REPORTS:,} reports, no keys:  {t0:.3f} s, peak {m0:.1f} MiB (median of {runs})")
        print(f"favblue-scan{label}, {REPORTS:,} reports, 100 keys: {t1:.3f} s, peak {m1:.1f} MiB")
        print(f"ratio with keys / without{label}: {t1 / t0:.3f}x (goal at most 1.25x)")
        print(f"resolution per report{label}: {(t1 - t0) / REPORTS * 1e9:.1f} ns")
    if len(identities) != 100:
        print("FAILED: the bonded devices did not come out as 100 identities")
        sys.exit(1)


if __name__ == "__main__":
    main()
