# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""The GATT browser on the real app: connected to Bumble's peer over our own HCI host, the
detail page lists every service; a value is read and decoded, one named by its own
description is written from the entry, a bad value is refused at the entry, and a value
that needs pairing says so with Pair beside it; a vendor characteristic takes a name of the
user's; notifications are logged."""

import re
import subprocess
import time
import unittest

from harness import App, retry_gtk_atspi_crash
from peers import ChatPeer

PEER = "Chat Peer"


def open_connected(app):
    app.wait_for(lambda: "Add New Devices" in app.names("button"), what="the home page")
    app.press("Add New Devices")
    app.wait_for(lambda: PEER in app.names("label"), timeout=30, what="the peer in the scanner")
    app.press(f"Details for {PEER}")
    app.wait_for(lambda: f"Connect to {PEER}" in app.names("button"), what="Connect on the detail page")
    app.press(f"Connect to {PEER}")
    app.wait_for(lambda: "Read All Values" in app.names("button"), timeout=30, what="the services once connected")


def reveal(app, name, role):
    """Scrolls the page with the wheel until `name` is inside the window, as a pointer user does."""
    out = subprocess.run(["xdotool", "getwindowgeometry", "--shell", app.window_id()], capture_output=True, text=True).stdout
    geometry = dict(line.split("=", 1) for line in out.split())
    top, height, width = int(geometry["Y"]), int(geometry["HEIGHT"]), int(geometry["WIDTH"])
    for _ in range(40):
        extents = app.find(name, role).extents()
        if top + 60 < extents.y and extents.y + extents.height < top + height - 10:
            return
        wheel = "5" if extents.y + extents.height >= top + height - 10 else "4"
        subprocess.run(["xdotool", "mousemove", str(int(geometry["X"]) + width // 2), str(top + height // 2), "click", wheel],
                       check=True, timeout=10)
        time.sleep(0.15)
    raise AssertionError(f"{name} never came into view")


def expand(app, title, shows, role="button"):
    """Opens a service's row with a click on it, until the `shows` control is there."""
    reveal(app, title, "label")
    # GTK gives a row's controls a size only once the row has opened (and never says "showing").
    app.click_on_until(title, "label", lambda: app.find(shows, role).extents().height > 0, what=f"{title} opened")
    reveal(app, shows, role)


@retry_gtk_atspi_crash
class GATTBrowserTests(unittest.TestCase):
    def test_tab_visits_every_control_of_a_connected_devices_page_once_with_its_services_open(self):
        """Battery, Heart Rate (notifying, its log cleared so Clear, Copy Log and Export Log are
        greyed out) and a vendor service open: Tab goes round the whole page and back, every
        stop named and visited once, the greyed-out buttons skipped, and read-only rows (Address,
        a characteristic's row) no stops of their own. Shift+Tab goes the same way back."""
        from test_scanner import tab_cycle
        with ChatPeer("--service", "chat", "--info", "--heart-rate", "0.001") as peer, App("--source", peer.source) as app:
            open_connected(app)
            expand(app, "Battery", "Read Battery Level")
            expand(app, "Unknown Service", "Read Set point")
            expand(app, "Heart Rate", "Notifications from Heart Rate Measurement", role=None)
            app.press("Notifications from Heart Rate Measurement", role=None)
            app.wait_for(lambda: app.is_sensitive("Clear the log of Heart Rate Measurement"), what="the first value logged")
            app.press("Clear the log of Heart Rate Measurement")
            app.wait_for(lambda: not app.is_sensitive("Copy the log of Heart Rate Measurement"), what="an empty log")
            stops = tab_cycle(self, app, limit=90)
            names = [n for _, n in stops]
            self.assertTrue(all(names), f"every stop is named: {stops}")
            for control in ("Read Battery Level", "Read Set point", "Notifications from Heart Rate Measurement",
                            "Pause the log of Heart Rate Measurement", "Copy Address", "Disconnect from Chat Peer",
                            "Read All Values", "Back"):
                self.assertIn(control, names, f"Tab reaches {control}")
            for skipped in ("Clear the log of Heart Rate Measurement", "Copy the log of Heart Rate Measurement"):
                self.assertNotIn(skipped, names, "a greyed-out button is no stop")
            for row in ("Address", "Battery Level", "Heart Rate Measurement", "Pairing"):
                self.assertNotIn(("list item", row), stops, f"the read-only row {row} is no stop of its own")
            self.assertFalse([n for n in names if n.startswith("Gtk")], f"no stop named by its GTK type: {stops}")
            # Backwards: the same controls, in the opposite order (a value's text may change meanwhile).
            back = [app.tab(shift=True, before=stops[0])]
            for _ in range(len(stops) - 2):
                back.append(app.tab(shift=True, before=back[-1]))
            self.assertEqual([s for s in back if s[0] != "label"], [s for s in reversed(stops[1:]) if s[0] != "label"],
                             "Shift+Tab visits the same stops the other way")

    def test_the_focus_stays_on_the_control_used_after_read_all_notifications_and_write(self):
        """A busy control is not greyed out, so the keyboard user's focus stays on it: the
        next Tab goes on from there, not from Back (which a walk once followed into Disconnect)."""
        with ChatPeer("--service", "chat", "--info", "--heart-rate", "0.001") as peer, App("--source", peer.source) as app:
            open_connected(app)

            def tab_to(name, limit=40):
                for _ in range(limit):
                    subprocess.run(["xdotool", "key", "--clearmodifiers", "Tab"], check=True, timeout=10)
                    if app.focused()[1] == name:
                        return
                self.fail(f"Tab never reached {name}")

            def stays(name, key, done, what):
                app.key(key)
                app.wait_for(done, timeout=20, what=what)
                self.assertEqual(app.focused()[1], name, f"the focus stays on {name}")
                app.key("Tab")
                self.assertNotIn(app.focused()[1], ("Back", name), f"Tab goes on from {name}")

            expand(app, "Battery", "Read Battery Level")
            tab_to("Read All Values")
            stays("Read All Values", "Return", lambda: "87 %" in app.names("label"), "the values read")
            expand(app, "Heart Rate", "Notifications from Heart Rate Measurement", role=None)
            tab_to("Notifications from Heart Rate Measurement")
            stays("Notifications from Heart Rate Measurement", "space",
                  lambda: app.is_sensitive("Clear the log of Heart Rate Measurement"), "the first value logged")
            expand(app, "Unknown Service", "Write to Set point")
            tab_to("Value to write to Set point")
            app.type_text("230")
            tab_to("Write to Set point", limit=5)
            stays("Write to Set point", "Return",
                  lambda: any(l.startswith("2 bytes written at ") for l in app.names("label")), "the write confirmed")
            self.assertIn("e600", peer.wait_for("WROTE"))

    def test_a_service_opens_and_closes_by_its_accessible_action_alone_and_says_whether_it_is_open(self):
        """What a screen reader's or voice control's "click" does: no pointer, no key. The
        service row offers an action, opens and closes with it, and exposes its expanded state."""
        from gi.repository import Atspi
        with ChatPeer("--service", "chat", "--info") as peer, App("--source", peer.source) as app:
            open_connected(app)
            row = app.find("Battery", "list item")
            self.assertGreaterEqual(row.n_actions(), 1, "the row offers an action")
            self.assertFalse(row.get_state_set().contains(Atspi.StateType.EXPANDED))
            row.do_action(0)
            app.wait_for(lambda: app.find("Read Battery Level", "button").extents().height > 0, what="Battery opened")
            app.wait_for(lambda: app.find("Battery", "list item").get_state_set().contains(Atspi.StateType.EXPANDED),
                         what="the row says it is open")
            app.find("Battery", "list item").do_action(0)
            app.wait_for(lambda: not app.find("Battery", "list item").get_state_set().contains(Atspi.StateType.EXPANDED),
                         what="closed again, and says so")

    def test_read_decode_write_and_a_value_that_wants_pairing(self):
        with ChatPeer("--service", "chat", "--info") as peer, App("--source", peer.source) as app:
            open_connected(app)
            labels = app.names("label")
            for service in ("Generic Access", "Battery", "Device Information", "FavBlue Chat", "Unknown Service"):
                self.assertIn(service, labels)

            # Battery Level: read, decoded, with its hex and length.
            expand(app, "Battery", "Read Battery Level")
            self.assertIn("Read", app.names("label"), "the properties in words; the UUID only with the identifiers")
            self.assertNotIn("2A19 · Read", app.names("label"))
            app.press("Read Battery Level")
            app.wait_for(lambda: "87 %" in app.names("label"), what="the battery level decoded")
            labels = app.names("label")
            self.assertIn("Hex: 57", labels)
            self.assertTrue(any(l.startswith("1 byte · read at ") for l in labels), labels)

            # The vendor characteristic goes by its 0x2901 description, decoded by its 0x2904 format.
            expand(app, "Unknown Service", "Read Set point")
            app.press("Read Set point")
            app.wait_for(lambda: "21.5 °C" in app.names("label"), what="the set point decoded by its format")
            # What to write, before writing: the format the device gives and the length read.
            self.assertIn("The device says its value is uint16, little-endian. The value read was 2 bytes long.", app.names("label"))
            # The format chosen for writing is the one 0x2904 gives: a typed letter is refused at the entry.
            entry = app.find("Value to write to Set point", "text")
            entry.set_text_contents("warm")
            app.press("Write to Set point")
            app.wait_for(lambda: "Type a whole number." in app.names("label"), what="the entry's message")
            self.assertEqual(peer.count("WROTE"), 0, "nothing was sent")
            entry.set_text_contents("230")
            app.press("Write to Set point")
            self.assertIn("e600", peer.wait_for("WROTE"))
            app.wait_for(lambda: any(l.startswith("2 bytes written at ") for l in app.names("label")), what="the write confirmed")
            app.press("Read Set point")
            app.wait_for(lambda: "23.0 °C" in app.names("label"), what="the new value read back")

            # A value that needs an encrypted link says so in words, with Pair beside it.
            app.press("Read Unknown Characteristic")
            app.wait_for(lambda: "Insufficient encryption: pair with the device first." in app.names("label"),
                         what="the ATT error in words")
            self.assertIn("Pair to read Unknown Characteristic", app.names("button"))

            # A vendor characteristic gets a name of the user's, kept for this device, and a format.
            app.press("Name Unknown Characteristic…")
            app.wait_for(lambda: "Name This Characteristic" in app.names("label"), what="the naming dialog")
            app.find("Name", "text").set_text_contents("Vault")
            app.press("Save")
            app.wait_for(lambda: "Read Vault" in app.names("button"), what="the new name")

            # Heart Rate Measurement notifies: the switch subscribes, the log shows each value decoded
            # with its time to the millisecond, and the rate; switched off, the device hears so.
            expand(app, "Heart Rate", "Notifications from Heart Rate Measurement", role=None)
            # A known characteristic has its name: no "Name…" under it, read as naming the device.
            self.assertNotIn("Name Heart Rate Measurement…", app.names("button"))
            app.press("Notifications from Heart Rate Measurement", role=None)
            peer.wait_for("SUBSCRIBED 2A37", timeout=10)
            app.wait_for(lambda: any(re.fullmatch(r"[\d:.]+\.\d{3}\s(AM|PM)  10 48 .. ..  72 bpm", line)
                                     for label in app.names("label") for line in label.split("\n")), what="the log")
            app.wait_for(lambda: any(re.fullmatch(r"([5-9]|1\d) a second", l) for l in app.names("label")), what="the rate")
            self.assertTrue(any(re.fullmatch(r"\d+ notifications", l) for l in app.names("label")))
            # The heart rate is a number: a plot of it, described in words.
            plot = app.find("Plot of Heart Rate Measurement")
            self.assertRegex(plot.get_description(), r"^Last \d+ values: lowest 72, highest 72, last 72$")
            app.press("Notifications from Heart Rate Measurement", role=None)
            peer.wait_for("UNSUBSCRIBED 2A37", timeout=10)
            self.assertIn("Export the log of Heart Rate Measurement", app.names("button"), "the log stays to be kept")

            # Disconnect: the services go with the connection.
            app.press(f"Disconnect from {PEER}")
            app.wait_for(lambda: "Read All Values" not in app.names("button"), what="the services to go")
