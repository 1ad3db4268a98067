#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""Takes a screenshot of the demo board's Device Manager, driving the app through its
accessibility tree as the UI tests do:
    screenshot-devicemanager.py OUT_DIR NAME LANGUAGE STYLE WIDTH HEIGHT slots|updated
slots: connected, its slot, bootloader and buffers. updated: after Update Firmware… with the
image the demo ships, in Test and Confirm: the new version running, the old one in the spare slot."""
import os
import sys
import time

from shot import ROOT, Shot

from harness import App  # noqa: E402  (Tests/ui, on the path through shot)
from test_device_manager import choose_file  # noqa: E402
from test_gatt import reveal  # noqa: E402

shot = Shot(sys.argv)
what = shot.extra[0]
words = shot.words(home=("Add New Devices", "Neue Geräte hinzufügen"),
                   details=("Details for FavBlue Demo Board", "Details zu FavBlue Demo Board"),
                   connect=("Connect to FavBlue Demo Board", "Mit FavBlue Demo Board verbinden"),
                   heading=("Device Manager", "Geräteverwaltung"), update=("Update Firmware…", "Firmware aktualisieren …"),
                   chooser=("Choose a Firmware Image", "Firmware-Abbild wählen"), go=("Update", "Aktualisieren"),
                   done=("Now running 1.1.0", "Jetzt läuft 1.1.0"))
with App("--source", "demo", lang=shot.lang, home=shot.home, env=shot.env) as app:
    app.wait_for(lambda: words["home"] in app.names("button"), what="the home page")
    app.press(words["home"])
    app.wait_for(lambda: "FavBlue Demo Board" in app.names("label"), timeout=30, what="the demo board")
    app.press(words["details"])
    app.wait_for(lambda: words["connect"] in app.names("button"), what="Connect")
    app.press(words["connect"])
    app.wait_for(lambda: "Slot 0" in app.names(), timeout=30, what="the slots")
    if what == "updated":
        app.press(words["update"])
        choose_file(app, os.path.join(ROOT, "data", "demo-board-1.1.0.bin"), title=words["chooser"])
        app.wait_for(lambda: words["go"] in app.names("button"), what="the question")
        app.press(words["go"])
        app.wait_for(lambda: words["done"] in app.names(), timeout=60, what="the new version")
        app.wait_for(lambda: "Slot 1" in app.names(), timeout=30, what="the slots again")
    reveal(app, words["heading"], "label")
    time.sleep(0.5)
    shot.take(app)
