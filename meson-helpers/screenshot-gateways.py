#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""Takes the gateway screenshots from the demo, whose kitchen has a gateway: the freezer, a
favorite, on the home page in the kitchen ("Kitchen · −46 dBm"), then its page with Heard By,
driving the app through its accessibility tree as the UI tests do:
    screenshot-gateways.py OUT_DIR NAME LANGUAGE STYLE WIDTH HEIGHT"""
import sys
import time

from shot import Shot

from harness import App  # noqa: E402  (Tests/ui, on the path through shot)

shot = Shot(sys.argv)
german = shot.german
nickname = "Truhe" if german else "Chest freezer"
words = shot.words(home=("Add New Devices", "Neue Geräte hinzufügen"), add=("Add Freezer to favorites", "Freezer zu den Favoriten hinzufügen"),
                   field=("Nickname", "Spitzname"), remove=(f"Remove {nickname} from favorites", f"{nickname} aus den Favoriten entfernen"),
                   back=("Back", "Zurück"), room=("Kitchen · ", "Küche · "), details=(f"Details for {nickname}", f"Details zu {nickname}"),
                   heard=("Heard By", "Gehört von"))
with App("--source", "demo", lang=shot.lang, home=shot.home, env=shot.env) as app:
    app.wait_for(lambda: words["home"] in app.names("button"), what="the home page")
    app.press(words["home"])
    app.wait_for(lambda: words["add"] in app.names("button"), timeout=30, what="the freezer")
    app.press(words["add"])
    app.wait_for(lambda: app.focused() in (("entry", words["field"]), ("text", words["field"])), what="the nickname field")
    app.type_text(nickname)
    app.key("Return")
    app.wait_for(lambda: words["remove"] in app.names("button"), what="the favorite")
    app.press(words["back"])
    app.wait_for(lambda: any(n.startswith(words["room"]) for n in app.names("label")), timeout=30, what="the room")
    time.sleep(2)
    shot.take(app, "-home")
    app.press(words["details"])
    app.wait_for(lambda: words["heard"] in app.names("label"), timeout=20, what="Heard By")
    time.sleep(6)
    shot.take(app)
