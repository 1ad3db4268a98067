#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""Takes the tracker screenshot: Bumble peers advertising an AirTag, a SmartTag and a Tile away
from their owners (Tests/PeerTests/peers/le_peers.py --trackers), tracker alerts on, and the
AirTag's page once the rule called it out, driving the app through its accessibility tree as
the UI tests do (FAVBLUE_TRACKER_SPEEDUP shortens the rule):
    screenshot-trackers.py OUT_DIR NAME LANGUAGE STYLE WIDTH HEIGHT"""
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "Tests", "ui"))
from harness import App, home_with  # noqa: E402
from peers import BumblePeers  # noqa: E402

out, name, lang, style, width, height = sys.argv[1:7]
home = home_with(width, height, layout="appmenu:close")
german = lang == "de"
words = {
    "home": "Neue Geräte hinzufügen" if german else "Add New Devices",
    "preferences": "Einstellungen" if german else "Preferences",
    "alerts": "Tracker-Warnungen" if german else "Tracker Alerts",
    "details": "Details zu AirTag" if german else "Details for AirTag",
    "advice": "Wenn Sie nicht wissen" if german else "If you do not know",
}
scheme = "prefer-dark" if style == "dark" else "prefer-light"
with BumblePeers(3, "--trackers") as peers, App("--source", peers.source, lang=lang, home=home,
                                                 env={"FAVBLUE_TRACKER_SPEEDUP": "3600", "ADW_DEBUG_COLOR_SCHEME": scheme}) as app:
    app.wait_for(lambda: words["home"] in app.names("button"), what="the home page")
    app.key("ctrl+comma")
    app.wait_for(lambda: words["preferences"] in app.frames(), what="Preferences")
    next(n for n, r, s in app.nodes() if s == words["alerts"] and r in ("check box", "switch", "toggle button")).do_action(0)
    time.sleep(1)
    app.key("Escape")
    app.press(words["home"])
    app.wait_for(lambda: words["details"] in app.names("button"), timeout=30, what="the AirTag")
    time.sleep(2)
    # A second scan session: where no place can be told, the rule asks for two.
    for _ in range(2):
        toggle = next(n for n, r, s in app.nodes() if r in ("push button", "button") and s in (
            "Stop Scanning", "Start Scanning", "Scannen beenden", "Scannen starten"))
        toggle.do_action(0)
        time.sleep(2)
    time.sleep(3)
    app.press(words["details"])
    app.wait_for(lambda: any(n.startswith(words["advice"]) for n in app.names("label")), timeout=20, what="the advice")
    subprocess.run(["xdotool", "mousemove", "0", "0"], check=True)
    time.sleep(1)
    subprocess.run(["import", "-window", app.window_id(), os.path.join(out, name + ".png")], check=True)
    print(os.path.join(out, name + ".png"))
