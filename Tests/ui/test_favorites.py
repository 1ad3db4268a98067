# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""The Favorites page on a real SQLite file: rename, remove with confirmation,
Undo, the placeholder, a restart, and German."""

import os
import shutil
import sqlite3
import time
import unittest

from flows import turn_on_tracker_alerts
from harness import App, retry_gtk_atspi_crash, iso, scratch

DEVICES = [
    ("AA:BB:CC:DD:EE:01/le-public", None, "Buds"),
    ("AA:BB:CC:DD:EE:02/le-random", "Kitchen", "Speaker"),
    ("00:1A:7D:DA:71:13/bredr", None, None),
]


def seed(home, devices=DEVICES):
    """Lets the app create its database, then adds favorites the way a past session would have."""
    with App(storage="sqlite", home=home) as app:
        app.accessible()
        app.key("ctrl+q")
        app.proc.wait(timeout=10)
    db = sqlite3.connect(os.path.join(home, "xdg_data_home", "favblue", "favblue.sqlite"))
    with db:
        for key, nickname, name in devices:
            db.execute("INSERT INTO favorites (device_id, nickname, last_name, added_at, updated_at) VALUES (?, ?, ?, ?, ?)", (key, nickname, name, 1.7e9, 1.7e9))
    db.close()


@retry_gtk_atspi_crash
class FavoritesTests(unittest.TestCase):
    def setUp(self):
        self.home = scratch("favblue-fav-")
        self.addCleanup(shutil.rmtree, self.home, True)

    def test_favorites_are_listed_by_display_name_with_their_identifier(self):
        seed(self.home)
        with App(storage="sqlite", home=self.home) as app:
            app.wait_for(lambda: "Kitchen" in app.names("label"), what="the favorites")
            labels = app.names("label")
            # Under a nickname, the name the device gives itself; an address that stays needs no words.
            for text in ("Buds", "AA:BB:CC:DD:EE:01", "Kitchen", "Speaker · AA:BB:CC:DD:EE:02",
                         "Unknown device", "00:1A:7D:DA:71:13 · Classic Bluetooth"):
                self.assertIn(text, labels)
            # A device with no name at all: a placeholder over its address, not the address twice.
            self.assertNotIn("00:1A:7D:DA:71:13", labels)
            self.assertNotIn("No Favorites Yet", app.names())
            for name in ("Buds", "Kitchen", "00:1A:7D:DA:71:13"):
                self.assertIn(f"Remove {name} from favorites", app.names("button"))
                self.assertIn(f"Details for {name}", app.names("button"))

    def test_rename_through_the_dialog_disables_save_for_invalid_input(self):
        seed(self.home)
        with App(storage="sqlite", home=self.home) as app:
            app.wait_for(lambda: "Buds" in app.names("label"), what="the favorites")
            # A click opens the device's page, as on the Scanner; F2 on the row renames.
            app.click_on_until("Buds", "label", lambda: "Signal" in app.names("label"), what="the device's page")
            app.press("Back")
            app.wait_for(lambda: "Add New Devices" in app.names("button"), what="Favorites again")
            self.assertTrue(app.keys_until_focused("Tab", "Buds", ("panel",)), "the row takes the keyboard")
            app.key("F2")
            app.wait_for(lambda: "Rename Favorite" in app.names(), what="the rename dialog")
            app.type_text("x" * 65)
            app.wait_for(lambda: not app.is_sensitive("Save"), what="Save disabled for 65 characters")
            self.assertTrue(any("at most 64" in n for n in app.names("label")), "the reason is shown")
            app.key("ctrl+a")
            app.type_text("Ear Pods")
            app.wait_for(lambda: app.is_sensitive("Save"), what="Save enabled again")
            app.key("Return")
            app.wait_for(lambda: "Ear Pods" in app.names("label"), what="the new nickname")
        # It was saved: a new session reads it back.
        with App(storage="sqlite", home=self.home) as app:
            app.wait_for(lambda: "Ear Pods" in app.names("label"), what="the nickname after a restart")

    def test_escape_cancels_the_rename(self):
        seed(self.home)
        with App(storage="sqlite", home=self.home) as app:
            app.wait_for(lambda: "Kitchen" in app.names("label"), what="the favorites")
            # F2 renames the row the keyboard is in, on its heart as well.
            self.assertTrue(app.keys_until_focused("Tab", "Remove Kitchen from favorites", ("push button",)), "Tab reaches the row")
            app.key("F2")
            app.wait_for(lambda: "Rename Favorite" in app.names(), what="the rename dialog")
            app.type_text("Changed")
            app.key("Escape")
            app.wait_for(lambda: "Rename Favorite" not in app.names(), what="the dialog to close")
            self.assertIn("Kitchen", app.names("label"))

    def test_remove_asks_first_then_undo_restores(self):
        seed(self.home)
        with App(storage="sqlite", home=self.home) as app:
            app.wait_for(lambda: "Kitchen" in app.names("label"), what="the favorites")
            app.press("Remove Kitchen from favorites")
            app.wait_for(lambda: f"Remove “{iso('Kitchen')}” from favorites?" in app.names(), what="the confirmation")
            app.press("Remove")
            app.wait_for(lambda: "Kitchen" not in app.names("label"), what="the row to go")
            app.wait_for(lambda: "Undo" in app.names("button"), what="the Undo toast")
            app.press("Undo")
            app.wait_for(lambda: "Kitchen" in app.names("label"), what="the row to come back")
            app.wait_for(lambda: app.focused() == ("panel", "Kitchen"), what="the keyboard on the row that came back")
        db = sqlite3.connect(os.path.join(self.home, "xdg_data_home", "favblue", "favblue.sqlite"))
        row = db.execute("SELECT nickname, added_at FROM favorites WHERE device_id LIKE 'AA:BB:CC:DD:EE:02%'").fetchone()
        db.close()
        self.assertEqual(row, ("Kitchen", 1.7e9), "Undo keeps the nickname and the original added time")

    def test_the_undo_notice_stays_while_its_button_has_the_focus_and_enter_then_undoes(self):
        """A keyboard user Tabs to Undo and reads on: past the notice's 5 s it is still there, and
        the late Enter undoes the removal rather than landing on Add New Devices."""
        seed(self.home)
        with App(storage="sqlite", home=self.home) as app:
            app.wait_for(lambda: "Kitchen" in app.names("label"), what="the favorites")
            app.press("Remove Kitchen from favorites")
            app.wait_for(lambda: "Remove" in app.names("button"), what="the confirmation")
            app.press("Remove")
            app.wait_for(lambda: "Undo" in app.names("button"), what="the Undo notice")
            for _ in range(30):
                if app.focused_name() == "Undo":
                    break
                app.key("Tab")
            self.assertEqual(app.focused_name(), "Undo", "Tab reaches the notice's Undo")
            time.sleep(7)
            self.assertIn("Undo", app.names("button"), "the notice stays while its button has the focus")
            self.assertEqual(app.focused_name(), "Undo", "and the focus stays on it")
            app.key("Return")
            app.wait_for(lambda: "Kitchen" in app.names("label"), what="the row to come back")
            app.wait_for(lambda: app.focused() == ("panel", "Kitchen"), what="the keyboard on the row that came back")
            self.assertNotIn("Back", app.names("button"), "Enter did not open the Scanner")

    def test_delete_key_asks_to_remove_the_focused_favorite(self):
        seed(self.home, DEVICES[:1])
        with App(storage="sqlite", home=self.home) as app:
            app.wait_for(lambda: "Buds" in app.names("label"), what="the favorite")
            app.key("Tab")
            for _ in range(6):
                if app.focused_name() not in ("Add New Devices", "Main Menu", None):
                    break
                app.key("Tab")
            app.key("Delete")
            app.wait_for(lambda: f"Remove “{iso('Buds')}” from favorites?" in app.names(), what="the confirmation")
            app.key("Escape")

    def test_removing_the_last_favorite_shows_the_placeholder(self):
        seed(self.home, DEVICES[:1])
        with App(storage="sqlite", home=self.home) as app:
            app.wait_for(lambda: "Buds" in app.names("label"), what="the favorite")
            app.press("Remove Buds from favorites")
            app.wait_for(lambda: "Remove" in app.names("button"), what="the confirmation")
            app.press("Remove")
            app.wait_for(lambda: "No Favorites Yet" in app.names(), what="the placeholder")

    def test_german_favorites_page(self):
        seed(self.home)
        with App(storage="sqlite", home=self.home, lang="de") as app:
            app.wait_for(lambda: "Kitchen" in app.names("label"), what="the favorites")
            self.assertIn("Kitchen aus den Favoriten entfernen", app.names("button"))
            self.assertIn("00:1A:7D:DA:71:13 · Klassisches Bluetooth", app.names("label"))
            app.press("Kitchen aus den Favoriten entfernen")
            app.wait_for(lambda: f"„{iso('Kitchen')}“ aus den Favoriten entfernen?" in app.names(), what="German confirmation")

    def test_a_corrupt_database_is_moved_aside_and_the_user_is_told(self):
        folder = os.path.join(self.home, "xdg_data_home", "favblue")
        os.makedirs(folder)
        with open(os.path.join(folder, "favblue.sqlite"), "wb") as f:
            f.write(os.urandom(4096))
        with App(storage="sqlite", home=self.home) as app:
            app.wait_for(lambda: any("could not be read" in n for n in app.names("label")), what="the banner")
            self.assertTrue(any(name.startswith("favblue.sqlite.corrupt-") for name in os.listdir(folder)))
            app.press("Dismiss")
            app.wait_for(lambda: not any("could not be read" in n for n in app.names("label")), what="the banner to go")

    def history_rows(self):
        """Signal, sensor and tracker history rows in the user's store (the seed has none)."""
        db = sqlite3.connect(os.path.join(self.home, "xdg_data_home", "favblue", "favblue.sqlite"))
        with db:
            counts = tuple(db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]
                           for table in ("sightings", "sensor_readings", "tracker_sightings"))
        db.close()
        return counts

    def stored(self):
        db = sqlite3.connect(os.path.join(self.home, "xdg_data_home", "favblue", "favblue.sqlite"))
        with db:
            rows = sorted(db.execute("SELECT device_id, nickname, last_name FROM favorites"))
        db.close()
        return rows

    def test_the_demo_shows_its_own_favorites_and_leaves_the_users_as_they_were(self):
        seed(self.home)
        before = self.stored()
        demo_note = "These are the demo’s favorites. Yours are kept as they were, and are back when FavBlue starts without the demo."
        with App("--source", "demo", storage="sqlite", home=self.home) as app:
            # The five the README's first picture shows, some under nicknames.
            for name in ("Greenhouse", "Chest freezer", "Ear Pods 🎧", "Balcony", "Heart Strap"):
                app.wait_for(lambda: f"Remove {name} from favorites" in app.names("button"), what=name)
            self.assertIn(demo_note, app.names("label"))
            self.assertNotIn("Remove Buds from favorites", app.names("button"), "the user's own are not mixed in")
            # What the user does in the demo stays in the demo.
            app.press("Remove Balcony from favorites")
            app.wait_for(lambda: f"Remove “{iso('Balcony')}” from favorites?" in app.names(), what="the confirmation")
            app.press("Remove")
            app.wait_for(lambda: "Remove Balcony from favorites" not in app.names("button"), what="Balcony gone")
            # Tracker Alerts on, so the demo's AirTag is watched; the demo's favorites are heard
            # (their signal plot would fill) for a while.
            turn_on_tracker_alerts(app)
            time.sleep(4)
            app.key("ctrl+q")
            app.proc.wait(timeout=10)
        self.assertEqual(before, self.stored(), "the demo wrote nothing into the user's favorites")
        self.assertEqual(self.history_rows(), (0, 0, 0), "nor what FavBlue heard of the demo's favorites and its AirTag")
        with App(storage="sqlite", home=self.home) as app:
            app.wait_for(lambda: "Remove Buds from favorites" in app.names("button"), what="the user's favorites")
            buttons = app.names("button")
            for name in ("Kitchen", "00:1A:7D:DA:71:13"):
                self.assertIn(f"Remove {name} from favorites", buttons)
            for name in ("Greenhouse", "Chest freezer"):
                self.assertNotIn(f"Remove {name} from favorites", buttons)
            self.assertNotIn(demo_note, app.names("label"))

    def test_try_the_demo_shows_the_demos_favorites_in_german(self):
        seed(self.home)
        before = self.stored()
        with App("--source", "h4-unix:/nonexistent/favblue.sock", storage="sqlite", home=self.home, lang="de") as app:
            app.wait_for(lambda: "Buds aus den Favoriten entfernen" in app.names("button"), what="the user's favorites")
            app.press("Neue Geräte hinzufügen")
            app.wait_for(lambda: "Demo ausprobieren" in app.names("button"), what="Try the Demo")
            app.press("Demo ausprobieren")
            app.press("Zurück")
            app.wait_for(lambda: "Truhe aus den Favoriten entfernen" in app.names("button"), what="the demo's favorites")
            time.sleep(4)
            self.assertIn("Balkon aus den Favoriten entfernen", app.names("button"))
            self.assertNotIn("Buds aus den Favoriten entfernen", app.names("button"))
            self.assertIn("Das sind die Favoriten der Demo. Ihre eigenen bleiben, wie sie waren, und sind wieder da, "
                          "wenn FavBlue ohne die Demo startet.", app.names("label"))
        self.assertEqual(before, self.stored())
        self.assertEqual(self.history_rows(), (0, 0, 0), "the demo's signal, sensor and tracker history stayed in memory")


if __name__ == "__main__":
    unittest.main()
