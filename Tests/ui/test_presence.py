# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""Presence and staleness on a live source: Bumble LE devices over H4/TCP. A peer
that falls silent (stops advertising, link up) fades and then goes; Favorites
says which favorites are nearby from the quiet background scan, and when they
were last seen from the stored sightings once no source answers."""

import os
import sqlite3
import time
import unittest

from flows import write_settings
from harness import App, Atspi, retry_gtk_atspi_crash, scratch
from peers import BumblePeers, free_port

SILENT = "Kitchen Speaker"  # device 1 of le_peers.py
SILENT_KEY = "C0:98:E5:49:00:01/le-random"
TALKING = "Heart Strap"     # device 2


def row_labels(labels, title, titles):
    """The labels of the row titled `title`, in tree order up to the next row's title."""
    if title not in labels:
        return None
    start = labels.index(title) + 1
    end = next((i for i in range(start, len(labels)) if labels[i] in titles), len(labels))
    return labels[start:end]


def dead_source():
    """A TCP source nobody listens on: every scan of it fails."""
    return f"h4-tcp:127.0.0.1:{free_port()}"


@retry_gtk_atspi_crash
class SilentPeerTests(unittest.TestCase):
    def test_a_silent_peer_fades_after_the_fade_time_and_goes_after_the_remove_time(self):
        home = scratch("favblue-ui-")
        write_settings(home, scanner_fade_after_seconds=5, scanner_remove_after_seconds=20)
        titles = {"Pixel Buds Pro", SILENT, TALKING}
        with BumblePeers(count=3) as peers, App("--source", peers.source, home=home) as app:
            app.wait_for(lambda: "Add New Devices" in app.names("button"), what="the home page")
            app.press("Add New Devices")
            app.wait_for(lambda: SILENT in app.names("label") and TALKING in app.names("label"), timeout=30,
                         what="the peers in the Scanner")
            self.assertFalse(any(l.endswith(" ago") for l in app.names("label")), "a heard device shows no age")

            peers.silence(1)
            silent_at = time.monotonic()
            # Faded: its row says how old its figure is, at least the fade time.
            seen = {}

            def faded():
                # One walk of the tree for both rows, so they are compared at one moment.
                labels = app.names("label")
                seen["silent"], seen["talking"] = row_labels(labels, SILENT, titles), row_labels(labels, TALKING, titles)
                return any(l.endswith(" ago") for l in seen["silent"] or [])
            app.wait_for(faded, timeout=30, what="the silent row's age")
            age = next(l for l in seen["silent"] if l.endswith(" ago"))
            self.assertGreaterEqual(int(age.split(" ")[0]), 5, f"faded only after the fade time: {age}")
            self.assertFalse(any(l.endswith(" ago") for l in seen["talking"] or []),
                             "a device still advertising does not fade")

            # Gone after the remove time, by the clock alone; the others stay.
            app.wait_for(lambda: SILENT not in app.names("label"), timeout=40, what="the silent row to go")
            self.assertGreaterEqual(time.monotonic() - silent_at, 20 - 1, "not before the remove time")
            labels = app.names("label")
            self.assertIn(TALKING, labels)
            self.assertIn("Pixel Buds Pro", labels)


@retry_gtk_atspi_crash
class FavoritesPresenceTests(unittest.TestCase):
    def test_background_scan_says_nearby_and_stored_sightings_say_last_seen(self):
        home = scratch("favblue-ui-")
        # A first run creates the database; then two favorites are stored as the app would.
        with App("--source", dead_source(), storage="sqlite", home=home) as app:
            app.wait_for(lambda: "No Favorites Yet" in app.names(), what="the empty home page")
        db = sqlite3.connect(os.path.join(home, "xdg_data_home", "favblue", "favblue.sqlite"))
        now = time.time()
        db.executemany("INSERT INTO favorites (device_id, nickname, last_name, added_at, updated_at) VALUES (?, ?, ?, ?, ?)",
                       [(SILENT_KEY, "Kitchen", SILENT, now, now),
                        ("C0:98:E5:49:0F:7F/le-random", "Garage Tag", None, now, now)])
        db.commit()
        db.close()

        write_settings(home, background_scan="true", scanner_period_seconds=15, scanner_window_seconds=10)
        with BumblePeers(count=3) as peers, App("--source", peers.source, storage="sqlite", home=home) as app:
            app.wait_for(lambda: any(l.startswith("Nearby · −") and l.endswith(" dBm")
                                     for l in app.names("label")), timeout=40,
                         what="Nearby · −NN dBm from the background scan")
            labels = app.names("label")
            self.assertIn("Kitchen", labels)
            self.assertIn("Not seen yet", labels, "the favorite that never advertised")
            self.assertNotIn("Back", app.names("button"), "still on Favorites: the Scanner never opened")
            # Long enough for a few stored readings.
            time.sleep(2)

        # No source answers now: the background scan fails quietly, the stored sightings speak.
        with App("--source", dead_source(), storage="sqlite", home=home) as app:
            # "Last seen just now" or "… ago": the moment rule.
            app.wait_for(lambda: any(l.startswith("Last seen ") for l in app.names("label")),
                         what="Last seen … ago from the stored sightings")
            names = app.names()
            self.assertIn("Not seen yet", names)
            self.assertFalse(any(n.startswith("Nearby") for n in names))
            self.assertNotIn("Scanning Is Not Possible", names, "no error page on Favorites")
            self.assertFalse(any("stopped answering" in n or "No Bluetooth adapter" in n for n in names),
                             f"no error banner on Favorites: {names}")

        with App("--source", dead_source(), storage="sqlite", home=home, lang="de") as app:
            app.wait_for(lambda: any(l.startswith("Zuletzt gesehen ") for l in app.names("label")),
                         what="the German last-seen line")
            self.assertIn("Noch nicht gesehen", app.names("label"))

    def test_the_background_switch_is_named_off_by_default_and_kept(self):
        home = scratch("favblue-ui-")
        with App("--source", dead_source(), home=home) as app:
            app.wait_for(lambda: "Add New Devices" in app.names("button"), what="the home page")
            app.key("ctrl+comma")
            app.wait_for(lambda: "Preferences" in app.frames(), what="the Preferences window")
            # GTK exposes a switch as a check box.
            self.assertFalse(app.find("Scan in the Background", role="check box").get_state_set()
                             .contains(Atspi.StateType.CHECKED), "off by default")
            self.assertFalse(app.is_sensitive("Scan Interval in seconds", role=None))
            app.press("Scan in the Background", role="check box")
            app.wait_for(lambda: app.find("Scan in the Background", role="check box").get_state_set()
                         .contains(Atspi.StateType.CHECKED), what="the switch on")
            self.assertTrue(app.is_sensitive("Scan Interval in seconds", role=None), "its interval can be set")
            app.key("Escape")
        keyfile = os.path.join(home, "xdg_config_home", "glib-2.0", "settings", "keyfile")
        with open(keyfile, encoding="utf-8") as f:
            self.assertIn("background-scan=true", f.read(), "kept in GSettings")


if __name__ == "__main__":
    unittest.main()
