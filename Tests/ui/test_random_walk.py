# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""Three minutes of random controls and keys on the demo: the app stays up and says nothing
critical. The seed is printed; FAVBLUE_WALK_SEED=N walks the same way again."""

import os
import random
import sys
import unittest

from harness import App, retry_gtk_atspi_crash
from random_walk import PLACES, Walk

SECONDS = float(os.environ.get("FAVBLUE_WALK_SECONDS") or 180)


@retry_gtk_atspi_crash
class RandomWalkTests(unittest.TestCase):
    def test_three_minutes_of_random_controls_and_keys_leave_the_app_up_and_quiet(self):
        seed = int(os.environ.get("FAVBLUE_WALK_SEED") or random.SystemRandom().randrange(1 << 32))
        print(f"\nrandom walk seed {seed} (FAVBLUE_WALK_SEED={seed} walks it again)", file=sys.stderr, flush=True)
        with App("--source", "demo", storage="sqlite") as app:
            app.wait_for(lambda: "Add New Devices" in app.names("button"), what="the home page")
            walk = Walk(app, seed, log=lambda line: print(line, file=sys.stderr, flush=True))
            steps = walk.run(SECONDS)
            self.assertIsNone(app.proc.poll(), f"seed {seed}: the app is still running")
            critical = [line for line in app.stderr().splitlines() if "CRITICAL" in line]
            self.assertEqual(critical, [], f"seed {seed}: critical warnings after {steps} steps")
            self.assertEqual(sorted(set(PLACES) - walk.reached), [], f"seed {seed}: every place reached")


if __name__ == "__main__":
    unittest.main()
