# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""What the driven screenshot scripts share: their arguments (OUT_DIR NAME LANGUAGE STYLE
WIDTH HEIGHT, then their own), a home whose window opens at that size under GNOME's title-bar
layout (a close button only), the language's words, the colour scheme, and the picture."""
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "Tests", "ui"))
from harness import home_with  # noqa: E402


class Shot:
    def __init__(self, argv):
        self.out, self.name, self.lang, style, width, height = argv[1:7]
        self.extra = argv[7:]
        self.home = home_with(width, height, layout="appmenu:close")
        self.german = self.lang == "de"
        self.scheme = "prefer-dark" if style == "dark" else "prefer-light"
        self.env = {"ADW_DEBUG_COLOR_SCHEME": self.scheme}

    def words(self, **pairs):
        """Each word as (English, German), picked for the language."""
        return {key: german if self.german else english for key, (english, german) in pairs.items()}

    def path(self, suffix=""):
        return os.path.join(self.out, self.name + suffix + ".png")

    def take(self, app, suffix=""):
        """The window, with the pointer out of the way, as OUT_DIR/NAME[suffix].png."""
        subprocess.run(["xdotool", "mousemove", "0", "0"], check=True)
        time.sleep(1)
        subprocess.run(["import", "-window", app.window_id(), self.path(suffix)], check=True)
        print(self.path(suffix))
