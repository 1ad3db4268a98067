#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""Decoding's instruction guard: counts the instructions DecodeBench takes to fold a fixed
capture of 100,000 reports (room.py) into the device table, under callgrind, and compares the
count with the one kept in instructions.txt. An instruction count repeats whatever else the
machine does, so a growth over 10 % is a change in the code, not noise. Prints the count, the
ratio to the kept one and the five functions that cost most; exits 1 when it grew by more than
10 %. Not part of the test command.

    swift build -c release --product DecodeBench
    python3 Benchmarks/decode/guard.py [--update] [--reports N] [--binary PATH]

--update keeps today's count. Needs valgrind (Debian's package).
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
KEPT = os.path.join(HERE, "instructions.txt")
LIMIT = 1.10


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "DecodeBench"))
    parser.add_argument("--reports", type=int, default=100_000)
    parser.add_argument("--update", action="store_true")
    args = parser.parse_args()
    if not shutil.which("valgrind"):
        sys.exit("valgrind is not installed: apt-get install valgrind")
    if not os.access(args.binary, os.X_OK):
        sys.exit(f"{args.binary} is missing: swift build -c release --product DecodeBench")
    with tempfile.TemporaryDirectory() as tmp:
        capture = os.path.join(tmp, "room.btsnoop")
        subprocess.run([sys.executable, os.path.join(HERE, "room.py"), capture, str(args.reports)], check=True)
        # Valgrind 3.19 cannot read the DWARF 5 that Swift writes; the symbols are enough.
        binary = os.path.join(tmp, "DecodeBench")
        subprocess.run(["strip", "--strip-debug", "-o", binary, args.binary], check=True)
        out = os.path.join(tmp, "callgrind.out")
        run = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", binary, capture],
                             capture_output=True, text=True)
        if run.returncode != 0 or not os.path.exists(out):
            sys.exit("callgrind failed:\n" + run.stderr[-2000:])
        print(run.stdout.strip())
        count = next(int(line.split()[1]) for line in open(out) if line.startswith(("summary:", "totals:")))
        annotated = subprocess.run(["callgrind_annotate", out], capture_output=True, text=True).stdout
    top = [line for line in annotated.splitlines() if re.match(r"^\s*[\d,]+ \(\s*[\d.]+%\)\s+\S", line)
           and "PROGRAM TOTALS" not in line][:5]
    print(f"instructions for {args.reports:,} reports: {count:,} ({count / args.reports:,.0f} a report, start-up included)")
    print("most instructions, by function (own cost):")
    names = [line.split(")", 1)[1].strip().split(" [")[0].split(":", 1)[-1] for line in top]
    if shutil.which("swift-demangle"):
        names = subprocess.run(["swift-demangle", "--simplified"], input="\n".join(names), capture_output=True,
                               text=True).stdout.splitlines() or names
    for line, name in zip(top, names):
        print(f"  {line.split(')', 1)[0].strip()})  {name[:110]}")
    if args.update:
        with open(KEPT, "w") as f:
            f.write(f"{count}\n")
        print(f"kept in {os.path.relpath(KEPT, ROOT)}")
        return
    kept = int(open(KEPT).read().split()[0])
    ratio = count / kept
    print(f"kept: {kept:,}; today / kept: {ratio:.3f}")
    if ratio > LIMIT:
        print(f"decoding takes {100 * (ratio - 1):.0f} % more instructions than the kept count: "
              "profile it before keeping the new count with --update")
        sys.exit(1)


if __name__ == "__main__":
    main()
