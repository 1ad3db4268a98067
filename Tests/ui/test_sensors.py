# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""Sensors on the real app, from Bumble peers advertising as home sensors do (le_peers.py
--sensors): a BTHome thermometer, an encrypted BTHome freezer and a Govee hygrometer. The
Scanner's rows say their main readings, the page shows each reading, and an encrypted sensor
says so without figures. The names are read raw, as a screen reader gets them."""

import unittest

from flows import add_from_scanner
from harness import App, retry_gtk_atspi_crash
from peers import BumblePeers

ENGLISH = {"living": "21.40 °C · 48.00 % · Battery 81 %", "govee": "−4.5 °C · 52.3 % · Battery 64 %",
           "freezer": "Encrypted readings", "home": "Add New Devices", "details": "Details for Living Room",
           "heading": "Readings", "temperature": "Temperature: 21.40 °C", "model": "BTHome v2",
           "home_row": "21.40 °C · 48.00 %", "back": "Back"}
GERMAN = {"living": "21,40 °C · 48,00 % · Batterie 81 %", "govee": "−4,5 °C · 52,3 % · Batterie 64 %",
          "freezer": "Verschlüsselte Messwerte", "home": "Neue Geräte hinzufügen", "details": "Details zu Living Room",
          "heading": "Messwerte", "temperature": "Temperatur: 21,40 °C", "model": "BTHome v2",
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

    def test_a_favorite_sensor_shows_its_readings_beside_its_presence(self):
        with BumblePeers(3, "--sensors") as peers, App("--source", peers.source) as app:
            app.wait_for(lambda: "Add New Devices" in app.names("button"), what="the home page")
            app.press("Add New Devices")
            app.wait_for(lambda: ENGLISH["living"] in app.names("label"), timeout=30, what="the thermometer")
            add_from_scanner(app, "Living Room", "Lounge")
            app.press("Back")
            app.wait_for(lambda: any(l.endswith(ENGLISH["home_row"]) for l in app.names("label")),
                         what="the favorite's readings on Favorites")

    def test_rows_and_page_show_a_sensors_readings(self):
        self.readings(None, ENGLISH)

    def test_readings_follow_the_german_locale(self):
        self.readings("de", GERMAN)


if __name__ == "__main__":
    unittest.main()
