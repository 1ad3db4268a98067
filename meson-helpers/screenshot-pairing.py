#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""Takes the pairing screenshot: the detail page of a device on the BlueZ route (bluetoothd's
stand-in with pairing, Tests/Fixtures/dbusmock/bluez_pairing.py) with the question "Does …
show 004 321?" over it, driving the app through its accessibility tree as the UI tests do:
    screenshot-pairing.py OUT_DIR NAME LANGUAGE STYLE WIDTH HEIGHT
Bare Xvfb has no window manager to centre the dialog over the window, so it is moved there."""
import subprocess
import sys
import time

from shot import Shot

from bluez import DEVICE, MockBlueZ, dbus  # noqa: E402  (Tests/ui, on the path through shot)
from harness import App  # noqa: E402

shot = Shot(sys.argv)
device = "Fitness Band"
words = shot.words(home=("Add New Devices", "Neue Geräte hinzufügen"), details=(f"Details for {device}", f"Details zu {device}"),
                   pair=(f"Pair with {device}", f"Mit {device} koppeln"), confirm=("Confirm", "Bestätigen"))
with MockBlueZ() as bluez:
    bluez.load_pairing()
    bluez.add_adapter()
    path = bluez.add_device("5C:11:22:33:44:55", device)
    bluez.set(path, DEVICE, "AddressType", "random")
    bluez.set(path, DEVICE, "RSSI", dbus.Int16(-58))
    bluez.script_pairing(path, "confirm", 4321, "F0:11:22:33:44:55/public")
    env = dict(bluez.env, **shot.env)
    with App("--source", "bluez", lang=shot.lang, home=shot.home, env=env) as app:
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
        # Bare Xvfb has no window manager: the dialog is a window of its own, so the screen is taken.
        subprocess.run(["import", "-window", "root", "-crop", f"{w}x{h}+0+0", "+repage", shot.path()], check=True)
        print(shot.path())
