#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""Takes the tracker screenshot: Bumble peers advertising an AirTag, a SmartTag and a Tile away
from their owners (Tests/PeerTests/peers/le_peers.py --trackers), tracker alerts on, and the
AirTag's page once the rule called it out, driving the app through its accessibility tree as
the UI tests do (FAVBLUE_TRACKER_SPEEDUP shortens the rule):
    screenshot-trackers.py OUT_DIR NAME LANGUAGE STYLE WIDTH HEIGHT"""
import sys
import time

from shot import Shot

from harness import App  # noqa: E402  (Tests/ui, on the path through shot)
from peers import BumblePeers  # noqa: E402

shot = Shot(sys.argv)
words = shot.words(home=("Add New Devices", "Neue Geräte hinzufügen"), preferences=("Preferences", "Einstellungen"),
                   alerts=("Tracker Alerts", "Tracker-Warnungen"), details=("Details for AirTag", "Details zu AirTag"),
                   advice=("If you do not know", "Wenn Sie nicht wissen"), page=("Trackers", "Tracker"))
with BumblePeers(3, "--trackers") as peers, App("--source", peers.source, lang=shot.lang, home=shot.home,
                                                 env={"FAVBLUE_TRACKER_SPEEDUP": "3600", **shot.env}) as app:
    app.wait_for(lambda: words["home"] in app.names("button"), what="the home page")
    app.key("ctrl+comma")
    app.wait_for(lambda: words["preferences"] in app.frames(), what="Preferences")
    app.press(words["page"], role="page tab")
    time.sleep(0.5)
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
        time.sleep(4)
    time.sleep(3)
    app.press(words["details"])
    app.wait_for(lambda: any(n.startswith(words["advice"]) for n in app.names("label")), timeout=20, what="the advice")
    shot.take(app)
