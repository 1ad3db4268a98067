#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""Takes the Favorites screenshot from the demo: a few of its devices added with their hearts,
some under a nickname, as a user would, then the home page with their readings, rooms and
presence, driving the app through its accessibility tree as the UI tests do:
    screenshot-favorites.py OUT_DIR NAME LANGUAGE STYLE WIDTH HEIGHT"""
import sys
import time

from shot import Shot

from harness import App  # noqa: E402  (Tests/ui, on the path through shot)

shot = Shot(sys.argv)
german = shot.german
# (the device's advertised name, the nickname given, or None to keep its name)
FAVORITES = [("Greenhouse", None), ("Freezer", "Truhe" if german else "Chest freezer"), ("Pixel Buds Pro", "Ear Pods 🎧"),
             ("Ruuvi 3C4D", "Balkon" if german else "Balcony"), ("Heart Strap", None)]
words = shot.words(home=("Add New Devices", "Neue Geräte hinzufügen"), field=("Nickname", "Spitzname"), back=("Back", "Zurück"),
                   add=("Add", "Hinzufügen"),
                   room=("Kitchen · ", "Küche · "))


def add(name):
    return f"{name} zu den Favoriten hinzufügen" if german else f"Add {name} to favorites"


def remove(name):
    return f"{name} aus den Favoriten entfernen" if german else f"Remove {name} from favorites"


with App("--source", "demo", lang=shot.lang, home=shot.home, env=shot.env) as app:
    app.wait_for(lambda: words["home"] in app.names("button"), what="the home page")
    app.press(words["home"])
    for name, nickname in FAVORITES:
        app.wait_for(lambda: add(name) in app.names("button"), timeout=30, what=name)
        app.press(add(name))
        app.wait_for(lambda: words["field"] in app.names(), what="the nickname field")
        # Through the accessibility tree, as a screen reader would: bare Xvfb has no window
        # manager to give the dialog the keyboard.
        if nickname:
            field = next(n for n, r, s in app.nodes() if s == words["field"] and r in ("entry", "text"))
            field.set_text_contents(nickname)
        app.press(words["add"])
        app.wait_for(lambda: remove(nickname or name) in app.names("button"), what=f"{name}, a favorite")
    app.press(words["back"])
    app.wait_for(lambda: any(n.startswith(words["room"]) for n in app.names("label")), timeout=30, what="the kitchen's gateway")
    time.sleep(3)
    shot.take(app)
