#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""Takes the gateway screenshots: this computer's radio (a Bumble peer over H4) and a broker's
gateways in the kitchen and the office hear the same keys, a favorite; first the home page
("Kitchen · −40 dBm"), then the keys' page with Heard By, driving the app through its
accessibility tree as the UI tests do:
    screenshot-gateways.py OUT_DIR NAME LANGUAGE STYLE WIDTH HEIGHT"""
import os
import sqlite3
import sys
import time

from shot import Shot

from gateways import Broker, Gateways  # noqa: E402  (Tests/ui, on the path through shot)
from harness import App  # noqa: E402
from peers import BumblePeers  # noqa: E402

shot = Shot(sys.argv)
home, lang, german = shot.home, shot.lang, shot.german
kitchen, office = ("Küche", "Büro") if german else ("Kitchen", "Office")
words = shot.words(home=("Add New Devices", "Neue Geräte hinzufügen"), room=(f"{kitchen} · ", f"{kitchen} · "),
                   details=("Details for My keys", "Details zu Meine Schlüssel"), heard=("Heard By", "Gehört von"))
# A first run makes the database; the keys are then stored as a favorite, as the app would.
with App("--source", "demo", lang=lang, home=home, storage="sqlite") as app:
    app.wait_for(lambda: words["home"] in app.names("button"), what="the home page")
db = sqlite3.connect(os.path.join(home, "xdg_data_home", "favblue", "favblue.sqlite"))
now = time.time()
db.execute("INSERT INTO favorites (device_id, nickname, last_name, added_at, updated_at) VALUES (?, ?, ?, ?, ?)",
           ("C0:98:E5:49:00:00/le-random", "Meine Schlüssel" if german else "My keys", "Keys 1", now, now))
db.commit()
db.close()
settings = os.path.join(home, "xdg_config_home", "glib-2.0", "settings", "keyfile")
with open(settings, "a", encoding="utf-8") as f:
    f.write("background-scan=true\nscanner-period-seconds=15\nscanner-window-seconds=14\n")
broker = Broker()
try:
    with BumblePeers(1, "--prefix", "Keys") as peers, \
            App("--source", peers.source, "--source", broker.url, lang=lang, home=home, storage="sqlite",
                env=shot.env) as app:
        rooms = Gateways(broker, "C0:98:E5:49:00:00", "Keys 1", {kitchen: -40, office: -71})
        try:
            app.wait_for(lambda: any(n.startswith(words["room"]) for n in app.names("label")), timeout=40, what="the room")
            shot.take(app, "-home")
            app.press(words["details"])
            app.wait_for(lambda: words["heard"] in app.names("label"), timeout=20, what="Heard By")
            time.sleep(3)
            shot.take(app)
        finally:
            rooms.stop()
finally:
    broker.stop()
