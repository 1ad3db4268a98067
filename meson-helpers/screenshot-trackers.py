#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""Takes the tracker screenshot from the demo: its AirTag has been in the user's bag for two
hours, through four places. Tracker alerts are turned on in Preferences, as a user would, and
the AirTag's page is shown once the rule called it out, driving the app through its
accessibility tree as the UI tests do:
    screenshot-trackers.py OUT_DIR NAME LANGUAGE STYLE WIDTH HEIGHT"""
import sys
import time

from shot import Shot

from harness import App  # noqa: E402  (Tests/ui, on the path through shot)

shot = Shot(sys.argv)
words = shot.words(home=("Add New Devices", "Neue Geräte hinzufügen"), preferences=("Preferences", "Einstellungen"),
                   alerts=("Tracker Alerts", "Tracker-Warnungen"), details=("Details for AirTag", "Details zu AirTag"),
                   advice=("If you do not know", "Wenn Sie nicht wissen"), page=("Trackers", "Tracker"))
with App("--source", "demo", lang=shot.lang, home=shot.home, env=shot.env) as app:
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
    app.press(words["details"])
    app.wait_for(lambda: any(n.startswith(words["advice"]) for n in app.names("label")), timeout=20, what="the advice")
    shot.take(app)
