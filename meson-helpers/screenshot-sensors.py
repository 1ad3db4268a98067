#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""Takes the sensor screenshots from the demo, which has five sensors whose readings drift
slowly: the Scanner searching for them, with their readings (NAME-scanner), and the greenhouse's page (NAME), its
readings and their History:
    screenshot-sensors.py OUT_DIR NAME LANGUAGE STYLE WIDTH HEIGHT"""
import sys
import time

from shot import Shot

from harness import App  # noqa: E402  (Tests/ui, on the path through shot)

shot = Shot(sys.argv)
words = shot.words(home=("Add New Devices", "Neue Geräte hinzufügen"), details=("Details for Greenhouse", "Details zu Greenhouse"),
                   heading=("Readings", "Messwerte"))
with App("--source", "demo", lang=shot.lang, home=shot.home, env=shot.env) as app:
    app.wait_for(lambda: words["home"] in app.names("button"), what="the home page")
    app.press(words["home"])
    app.wait_for(lambda: words["details"] in app.names("button"), timeout=30, what="the greenhouse")
    # The sensors alone, found by the start of their addresses, as a user looking for them would.
    app.key("ctrl+f")
    app.type_text("C4:7C")
    time.sleep(3)
    shot.take(app, "-scanner")
    app.key("Escape")
    app.press(words["details"])
    app.wait_for(lambda: words["heading"] in app.names("label"), what="the Readings section")
    # A reading every 10 s into the last hour: the second draws the History lines.
    time.sleep(22)
    shot.take(app)
