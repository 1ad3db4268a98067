#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""Takes a screenshot of the demo's chat device, connected, driving the app through its
accessibility tree as the UI tests do:
    screenshot-demo.py OUT_DIR NAME LANGUAGE STYLE WIDTH HEIGHT chat|gatt
chat: two lines sent and answered. gatt: its services listed, Device Information open and
every value read."""
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "Tests", "ui"))
from harness import App, home_with  # noqa: E402
from test_gatt import reveal  # noqa: E402

out, name, lang, style, width, height, what = sys.argv[1:8]
# GNOME's own title bar layout (a close button only).
home = home_with(width, height, layout="appmenu:close")
german = lang == "de"
words = {
    "home": "Neue Geräte hinzufügen" if german else "Add New Devices",
    "details": "Details zu FavBlue-Demo-Chat" if german else "Details for FavBlue Demo Chat",
    "connect": "Mit FavBlue-Demo-Chat verbinden" if german else "Connect to FavBlue Demo Chat",
    "open": "Chat mit FavBlue-Demo-Chat öffnen" if german else "Open chat with FavBlue Demo Chat",
    "device": "FavBlue-Demo-Chat" if german else "FavBlue Demo Chat",
    "read all": "Alle Werte lesen" if german else "Read All Values",
    "service": "Geräteinformationen" if german else "Device Information",
    "value": "FavBlue",
}
scheme = "prefer-dark" if style == "dark" else "prefer-light"
with App("--source", "demo", lang=lang, home=home, env={"ADW_DEBUG_COLOR_SCHEME": scheme}) as app:
    app.wait_for(lambda: words["home"] in app.names("button"), what="the home page")
    app.press(words["home"])
    app.wait_for(lambda: words["device"] in app.names("label"), timeout=30, what="the demo device")
    app.press(words["details"])
    app.wait_for(lambda: words["connect"] in app.names("button"), what="Connect")
    app.press(words["connect"])
    if what == "chat":
        app.wait_for(lambda: words["open"] in app.names("button"), what="Open Chat")
        app.press(words["open"])
        for line in (["Hallo!", "Wie weit reicht das Signal?"] if german else ["Hello!", "How far does the signal reach?"]):
            app.type_text(line)
            app.key("Return")
            time.sleep(1)
    else:
        app.wait_for(lambda: words["read all"] in app.names("button"), what="the services")
        app.press(words["read all"])
        reveal(app, words["service"], "label")
        app.click_on(words["service"], "label")
        app.wait_for(lambda: words["value"] in app.names("label"), what="the values read")
        time.sleep(0.5)
        reveal(app, words["read all"], "button")
    time.sleep(1)
    subprocess.run(["import", "-window", app.window_id(), os.path.join(out, name + ".png")], check=True)
    print(os.path.join(out, name + ".png"))
