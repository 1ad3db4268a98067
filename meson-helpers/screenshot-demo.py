#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""Takes a screenshot of the demo's chat device, connected, driving the app through its
accessibility tree as the UI tests do:
    screenshot-demo.py OUT_DIR NAME LANGUAGE STYLE WIDTH HEIGHT detail|chat|gatt
detail: its page, not connected. chat: two lines sent and answered. gatt: its services listed,
Device Information open and every value read."""
import sys
import time

from shot import Shot

from harness import App  # noqa: E402  (Tests/ui, on the path through shot)
from test_gatt import reveal  # noqa: E402

shot = Shot(sys.argv)
what = shot.extra[0]
german = shot.german
words = shot.words(home=("Add New Devices", "Neue Geräte hinzufügen"),
                   details=("Details for FavBlue Demo Chat", "Details zu FavBlue Demo Chat"),
                   connect=("Connect to FavBlue Demo Chat", "Mit FavBlue Demo Chat verbinden"),
                   open=("Open chat with FavBlue Demo Chat", "Chat mit FavBlue Demo Chat öffnen"),
                   device=("FavBlue Demo Chat", "FavBlue Demo Chat"), read_all=("Read All Values", "Alle Werte lesen"),
                   service=("Device Information", "Geräteinformationen"), value=("FavBlue", "FavBlue"))
with App("--source", "demo", lang=shot.lang, home=shot.home, env=shot.env) as app:
    app.wait_for(lambda: words["home"] in app.names("button"), what="the home page")
    app.press(words["home"])
    app.wait_for(lambda: words["device"] in app.names("label"), timeout=30, what="the demo device")
    app.press(words["details"])
    app.wait_for(lambda: words["connect"] in app.names("button"), what="Connect")
    if what == "detail":
        time.sleep(1)
        shot.take(app)
        sys.exit(0)
    app.press(words["connect"])
    if what == "chat":
        app.wait_for(lambda: words["open"] in app.names("button"), what="Open Chat")
        app.press(words["open"])
        for line in (["Hallo!", "Wie weit reicht das Signal?"] if german else ["Hello!", "How far does the signal reach?"]):
            app.type_text(line)
            app.key("Return")
            time.sleep(1)
    else:
        app.wait_for(lambda: words["read_all"] in app.names("button"), what="the services")
        app.press(words["read_all"])
        reveal(app, words["service"], "label")
        app.click_on(words["service"], "label")
        app.wait_for(lambda: words["value"] in app.names("label"), what="the values read")
        time.sleep(0.5)
        reveal(app, words["read_all"], "button")
    shot.take(app)
