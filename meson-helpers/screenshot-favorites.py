#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""Takes the Favorites screenshot from the demo as it starts: its five favorites, some under a
nickname, with their readings, rooms and presence, read through the accessibility tree as the
UI tests read it:
    screenshot-favorites.py OUT_DIR NAME LANGUAGE STYLE WIDTH HEIGHT"""
import sys
import time

from shot import Shot

from harness import App  # noqa: E402  (Tests/ui, on the path through shot)

shot = Shot(sys.argv)
german = shot.german
# The demo's favorites, by the names they go by.
FAVORITES = ["Greenhouse", "Truhe" if german else "Chest freezer", "Ear Pods 🎧", "Balkon" if german else "Balcony", "Heart Strap"]
words = shot.words(room=("Kitchen · ", "Küche · "))


def remove(name):
    return f"{name} aus den Favoriten entfernen" if german else f"Remove {name} from favorites"


with App("--source", "demo", lang=shot.lang, home=shot.home, env=shot.env) as app:
    for name in FAVORITES:
        app.wait_for(lambda: remove(name) in app.names("button"), timeout=30, what=f"{name}, a favorite")
    app.wait_for(lambda: any(n.startswith(words["room"]) for n in app.names("label")), timeout=30, what="the kitchen's gateway")
    time.sleep(3)
    shot.take(app)
