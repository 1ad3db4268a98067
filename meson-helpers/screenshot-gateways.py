#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""Takes the gateway screenshots: this computer's radio (a Bumble peer over H4) and a broker's
gateways in the kitchen and the office hear the same keys, a favorite; first the home page
("In the Kitchen · −40 dBm"), then the keys' page with Heard By, driving the app through its
accessibility tree as the UI tests do:
    screenshot-gateways.py OUT_DIR NAME LANGUAGE STYLE WIDTH HEIGHT"""
import os
import sqlite3
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "Tests", "ui"))
from gateways import Broker, Gateways  # noqa: E402
from harness import App, home_with  # noqa: E402
from peers import BumblePeers  # noqa: E402

out, name, lang, style, width, height = sys.argv[1:7]
home = home_with(width, height, layout="appmenu:close")
german = lang == "de"
kitchen, office = ("Küche", "Büro") if german else ("Kitchen", "Office")
words = {
    "home": "Neue Geräte hinzufügen" if german else "Add New Devices",
    "room": f"Im Raum {kitchen} · " if german else f"In the {kitchen} · ",
    "details": "Details zu Meine Schlüssel" if german else "Details for My keys",
    "heard": "Gehört von" if german else "Heard By",
}
scheme = "prefer-dark" if style == "dark" else "prefer-light"
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
                env={"ADW_DEBUG_COLOR_SCHEME": scheme}) as app:
        rooms = Gateways(broker, "C0:98:E5:49:00:00", "Keys 1", {kitchen: -40, office: -71})
        try:
            app.wait_for(lambda: any(n.startswith(words["room"]) for n in app.names("label")), timeout=40, what="the room")
            subprocess.run(["xdotool", "mousemove", "0", "0"], check=True)
            time.sleep(1)
            subprocess.run(["import", "-window", app.window_id(), os.path.join(out, name + "-home.png")], check=True)
            app.press(words["details"])
            app.wait_for(lambda: words["heard"] in app.names("label"), timeout=20, what="Heard By")
            time.sleep(4)
            subprocess.run(["import", "-window", app.window_id(), os.path.join(out, name + ".png")], check=True)
        finally:
            rooms.stop()
finally:
    broker.stop()
print(os.path.join(out, name + ".png"))
