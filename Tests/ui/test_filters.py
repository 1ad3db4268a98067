# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""View Options' filters on the live demo, ticked and unticked alone and together, by pointer,
by keyboard and by assistive technology's action, while the demo's list keeps changing.
Ticking Trackers Only with the pointer once crashed the app inside GTK."""

import time
import unittest

from harness import App, Atspi, retry_gtk_atspi_crash

NAME = "Kitchen Speaker"
FILTERS = ("Favorites Only", "Hide Unnamed Devices", "Trackers Only", "Only New Devices")
# What the page says once a filter leaves none of the demo's devices (every device in it was
# heard before the filter was ticked).
EMPTIES = {"Only New Devices": "No New Devices Yet"}
# One of the favorites the demo starts with, under its nickname.
FAVORITE = "Chest freezer"


@retry_gtk_atspi_crash
class FilterTests(unittest.TestCase):
    def open_scanner(self, app):
        app.wait_for(lambda: "Add New Devices" in app.names("button"), what="the home page")
        app.press("Add New Devices")
        app.wait_for(lambda: NAME in app.names("label"), timeout=20, what="devices from the demo")

    def open_menu(self, app, name):
        app.click_on_until("View Options", None, lambda: name in app.names("menu item"), what="the View Options menu")

    def alive(self, app, what):
        self.assertIsNone(app.proc.poll(), f"the app ended after {what}: {app.stderr()[-3000:]}")

    def check_filtered(self, app, name):
        """What the page shows with `name` ticked (alone, over the default Hide Unnamed Devices)."""
        if name in EMPTIES:
            app.wait_for(lambda: EMPTIES[name] in app.names(), what=f"the page {name} leaves")
            self.assertNotIn(NAME, app.names("label"), f"{NAME} is neither a favorite nor new")
        elif name == "Favorites Only":
            app.wait_for(lambda: FAVORITE in app.names("label") and NAME not in app.names("label"),
                         what="the demo's favorites alone")
        elif name == "Trackers Only":
            app.wait_for(lambda: NAME not in app.names("label"), what="a speaker left out of the trackers")

    def check_unfiltered(self, app, what):
        app.wait_for(lambda: NAME in app.names("label"), what=f"{NAME} listed again after {what}")

    def test_each_filter_by_pointer_on_then_off(self):
        with App("--source", "demo") as app:
            self.open_scanner(app)
            for name in FILTERS:
                for turn in ("on", "off"):
                    self.open_menu(app, name)
                    app.click_menu_item(name)
                    time.sleep(1.5)  # the list goes on changing under the closed menu
                    self.alive(app, f"{name} {turn} by pointer")
                    if name == "Hide Unnamed Devices":
                        continue  # on by default: off then on, and the speaker stays either way
                    if turn == "on":
                        self.check_filtered(app, name)
                    else:
                        self.check_unfiltered(app, f"{name} off")
            self.assertIn(NAME, app.names("label"))

    def test_each_filter_by_keyboard_on_then_off(self):
        with App("--source", "demo") as app:
            self.open_scanner(app)
            for name in FILTERS:
                for turn in ("on", "off"):
                    self.assertTrue(app.keys_until_focused("Tab", "View Options", App.BUTTONS),
                                    f"Tab reaches View Options; focus is on {app.focused_now()}")
                    app.key("Return")
                    app.wait_for(lambda: name in app.names("menu item"), what="the menu open")
                    self.assertTrue(app.keys_until_focused("Down", name, {"menu item", "check menu item"}),
                                    f"the arrows reach {name}; focus is on {app.focused_now()}")
                    app.key("Return")
                    time.sleep(1.0)
                    self.alive(app, f"{name} {turn} by keyboard")
                    if name == "Hide Unnamed Devices":
                        continue
                    if turn == "on":
                        self.check_filtered(app, name)
                    else:
                        self.check_unfiltered(app, f"{name} off")
            self.assertIn("Back", app.names("button"), "still on the Scanner")

    def test_filters_together_by_action_then_off_in_another_order(self):
        with App("--source", "demo") as app:
            self.open_scanner(app)
            for combination, undo in ((FILTERS, FILTERS[::-1]),
                                      (("Trackers Only", "Only New Devices"), ("Trackers Only", "Only New Devices")),
                                      (("Favorites Only", "Trackers Only"), ("Favorites Only", "Trackers Only"))):
                for name in combination:
                    self.open_menu(app, name)
                    app.press(name, role="menu item")
                    self.alive(app, f"{name} on, by action")
                self.assertNotIn(NAME, app.names("label"), f"{combination} leave the speaker out")
                for name in undo:
                    self.open_menu(app, name)
                    app.press(name, role="menu item")
                    self.alive(app, f"{name} off, by action")
                self.check_unfiltered(app, f"{combination} off")

    def test_show_all_devices_on_an_empty_list_clears_every_filter_and_the_search(self):
        """Favorites Only and Only New Devices ticked, and a search typed: the empty page offers
        Show All Devices, and after it nothing is ticked and the list is whole again."""
        with App("--source", "demo") as app:
            self.open_scanner(app)
            for name in ("Favorites Only", "Only New Devices"):
                self.open_menu(app, name)
                app.press(name, role="menu item")
            app.wait_for(lambda: "No New Devices Yet" in app.names(), what="the page Only New Devices leaves")
            app.press("Show All Devices")
            app.wait_for(lambda: NAME in app.names("label"), what=f"{NAME} listed after Show All Devices")
            self.assertNotIn("No Matching Devices", app.names(), "no other filter left the list empty")
            self.open_menu(app, "Favorites Only")
            ticked = [name for node, role, name in app.nodes() if role == "check menu item" and name in FILTERS
                      and node.get_state_set().contains(Atspi.StateType.CHECKED)]
            self.assertEqual(ticked, [], "every filter is off, Hide Unnamed Devices too")
            app.key("Escape")
            # A search that matches nothing: the same way out, and the search goes with it.
            app.press("Search Devices")
            app.wait_for(lambda: "Search Devices" in app.names("entry"), what="the search entry")
            app.find("Search Devices", "entry").set_text_contents("zzzz")
            app.wait_for(lambda: "No Matching Devices" in app.names(), what="the page the search leaves")
            app.press("Show All Devices")
            # "zzzz" would still leave the speaker out: listed again, the search was cleared.
            app.wait_for(lambda: NAME in app.names("label"), what=f"{NAME} listed after the search is cleared")


if __name__ == "__main__":
    unittest.main()
