#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""Takes the pairing screenshot: the detail page of a device on the BlueZ route (bluetoothd's
stand-in with pairing, Tests/Fixtures/dbusmock/bluez_pairing.py) with the question "Does …
show 004 321?" over it, driving the app through its accessibility tree as the UI tests do:
    screenshot-pairing.py OUT_DIR NAME LANGUAGE STYLE WIDTH HEIGHT
Bare Xvfb has no window manager to centre the dialog over the window, so it is moved there."""
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "Tests", "ui"))
from bluez import DEVICE, MockBlueZ, dbus  # noqa: E402
from harness import App, home_with  # noqa: E402

out, name, lang, style, width, height = sys.argv[1:7]
# GNOME's own title bar layout (a close button only).
home = home_with(width, height, layout="appmenu:close")
german = lang == "de"
device = "Fitness Band"
words = {
    "home": "Neue Geräte hinzufügen" if german else "Add New Devices",
    "details": f"Details zu {device}" if german else f"Details for {device}",
    "pair": f"Mit {device} koppeln" if german else f"Pair with {device}",
    "confirm": "Bestätigen" if german else "Confirm",
}
scheme = "prefer-dark" if style == "dark" else "prefer-light"
with MockBlueZ() as bluez:
    bluez.load_pairing()
    bluez.add_adapter()
    path = bluez.add_device("5C:11:22:33:44:55", device)
    bluez.set(path, DEVICE, "AddressType", "random")
    bluez.set(path, DEVICE, "RSSI", dbus.Int16(-58))
    bluez.script_pairing(path, "confirm", 4321, "F0:11:22:33:44:55/public")
    env = dict(bluez.env, ADW_DEBUG_COLOR_SCHEME=scheme)
    with App("--source", "bluez", lang=lang, home=home, env=env) as app:
        app.wait_for(lambda: words["home"] in app.names("button"), what="the home page")
        app.press(words["home"])
        app.wait_for(lambda: words["details"] in app.names("button"), timeout=30, what="the device")
        app.press(words["details"])
        app.wait_for(lambda: words["pair"] in app.names("button"), what="Pair")
        app.press(words["pair"])
        app.wait_for(lambda: words["confirm"] in app.names("button"), what="the question")
        time.sleep(1)
        windows = subprocess.run(["xdotool", "search", "--onlyvisible", "--pid", str(app.proc.pid)],
                                 capture_output=True, text=True).stdout.split()
        geometry = {}
        for wid in windows:
            shell = subprocess.run(["xdotool", "getwindowgeometry", "--shell", wid], capture_output=True, text=True).stdout
            geometry[wid] = dict(line.split("=") for line in shell.split())
        # The main window is the larger one.
        main, dialog = sorted(windows, key=lambda wid: -int(geometry[wid]["WIDTH"]) * int(geometry[wid]["HEIGHT"]))[:2]
        w, h = int(geometry[main]["WIDTH"]), int(geometry[main]["HEIGHT"])
        dw, dh = int(geometry[dialog]["WIDTH"]), int(geometry[dialog]["HEIGHT"])
        subprocess.run(["xdotool", "windowmove", main, "0", "0"], check=True)
        subprocess.run(["xdotool", "windowmove", dialog, str((w - dw) // 2), str((h - dh) // 3)], check=True)
        time.sleep(1)
        target = os.path.join(out, name + ".png")
        subprocess.run(["import", "-window", "root", "-crop", f"{w}x{h}+0+0", "+repage", target], check=True)
        print(target)
