# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""The Scanner and device pages on the real app, scanning real emulated radios:
Bumble LE devices over H4/TCP and a BR/EDR controller of BlueZ's btvirt."""

import re
import unittest

from flows import add_from_scanner, remove_from_scanner_after_checking_home
from harness import App, retry_gtk_atspi_crash
from peers import BtvirtStereo, BumblePeers

LE_NAME = "Kitchen Speaker"


def open_scanner(app, expect, timeout=30, home="Add New Devices"):
    app.wait_for(lambda: home in app.names("button"), what="the home page")
    app.press(home)
    app.wait_for(lambda: expect in app.names("label"), timeout=timeout, what=f"{expect} in the scanner")


@retry_gtk_atspi_crash
class BumbleTests(unittest.TestCase):
    def test_le_devices_are_listed_added_shown_in_detail_and_removed(self):
        with BumblePeers(count=3) as peers, App("--source", peers.source) as app:
            open_scanner(app, LE_NAME)
            labels = app.names("label")
            for name in ("Pixel Buds Pro", "Heart Strap"):
                self.assertIn(name, labels)
            self.assertTrue(any(l.startswith("−") and l.endswith("dBm") for l in labels), "RSSI as −NN dBm")
            self.assertFalse([l for l in labels if "LE static random" in l], "an address that stays needs no words on the row")

            # Add with a nickname through the dialog: the heart turns filled.
            add_from_scanner(app, LE_NAME, "Kitchen")

            # The detail page: Signal caption, a dBm figure, the decoded keywords, the plot's summary.
            app.press("Details for Kitchen")
            app.wait_for(lambda: "Keywords" in app.names("label"), what="the detail page")
            labels = app.names("label")
            self.assertIn("Signal", labels)
            self.assertTrue(any(l.startswith("−") and l.endswith("dBm") for l in labels), "the signal figure")
            # (Bumble's emulated controller answers scan requests with the advertising data,
            # so what this device puts in its scan response, its company, never arrives.)
            for keyword in ("Bluetooth LE", "Connectable", "No classic Bluetooth"):
                self.assertIn(keyword, labels)
            # The services and the TX power are properties, said once.
            self.assertEqual(len([l for l in labels if "Audio Sink" in l.split(", ")]), 1, labels)
            self.assertEqual(labels[labels.index("TX Power") + 1], "−9 dBm")
            self.assertTrue(any(re.match(r"Last \d+ (s|min): lowest −", l) for l in labels), "the history in words")
            app.press("Back")

            # It is on Favorites under its nickname; then removed from the Scanner through the confirmation.
            remove_from_scanner_after_checking_home(app, LE_NAME, "Kitchen")

    def test_a_peer_killed_mid_scan_keeps_the_list_and_says_what_happened(self):
        with BumblePeers(count=2) as peers, App("--source", peers.source) as app:
            open_scanner(app, "Pixel Buds Pro")
            peers.kill()
            app.wait_for(lambda: any("stopped answering" in l for l in app.names("label")), timeout=20,
                         what="the explanation")
            self.assertIn("Pixel Buds Pro", app.names("label"), "what was found stays listed")
            self.assertIn("Try Again", app.names("button"))

    def test_german_le_devices(self):
        with BumblePeers(count=3) as peers, App("--source", peers.source, lang="de") as app:
            open_scanner(app, LE_NAME, home="Neue Geräte hinzufügen")
            self.assertIn(f"{LE_NAME} zu den Favoriten hinzufügen", app.names("button"))
            app.press(f"Details zu {LE_NAME}")
            app.wait_for(lambda: "Schlagwörter" in app.names("label"), what="the German detail page")
            labels = app.names("label")
            self.assertIn("Signal", labels)
            self.assertIn("Verbindbar", labels)
            self.assertTrue(any(re.match(r"Letzte \d+ (s|Min\.): ", l) for l in labels), "the history in German")


@retry_gtk_atspi_crash
class BtvirtTests(unittest.TestCase):
    def test_a_bredr_device_is_listed_by_its_eir_name_with_rssi(self):
        with BtvirtStereo("Old Stereo") as stereo, App("--source", stereo.source) as app:
            open_scanner(app, "Old Stereo")
            labels = app.names("label")
            self.assertTrue(any(l.endswith("· Classic Bluetooth") for l in labels), "identifier and kind in plain words")
            self.assertTrue(any(l.startswith("−") and l.endswith("dBm") for l in labels), "RSSI from the inquiry")
            app.press("Details for Old Stereo")
            app.wait_for(lambda: "Keywords" in app.names("label"), what="the detail page")
            labels = app.names("label")
            for keyword in ("BR/EDR", "Audio Sink"):
                self.assertIn(keyword, labels)


if __name__ == "__main__":
    unittest.main()
