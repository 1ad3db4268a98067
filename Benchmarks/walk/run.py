#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""A long random walk through the demo (the test command walks 3 minutes): random controls by
their accessibility action and random keys, with the way to each place the walk has not reached
yet taken now and then. It prints the seed, the steps, the places reached, and whether the app
stayed up without a critical warning.

    meson-helpers/on-display /usr/bin/python3 Benchmarks/walk/run.py [--minutes 30] [--seed N]

FAVBLUE_BIN names the app (the debug build otherwise)."""

import argparse
import os
import random
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "Tests", "ui"))

from harness import App  # noqa: E402
from random_walk import PLACES, Walk  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--minutes", type=float, default=30)
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 32)
    print(f"seed {seed}", flush=True)
    started = time.monotonic()
    with App("--source", "demo", storage="sqlite") as app:
        app.wait_for(lambda: "Add New Devices" in app.names("button"), what="the home page")
        walk = Walk(app, seed)
        failure = None
        try:
            walk.run(args.minutes * 60)
        except AssertionError as error:
            failure = str(error)
        critical = [line for line in app.stderr().splitlines() if "CRITICAL" in line]
    print(f"steps {walk.steps} in {time.monotonic() - started:.0f} s")
    print(f"places reached {len(walk.reached)} of {len(PLACES)}: {', '.join(sorted(walk.reached))}")
    print(f"critical warnings {len(critical)}")
    for line in critical[:20]:
        print("  " + line)
    print("app stayed up" if failure is None else f"app failed: {failure}")
    return 0 if failure is None and not critical else 1


if __name__ == "__main__":
    sys.exit(main())
