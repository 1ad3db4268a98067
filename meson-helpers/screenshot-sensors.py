#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""Takes the sensor screenshots: Bumble peers advertising as home sensors do (a BTHome
thermometer, an encrypted BTHome freezer, a Govee hygrometer; Tests/PeerTests/peers/le_peers.py
--sensors), the Scanner with their readings (NAME-scanner) and the thermometer's page (NAME),
its readings and their History:
    screenshot-sensors.py OUT_DIR NAME LANGUAGE STYLE WIDTH HEIGHT"""
import sys
import time

from shot import Shot

from harness import App  # noqa: E402  (Tests/ui, on the path through shot)
from peers import BumblePeers  # noqa: E402

shot = Shot(sys.argv)
words = shot.words(home=("Add New Devices", "Neue Geräte hinzufügen"), details=("Details for Living Room", "Details zu Living Room"),
                   heading=("Readings", "Messwerte"))
with BumblePeers(3, "--sensors") as peers, App("--source", peers.source, lang=shot.lang, home=shot.home, env=shot.env) as app:
    app.wait_for(lambda: words["home"] in app.names("button"), what="the home page")
    app.press(words["home"])
    app.wait_for(lambda: words["details"] in app.names("button"), timeout=30, what="the thermometer")
    time.sleep(3)
    shot.take(app, "-scanner")
    app.press(words["details"])
    app.wait_for(lambda: words["heading"] in app.names("label"), what="the Readings section")
    # A reading every 10 s into the last hour: the second draws the History lines.
    time.sleep(12)
    shot.take(app)
