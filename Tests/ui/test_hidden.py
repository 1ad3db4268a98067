# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""Working a busy room: Hide Device with Undo, hidden devices kept across a restart and
shown again from Preferences, and Only New Devices on a capture where a device turns up late."""

import os
import shutil
import struct
import subprocess
import threading
import time
import unittest

from harness import App, Atspi, retry_gtk_atspi_crash, iso, scratch

NAME = "Kitchen Speaker"
LIST = ("Devices nearby",)


def write_late_arrival_capture(path, seconds=120, late_at=45):
    """A btsnoop capture (H4) with "Early Sensor" from the start and "Late Sensor" from
    `late_at` s (never when None)."""
    start = 1_700_000_000_000_000 + 0x00DCDDB30F2F8000
    with open(path, "wb") as f:
        f.write(b"btsnoop\0" + struct.pack(">II", 1, 1002))
        for tenth in range(seconds * 10):
            for n, name in ((1, "Early Sensor"), (2, "Late Sensor")):
                if n == 2 and (late_at is None or tenth < late_at * 10):
                    continue
                encoded = name.encode()
                data = bytes([0x02, 0x01, 0x06, len(encoded) + 1, 0x09]) + encoded
                address = bytes([n, 0x55, 0x44, 0x33, 0x22, 0xC1])
                report = bytes([0x01, 0x00, 0x01]) + address + bytes([len(data)]) + data + struct.pack("b", -50 - n)
                body = bytes([0x02]) + report
                packet = bytes([0x04, 0x3E, len(body)]) + body
                f.write(struct.pack(">IIIIq", len(packet), len(packet), 3, 0, start + tenth * 100_000) + packet)


def rest_the_pointer_where_the_notice_comes(app):
    """Puts the pointer at the bottom middle of the window, where a notice shows, and nudges it
    by a pixel until the returned event is set: a pointer that never moves tells GTK nothing."""
    root = app.accessible()
    window = next(w for w in (root.get_child_at_index(i) for i in range(root.get_child_count()))
                  if w is not None and w.get_name() == "FavBlue")
    box = window.get_extents(Atspi.CoordType.SCREEN)
    x, y = box.x + box.width // 2, box.y + box.height - 30
    subprocess.run(["xdotool", "mousemove", str(x), str(y)], check=True, timeout=10)
    done = threading.Event()

    def nudge():
        step = 1
        while not done.wait(0.3):
            subprocess.run(["xdotool", "mousemove", str(x + step), str(y)], check=False, timeout=10)
            step = -step
    threading.Thread(target=nudge, daemon=True).start()
    return done


@retry_gtk_atspi_crash
class HiddenDevicesTests(unittest.TestCase):
    def setUp(self):
        self.home = scratch("favblue-hidden-")
        self.addCleanup(shutil.rmtree, self.home, True)

    def open_scanner(self, app, name=NAME):
        app.wait_for(lambda: "Add New Devices" in app.names("button"), what="the home page")
        app.press("Add New Devices")
        app.wait_for(lambda: name in app.names("label"), timeout=25, what=f"{name} in the list")

    def test_hide_from_the_row_menu_then_undo(self):
        with App("--source", "demo", home=self.home) as app:
            self.open_scanner(app)
            from test_focus import tab_into_the_list
            tab_into_the_list(self, app, NAME)
            app.key("Menu")
            app.wait_for(lambda: "Hide Device" in app.names("menu item"), what="Hide Device in the row menu")
            # The pointer rests where the notice comes, as a mouse user's would: a notice under
            # the pointer stays past its 5 s, however long a walk of the tree takes here.
            resting = rest_the_pointer_where_the_notice_comes(app)
            app.press("Hide Device", role="menu item")
            app.wait_for(lambda: NAME not in app.names("label"), what="the row to leave")
            self.assertTrue(any(n.endswith("· 1 hidden") for n in app.names("label")), "the subtitle counts it")
            deadline = time.monotonic() + 30
            pressed = False
            while not pressed and time.monotonic() < deadline:
                nodes = app.nodes(skip=LIST)
                undo = next((node for node, role, name in nodes if role in App.BUTTONS and name == "Undo"), None)
                if undo is None:
                    time.sleep(0.2)
                    continue
                self.assertIn(f"“{iso(NAME)}” is hidden", [name for _, role, name in nodes if role == "label"])
                resting.set()
                time.sleep(6)
                self.assertIn("Undo", app.names("button"), "the notice stays while the pointer is on it")
                app.press("Undo")
                pressed = True
            self.assertTrue(pressed, "Undo on the notice")
            app.wait_for(lambda: NAME in app.names("label"), what="the row to come back")

    def hide_from_its_page(self, app, name):
        app.press(f"Details for {name}")
        app.wait_for(lambda: f"Hide {name}" in app.names("button"), what="Hide on the detail page")
        app.press(f"Hide {name}")
        app.wait_for(lambda: any(n.endswith("· 1 hidden") for n in app.names("label")), what="the Scanner to count it")

    def open_preferences(self, app, unhide):
        app.key("ctrl+comma")
        app.wait_for(lambda: "Preferences" in app.frames(), what="the Preferences window")
        app.wait_for(lambda: unhide in app.names("button"), what="the device in Preferences")

    def test_a_hidden_device_stays_hidden_after_a_restart_until_unhidden_in_preferences(self):
        room = os.path.join(self.home, "room.btsnoop")
        write_late_arrival_capture(room, seconds=300, late_at=0)
        name = "Early Sensor"
        with App("--source", f"btsnoop:{room}", storage="sqlite", home=self.home) as app:
            self.open_scanner(app, name=name)
            self.hide_from_its_page(app, name)
        with App("--source", f"btsnoop:{room}", storage="sqlite", home=self.home) as app:
            self.open_scanner(app, name="Late Sensor")
            time.sleep(4)
            self.assertNotIn(name, app.names("label"), "still hidden after the restart")
            self.open_preferences(app, f"Unhide {name}")
            self.assertIn("Hidden Devices", app.names())
            app.press(f"Unhide {name}")
            app.wait_for(lambda: f"Unhide {name}" not in app.names("button"), what="the row to leave Preferences")
            app.key("Escape")
            app.wait_for(lambda: name in app.names("label"), what="the device back in the list")

    def test_what_the_demo_hides_stays_in_the_demo_and_the_users_own_are_kept(self):
        room = os.path.join(self.home, "room.btsnoop")
        write_late_arrival_capture(room, seconds=300, late_at=0)
        with App("--source", f"btsnoop:{room}", storage="sqlite", home=self.home) as app:
            self.open_scanner(app, name="Early Sensor")
            self.hide_from_its_page(app, "Early Sensor")
        with App("--source", "demo", storage="sqlite", home=self.home) as app:
            self.open_scanner(app)
            # The count is the demo's own: the user's hidden sensor is not among them.
            self.hide_from_its_page(app, NAME)
            self.open_preferences(app, f"Unhide {NAME}")
            self.assertNotIn("Unhide Early Sensor", app.names("button"), "the user's own are not mixed in")
            app.key("Escape")
            app.wait_for(lambda: "Preferences" not in app.frames(), what="Preferences to close")
            app.key("ctrl+q")
            app.proc.wait(timeout=15)
        with App("--source", f"btsnoop:{room}", storage="sqlite", home=self.home) as app:
            self.open_scanner(app, name="Late Sensor")
            self.open_preferences(app, "Unhide Early Sensor")
            self.assertNotIn(f"Unhide {NAME}", app.names("button"), "nothing the demo hid is in the user's list")

    def test_only_new_devices_shows_only_a_device_first_heard_after_it_even_after_a_restart(self):
        before = os.path.join(self.home, "before.btsnoop")
        after = os.path.join(self.home, "after.btsnoop")
        write_late_arrival_capture(before, seconds=60, late_at=None)
        write_late_arrival_capture(after, seconds=60, late_at=3)
        with App("--source", f"btsnoop:{before}", storage="sqlite", home=self.home) as app:
            self.open_scanner(app, name="Early Sensor")
            app.click_on_until("View Options", None, lambda: "Only New Devices" in app.names("menu item"), what="the View Options menu")
            app.press("Only New Devices", role="menu item")
            app.wait_for(lambda: "No New Devices Yet" in app.names(), what="the status page")
            self.assertTrue(any("for the first time after" in n for n in app.names()), "it gives the time")
            self.assertNotIn("Early Sensor", app.names("label"))
        # Next session, another capture: the known sensor stays out, the one that turns up later shows.
        with App("--source", f"btsnoop:{after}", storage="sqlite", home=self.home) as app:
            self.open_scanner(app, name="Late Sensor")
            self.assertNotIn("Early Sensor", app.names("label"))
            app.click_on_until("View Options", None, lambda: "Only New Devices" in app.names("menu item"), what="the View Options menu")
            app.press("Only New Devices", role="menu item")
            app.wait_for(lambda: "Early Sensor" in app.names("label"), what="every device again once it is off")

if __name__ == "__main__":
    unittest.main()
