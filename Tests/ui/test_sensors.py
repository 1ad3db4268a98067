# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""Sensors on the real app, from Bumble peers advertising as home sensors do (le_peers.py
--sensors): a BTHome thermometer, an encrypted BTHome freezer and a Govee hygrometer. The
Scanner's rows say their main readings, the page shows each reading, and an encrypted sensor
says so without figures. The names are read raw, as a screen reader gets them."""

import datetime
import glob
import os
import re
import sqlite3
import subprocess
import unittest

from flows import add_from_scanner
from gateways import Keyring
from harness import App, retry_gtk_atspi_crash, scratch
from peers import BumblePeers
from test_notifications import SWITCH, MockNotifications

# The Freezer's key, as le_peers.py seals its frames with it; typed in as a user would.
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FREEZER_KEY = "231d39c1d7cc1ab1aee224cd096db932"

ENGLISH = {"living": "21.40 °C · 48.00 % · Battery 81 %", "govee": "−4.5 °C · 52.3 % · Battery 64 %",
           "freezer": "Encrypted readings", "home": "Add New Devices", "details": "Details for Living Room",
           "heading": "Readings", "temperature": "Temperature: 21.40 °C", "model": "BTHome sensor",
           "home_row": "21.40 °C · 48.00 %", "back": "Back"}
GERMAN = {"living": "21,40 °C · 48,00 % · Batterie 81 %", "govee": "−4,5 °C · 52,3 % · Batterie 64 %",
          "freezer": "Verschlüsselte Messwerte", "home": "Neue Geräte hinzufügen", "details": "Details zu Living Room",
          "heading": "Messwerte", "temperature": "Temperatur: 21,40 °C", "model": "BTHome-Sensor",
          "home_row": "21,40 °C · 48,00 %", "back": "Zurück"}


@retry_gtk_atspi_crash
class SensorTests(unittest.TestCase):
    def readings(self, lang, words):
        with BumblePeers(3, "--sensors") as peers, App("--source", peers.source, lang=lang) as app:
            app.wait_for(lambda: words["home"] in app.names("button"), what="the home page")
            app.press(words["home"])
            app.wait_for(lambda: words["living"] in app.names("label"), timeout=30, what="the thermometer's readings")
            labels = app.names("label")
            self.assertIn(words["govee"], labels, "a Govee hygrometer's readings, with its minus sign")
            self.assertIn(words["freezer"], labels, "an encrypted sensor says so, without figures")
            self.assertFalse(any("−18" in l or "-18" in l for l in labels), "no figure of the encrypted one")

            app.press(words["details"])
            app.wait_for(lambda: words["heading"] in app.names("label"), what="the Readings section")
            self.assertIn(words["model"], app.names("label"))
            self.assertIn(words["temperature"], app.names(), "each reading is named with its figure")

    def test_the_c_locale_reads_celsius_and_an_american_one_fahrenheit_with_one_decimal(self):
        """glibc's C locale measures in metric, so LANG=C.UTF-8 alone (no LANGUAGE) shows °C;
        en_US.UTF-8 shows °F, at the one decimal a degree Fahrenheit needs, not 70.52."""
        for env, living in [({"LANG": "C.UTF-8", "LC_ALL": "", "LANGUAGE": ""}, "21.40 °C · 48.00 % · Battery 81 %"),
                            ({"LANG": "en_US.UTF-8", "LC_ALL": "en_US.UTF-8", "LANGUAGE": ""}, "70.5 °F · 48.00 % · Battery 81 %")]:
            with self.subTest(lang=env["LANG"]), BumblePeers(3, "--sensors") as peers, \
                    App("--source", peers.source, env=env) as app:
                app.wait_for(lambda: "Add New Devices" in app.names("button"), what="the home page")
                app.press("Add New Devices")
                app.wait_for(lambda: living in app.names("label"), timeout=30, what=f"the thermometer's row, {living}")

    def test_a_favorite_sensor_shows_its_readings_beside_its_presence(self):
        with BumblePeers(3, "--sensors") as peers, App("--source", peers.source) as app:
            app.wait_for(lambda: "Add New Devices" in app.names("button"), what="the home page")
            app.press("Add New Devices")
            app.wait_for(lambda: ENGLISH["living"] in app.names("label"), timeout=30, what="the thermometer")
            add_from_scanner(app, "Living Room", "Lounge")
            app.press("Back")
            app.wait_for(lambda: any(l.endswith(ENGLISH["home_row"]) for l in app.names("label")),
                         what="the favorite's readings on Favorites")

    def test_the_demo_has_sensors_of_several_makers_and_its_freezer_opens_with_the_guides_key(self):
        """Try the Demo shows the sensor work: figures on the Scanner's rows, and the key the
        guide and the README give opens the freezer."""
        with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
            key = re.search(r"Freezer\*\* encrypts.*?`([0-9a-f]{32})`", f.read(), re.S).group(1)
        keyring = Keyring()
        self.addCleanup(keyring.stop)
        with App("--source", "demo", home=scratch()) as app:
            app.wait_for(lambda: "Add New Devices" in app.names("button"), what="the home page")
            app.press("Add New Devices")
            readings = r"^−?\d+\.\d+ °C · \d+\.\d+ %"
            # Two of them are among the demo's favorites, the Ruuvi under its nickname.
            for name in ("Greenhouse", "GVH5075_8F2A", "Balcony", "ATC_8E3F"):
                app.wait_for(lambda: name in app.names("label"), timeout=30, what=name)
            app.wait_for(lambda: sum(bool(re.match(readings, n)) for n in app.names("label")) >= 4,
                         what="four rows with a temperature and a humidity")
            app.press("Details for Chest freezer")
            app.wait_for(lambda: "Key for Chest freezer" in app.names("button"), what="Key… on the freezer's page")
            order = [n for _, _, n in app.nodes()]
            asks = next(i for i, n in enumerate(order) if "key" in n.lower() and n.endswith(".") and "Key for" not in n)
            self.assertEqual(order.index("Key for Chest freezer"), min(i for i, n in enumerate(order) if i > asks and n),
                             f"Key… right under the sentence that asks for the key: {order[asks:asks + 4]}")
            app.press("Key for Chest freezer")
            app.wait_for(lambda: "Key" in app.names("text") + app.names("password text"), what="the key's entry")
            app.type_text(key)
            app.key("Return")
            app.wait_for(lambda: any(re.match(r"^Temperature: −1[789]\.\d\d °C$", n) for n in app.names()),
                         what="the freezer's temperature, opened")

    def test_a_key_given_with_key_opens_an_encrypted_sensor_and_is_found_again_after_a_restart(self):
        keyring = Keyring()
        self.addCleanup(keyring.stop)
        home = scratch()
        with BumblePeers(3, "--sensors") as peers:
            with App("--source", peers.source, "--verbose", home=home) as app:
                app.wait_for(lambda: "Add New Devices" in app.names("button"), what="the home page")
                app.press("Add New Devices")
                app.wait_for(lambda: "Details for Freezer" in app.names("button"), timeout=30, what="the freezer")
                app.press("Details for Freezer")
                app.wait_for(lambda: "Key for Freezer" in app.names("button"), what="Key… on the freezer's page")
                self.assertIn("Its readings are encrypted. Give its key with Key… to read them.", app.names("label"))

                # A wrong key: the frame's check refuses it, the dialog says so and nothing is shown.
                app.press("Key for Freezer")
                app.wait_for(lambda: "Key" in app.names("text") + app.names("password text"), what="the key's entry")
                app.type_text("00" * 16)
                app.key("Return")
                refused = "This key does not open the readings of \u2068Freezer\u2069."
                app.wait_for(lambda: refused in app.names("label"), what="why the key was refused")
                self.assertFalse(any("18.50" in n for n in app.names()), "no figure from a wrong key")
                app.key("Escape")
                app.wait_for(lambda: refused not in app.names("label"), what="the dialog closed")

                app.press("Key for Freezer")
                app.wait_for(lambda: "Key" in app.names("text") + app.names("password text"), what="the key's entry")
                app.type_text(FREEZER_KEY)
                app.key("Return")
                app.wait_for(lambda: "Temperature: −18.50 °C" in app.names(), what="the freezer's temperature, opened")
                self.assertIn("Key kept in your keyring.", app.names("label"))
                self.assertIn("Remove the key of Freezer", app.names("button"))
                self.assertNotIn(FREEZER_KEY, app.stderr().lower())
            kept = subprocess.run(["secret-tool", "search", "xdg:schema", "io.github.favblue.FavBlue.SensorKey"],
                                  capture_output=True, text=True).stdout
            self.assertIn("secret = " + FREEZER_KEY.upper(), kept, "in the keyring, by the sensor's address")
            for path in glob.glob(os.path.join(home, "**", "*"), recursive=True):
                if os.path.isfile(path):
                    with open(path, "rb") as f:
                        self.assertNotIn(FREEZER_KEY.encode(), f.read().lower(), f"not in {path}")

            # Started again: the key is found in the keyring, and the row reads the freezer.
            with App("--source", peers.source, home=home) as app:
                app.wait_for(lambda: "Add New Devices" in app.names("button"), what="the home page")
                app.press("Add New Devices")
                app.wait_for(lambda: "−18.50 °C" in app.names("label"), timeout=30, what="the freezer's reading on its row")

    def test_a_favorite_sensors_readings_are_plotted_and_kept_in_the_database(self):
        home = scratch()
        with BumblePeers(3, "--sensors") as peers:
            with App("--source", peers.source, storage="sqlite", home=home) as app:
                app.wait_for(lambda: "Add New Devices" in app.names("button"), what="the home page")
                app.press("Add New Devices")
                app.wait_for(lambda: ENGLISH["living"] in app.names("label"), timeout=30, what="the thermometer")
                add_from_scanner(app, "Living Room", "Lounge")
                app.press("Details for Lounge")
                # A reading every 10 s into the last hour: the second makes a line.
                app.wait_for(lambda: "Plot of Temperature" in app.names(), timeout=40, what="the temperature's plot")
                self.assertEqual(app.find("Plot of Temperature").get_description(),
                                 "Temperature over the last hour: lowest 21.40 °C, highest 21.40 °C, last 21.40 °C")
                self.assertIn("Plot of Humidity", app.names())
                # Steady figures are flat lines on a span of their own: the edges are not "21.40 °C / 21.40 °C".
                labels = app.names("label")
                for edge in ("23 °C", "20 °C", "100 %", "0 %"):
                    self.assertIn(edge, labels, "a plot's edge")
                # The time axis: seconds of readings span two minutes, each moment a time of day
                # (C.UTF-8 writes them as en_US does, a narrow no-break space before AM), the middle
                # one a minute back, the right one now.
                def said(moment):
                    return moment.strftime("%I:%M").lstrip("0") + "\u202f" + moment.strftime("%p")
                now = datetime.datetime.now()
                self.assertTrue(any(all(said(end - datetime.timedelta(minutes=k)) in labels for k in (0, 1, 2))
                                    for end in (now, now - datetime.timedelta(minutes=1))),
                                f"the moments under a plot: {[l for l in labels if ':' in l]}")
                self.assertIn("Period of the readings’ plots", app.names("button"), "a favorite's day and week can be chosen")
            db = sqlite3.connect(os.path.join(home, "xdg_data_home", "favblue", "favblue.sqlite"))
            kept = db.execute("SELECT key, value FROM sensor_readings ORDER BY id").fetchall()
            db.close()
            self.assertIn(("temperature", 21.4), kept, "a favorite's readings are kept")
            self.assertIn(("humidity", 48.0), kept)
            # Started again, the day's plot holds the kept readings and the new ones.
            with App("--source", peers.source, storage="sqlite", home=home) as app:
                app.wait_for(lambda: "Details for Lounge" in app.names("button"), timeout=30, what="the favorite")
                app.press("Details for Lounge")
                app.wait_for(lambda: "Period of the readings’ plots" in app.names("button"), what="the period's choice")
                app.press("Period of the readings’ plots")
                app.wait_for(lambda: "Last Day" in app.names(), what="the periods")
                app.key("Down")
                app.key("Return")
                app.wait_for(lambda: "Plot of Temperature" in app.names() and app.find("Plot of Temperature").get_description()
                             == "Temperature over the last day: lowest 21.40 °C, highest 21.40 °C, last 21.40 °C",
                             timeout=20, what="the day's plot from the database")

    def test_a_limit_on_a_favorites_reading_sends_one_notification_when_passed(self):
        notifications = MockNotifications()
        self.addCleanup(notifications.stop)
        with BumblePeers(3, "--sensors") as peers, App("--source", peers.source) as app:
            app.wait_for(lambda: "Add New Devices" in app.names("button"), what="the home page")
            app.press("Add New Devices")
            app.wait_for(lambda: ENGLISH["living"] in app.names("label"), timeout=30, what="the thermometer")
            add_from_scanner(app, "Living Room", "Lounge")
            app.press("Details for Lounge")
            limits = "Notify when a reading of Lounge is above or below a limit"
            app.wait_for(lambda: limits in app.names("button"), what="Notify When Above or Below…")
            app.press(limits)
            app.wait_for(lambda: "Above" in app.names("text"), what="the limits' fields")
            self.assertIn("Reading", app.names("button"), "which reading the limits are for")
            app.type_text("20")
            app.key("Return")
            app.wait_for(lambda: "Notifies when Temperature is above 20 °C" in app.names("label"), what="the limit, said")
            title = "\u2068Lounge\u2069: Temperature above 20 °C"
            app.wait_for(lambda: any(t == title for _, t, _ in notifications.sent()), what="the notification")
            self.assertEqual([b for _, t, b in notifications.sent() if t == title], ["It reads 21.40 °C now."])
            # The reading stays above: no second notification for the same crossing.
            import time
            time.sleep(5)
            self.assertEqual(len([t for _, t, _ in notifications.sent() if t == title]), 1)

    def test_a_favorite_door_notifies_when_it_opens(self):
        """The demo's back door opens for 10 s of every 30: with Notify When It Opens on, each
        opening is one notification, saying the door is open."""
        notifications = MockNotifications()
        self.addCleanup(notifications.stop)
        with App("--source", "demo") as app:
            app.wait_for(lambda: "Add New Devices" in app.names("button"), what="the home page")
            app.press("Add New Devices")
            app.wait_for(lambda: "Add Back Door to favorites" in app.names("button"), timeout=30, what="the back door")
            add_from_scanner(app, "Back Door", "Garden door")
            app.press("Details for Garden door")
            app.wait_for(lambda: "Notify When It Opens" in app.names(SWITCH), what="the switch")
            self.assertNotIn("Notify When It Opens", app.names("label"), "said once, by the switch")
            order = [n for _, _, n in app.nodes()]
            group = order.index("Notifications")
            self.assertLess(group, order.index("Notify When It Opens"), "the switch sits in the Notifications group")
            self.assertLess(order.index("Notify When Nearby"), order.index("Notify When It Opens"), "beside the other notifications")
            app.find("Notify When It Opens", role=SWITCH).do_action(0)
            app.wait_for(lambda: "Notifies when it opens" in app.names("label"), what="the page saying so")
            title = "\u2068Garden door\u2069: Door open"
            app.wait_for(lambda: any(t == title for _, t, _ in notifications.sent()), timeout=40, what="the door opening")
            body = next(b for _, t, b in notifications.sent() if t == title)
            self.assertRegex(body, r"^At \d{1,2}:\d\d(\u202f[AP]M)?\.$")
            # The timeline under History says when it opened, to the second.
            opened = re.compile(r"^\d{1,2}:\d\d:\d\d(\u202f[AP]M)? · Door open$")
            app.wait_for(lambda: any(opened.match(n) for n in app.names("label")), what="the opening on the timeline")
            self.assertIn("Timeline", app.names("label"))
            # Still open (or closed again) a few seconds on: one notification for one opening.
            import time
            time.sleep(4)
            self.assertEqual(len([t for _, t, _ in notifications.sent() if t == title]), 1)

    def test_limits_read_back_as_typed_and_a_wrong_one_is_marked_as_it_is_typed_and_kept(self):
        """In °F: 75 and 65 come back as 75 and 65, not 75.002 and 64.994. "abc" is said to be
        no number while it is typed, and Save waits; a limit the other side of the other is
        said too; nothing typed is emptied."""
        american = {"LANG": "en_US.UTF-8", "LC_ALL": "en_US.UTF-8", "LANGUAGE": ""}
        with App("--source", "demo", env=american) as app:
            app.wait_for(lambda: "Add New Devices" in app.names("button"), what="the home page")
            app.press("Add New Devices")
            # The greenhouse is one of the demo's favorites.
            app.wait_for(lambda: "Details for Greenhouse" in app.names("button"), timeout=30, what="the greenhouse")
            app.press("Details for Greenhouse")
            limits = "Notify when a reading of Greenhouse is above or below a limit"
            app.wait_for(lambda: limits in app.names("button"), what="Notify When Above or Below…")
            app.press(limits)
            app.wait_for(lambda: "Above" in app.names("text"), what="the limits' fields")
            app.type_text("75")
            app.key("Tab")
            app.type_text("65")
            app.key("Return")
            said = "Notifies when Temperature is above 75 °F or below 65 °F"
            app.wait_for(lambda: said in app.names("label"), what="the limits, as typed")

            # Saved again untouched, the fields give back the same limits (GTK 4.8 does not let
            # assistive technology read an entry's text, so what they hold shows on the page).
            app.press(limits)
            app.wait_for(lambda: "Above" in app.names("text"), what="the limits' fields")
            app.press("Save")
            app.wait_for(lambda: "Above" not in app.names("text"), what="the dialog closed")
            self.assertIn(said, app.names("label"), "the fields held 75 and 65")
            app.press(limits)
            app.wait_for(lambda: "Above" in app.names("text"), what="the limits' fields")
            app.find("Above", "text").set_text_contents("abc")
            app.wait_for(lambda: "“abc” is not a number." in app.names("label"), what="why, while typing")
            self.assertFalse(app.is_sensitive("Save"), "Save waits for a number")
            app.find("Above", "text").set_text_contents("60")
            app.wait_for(lambda: "The lower limit must be below the upper one." in app.names("label"), what="the limits crossed")
            self.assertFalse(app.is_sensitive("Save"))
            app.find("Above", "text").set_text_contents("80")
            app.wait_for(lambda: "The lower limit must be below the upper one." not in app.names("label"), what="the problem gone")
            self.assertTrue(app.is_sensitive("Save"))
            app.press("Save")
            app.wait_for(lambda: "Notifies when Temperature is above 80 °F or below 65 °F" in app.names("label"),
                         what="the new limit, with the lower one kept through both problems")

    def test_rows_and_page_show_a_sensors_readings(self):
        self.readings(None, ENGLISH)

    def test_readings_follow_the_german_locale(self):
        self.readings("de", GERMAN)


if __name__ == "__main__":
    unittest.main()
