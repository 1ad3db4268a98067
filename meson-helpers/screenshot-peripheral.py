#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""Takes a screenshot of Act as a Device in the demo, driving the app through its accessibility
tree as the UI tests do:
    screenshot-peripheral.py OUT_DIR NAME LANGUAGE STYLE WIDTH HEIGHT
FavBlue Chat on air and served; the demo's phone has connected, written "hello" and followed the
messages to it, and its log is open."""
import sys
import time

from shot import Shot

from harness import App  # noqa: E402  (Tests/ui, on the path through shot)
from test_gatt import reveal  # noqa: E402
from test_peripheral import SWITCH, add_preset, open_act_as_a_device, open_log  # noqa: E402

shot = Shot(sys.argv)
words = shot.words(menu=("Main Menu", "Hauptmenü"), item=("Act as a Device", "Als Gerät auftreten"),
                   add=("Add Advertisement", "Anzeige hinzufügen"), chat=("FavBlue Chat", "FavBlue-Chat"),
                   send=("Send FavBlue Chat", "FavBlue-Chat senden"), serve=("Serve", "Bereitstellen"),
                   devices=("Connected Devices", "Verbundene Geräte"))
phone = "5E:A1:10:DE:ED:01"
with App("--source", "demo", lang=shot.lang, home=shot.home, env=shot.env) as app:
    open_act_as_a_device(app, menu=words["menu"], item=words["item"])
    add_preset(app, words["chat"], menu=words["add"])
    app.wait_for(lambda: words["send"] in app.names(SWITCH), what="the switch")
    app.press(words["send"], SWITCH)
    app.press(words["serve"], SWITCH)
    app.wait_for(lambda: phone in app.names(), timeout=20, what="the phone")
    time.sleep(3.5)
    open_log(app, phone)
    time.sleep(0.5)
    reveal(app, words["devices"], "label")
    shot.take(app)
