# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""Several sources at once, on the real app: this computer's radio (Bumble over H4) and a
broker's gateways in two rooms hear the same peer. It is listed once; its page says who heard
it; as a favorite it is "Kitchen · −45 dBm", then, once the office hears it clearly better for a
while, "Office · −42 dBm": a room's name is a name, never after "the"."""

import os
import re
import time
import unittest

from flows import add_from_scanner, write_settings
from gateways import Broker, Gateways
from harness import App, iso, retry_gtk_atspi_crash, scratch
from peers import BumblePeers

PEER = "C0:98:E5:49:00:00"  # le_peers.py's first peer


def mapped_libraries(app):
    with open(f"/proc/{app.proc.pid}/maps", encoding="utf-8") as maps:
        return maps.read()


def heard_only_by(app, first, second):
    """Whether the page says only these two rooms hear the device; they are named in the order
    they were first heard, which two gateways reporting at once do not fix."""
    said = "Heard only in {} and {}; this computer cannot reach it."
    labels = app.names("label")
    return said.format(first, second) in labels or said.format(second, first) in labels


def open_page(app, name):
    """From the home page: the Scanner, then the page of `name`, a device the gateways hear."""
    app.wait_for(lambda: "Add New Devices" in app.names("button"), what="the home page")
    app.press("Add New Devices")
    app.wait_for(lambda: f"Details for {name}" in app.names("button"), timeout=30, what=f"{name} listed")
    app.press(f"Details for {name}")


@retry_gtk_atspi_crash
class GatewayTests(unittest.TestCase):
    def test_the_demo_has_a_second_room_whose_gateway_hears_what_this_computer_cannot(self):
        """Try the Demo: its kitchen's gateway hears the fridge, which this computer does not,
        and the freezer better than this computer; the freezer, a favorite, is said to be in the
        kitchen, by the name the room goes by in German too."""
        for lang, words in (("en", {"home": "Add New Devices", "fridge": "Details for Fridge", "details": "Details for Chest freezer",
                                    "only": "Heard only in Kitchen; this computer cannot reach it.", "heard": "Heard By",
                                    "room": "Kitchen · ", "own": "This Computer", "back": "Back",
                                    "remove": "Remove Chest freezer from favorites"}),
                            ("de", {"home": "Neue Geräte hinzufügen", "fridge": "Details zu Fridge", "details": "Details zu Truhe",
                                    "only": "Nur hier gehört: Küche. Dieser Computer kann es nicht erreichen.", "heard": "Gehört von",
                                    "room": "Küche · ", "own": "Dieser Computer", "back": "Zurück",
                                    "remove": "Truhe aus den Favoriten entfernen"})):
            with self.subTest(lang=lang), App("--source", "demo", lang=lang) as app:
                app.wait_for(lambda: words["home"] in app.names("button"), what="the home page")
                app.press(words["home"])
                app.wait_for(lambda: words["fridge"] in app.names("button"), timeout=30, what="the fridge, heard in the kitchen")
                # The freezer is one of the demo's favorites, under its nickname.
                app.wait_for(lambda: words["remove"] in app.names("button"), what="the freezer's filled heart")
                app.press(words["fridge"])
                app.wait_for(lambda: words["only"] in app.names("label"), timeout=20, what="where the fridge is heard")
                app.press(words["back"])
                app.wait_for(lambda: words["details"] in app.names("button"), what="the Scanner again")
                app.press(words["details"])
                app.wait_for(lambda: words["heard"] in app.names("label") and words["own"] in app.names("label"),
                             timeout=20, what="the freezer's Heard By")
                self.assertIn(words["room"].split(" ·")[0], app.names("label"), "the kitchen hears it")
                # The big figure is the kitchen's, and says so, every second alike: it no longer
                # jumps between the kitchen and this computer.
                kitchen = iso(words["room"].split(" ·")[0])
                seen = []
                for _ in range(4):
                    seen += [n for n in app.names("label") if re.fullmatch(r"−\d+ dBm · " + kitchen, n)]
                    time.sleep(1)
                self.assertGreaterEqual(len(seen), 4, f"the figure names the kitchen each time: {seen}")
                app.press(words["back"])
                app.wait_for(lambda: words["details"] in app.names("button"), what="the Scanner again")
                app.press(words["back"])
                app.wait_for(lambda: any(n.startswith(words["room"]) and " dBm" in n for n in app.names("label")),
                             timeout=20, what="the favorite in the kitchen, on the home page")

    def test_a_peer_heard_here_and_in_two_rooms_is_one_device_in_the_room_that_hears_it_best(self):
        broker = Broker()
        self.addCleanup(broker.stop)
        # The background scan keeps the home page's presence live.
        home = scratch()
        write_settings(home, background_scan="true", scanner_period_seconds=15, scanner_window_seconds=14)
        with BumblePeers(1, "--prefix", "Keys") as peers, \
                App("--source", peers.source, "--source", broker.url, home=home) as app:
            rooms = Gateways(broker, PEER, "Keys 1", {"Kitchen": -40, "Office": -80})
            self.addCleanup(rooms.stop)
            app.wait_for(lambda: "Add New Devices" in app.names("button"), what="the home page")
            app.press("Add New Devices")
            app.wait_for(lambda: "Details for Keys 1" in app.names("button"), timeout=30, what="the peer")
            self.assertEqual(app.names("button").count("Details for Keys 1"), 1, "one row, however many heard it")
            add_from_scanner(app, "Keys 1", "My keys")

            app.press("Details for My keys")
            app.wait_for(lambda: "Heard By" in app.names("label"), what="Heard By")
            app.wait_for(lambda: {"This Computer", "Kitchen", "Office"} <= set(app.names("label")), what="the three sources")
            app.wait_for(lambda: "Its room" in app.names("label"), what="the room marked")
            app.press("Back")
            app.press("Back")
            app.wait_for(lambda: any(n.startswith("Kitchen · ") for n in app.names("label")), timeout=20,
                         what="the favorite in the kitchen")

            # Carried to the office: the kitchen hears it faintly now.
            rooms.signals = {"Kitchen": -82, "Office": -38}
            app.wait_for(lambda: any(n.startswith("Office · ") for n in app.names("label")), timeout=30,
                         what="the favorite in the office")

    def test_with_the_scanner_closed_and_no_background_scan_favorites_follow_a_move_between_rooms(self):
        """Brokers cost this computer's radio nothing: they keep listening while the app is open."""
        broker = Broker()
        self.addCleanup(broker.stop)
        with App("--source", "demo", "--source", broker.url, storage="sqlite") as app:
            rooms = Gateways(broker, "C0:98:E5:49:00:66", "Cat collar", {"Kitchen": -45, "Office": -85})
            self.addCleanup(rooms.stop)
            app.wait_for(lambda: "Add New Devices" in app.names("button"), what="the home page")
            app.press("Add New Devices")
            app.wait_for(lambda: "Add Cat collar to favorites" in app.names("button"), timeout=30, what="the collar")
            add_from_scanner(app, "Cat collar", "Cat")
            app.press("Back")
            app.wait_for(lambda: "Back" not in app.names("button"), what="the home page, the Scanner closed")
            app.wait_for(lambda: any(n.startswith("Kitchen · ") for n in app.names("label")), timeout=20,
                         what="the cat in the kitchen")
            rooms.signals = {"Kitchen": -85, "Office": -42}
            app.wait_for(lambda: any(n.startswith("Office · ") for n in app.names("label")), timeout=40,
                         what="the cat in the office, with the Scanner closed")
            self.assertNotIn("Stop Scanning", app.names("button"), "this computer's radio is not scanning")

    def test_connect_says_a_device_only_gateways_hear_is_out_of_reach(self):
        """Not the demo's own explanation: the real reason, the rooms that hear it."""
        broker = Broker()
        self.addCleanup(broker.stop)
        rooms = Gateways(broker, "C0:98:E5:49:00:77", "Garden tag", {"Kitchen": -60, "Office": -70})
        self.addCleanup(rooms.stop)
        with App("--source", "demo", "--source", broker.url) as app:
            open_page(app, "Garden tag")
            app.wait_for(lambda: heard_only_by(app, "Kitchen", "Office"), what="why Connect is unavailable")
            self.assertFalse(app.is_sensitive("Connect to Garden tag"), "Connect is offered, insensitive")
            self.assertFalse(any("In the demo" in n for n in app.names()), "not the demo's reason")
            self.assertNotIn("The demo’s devices cannot pair.", app.names("label"), "under Pairing neither")
            self.assertFalse(app.is_sensitive("Pair with Garden tag"), "Pair cannot reach it either")

    def test_a_room_named_in_preferences_is_said_by_that_name_and_kept(self):
        """Gateways go by their own names ("kitchen"); Preferences → Sources gives each room one of the user's."""
        broker = Broker()
        self.addCleanup(broker.stop)
        rooms = Gateways(broker, "C0:98:E5:49:00:78", "Shed tag", {"kitchen": -60, "office": -70})
        self.addCleanup(rooms.stop)
        home = scratch("favblue-rooms-")
        with App("--source", "demo", "--source", broker.url, home=home) as app:
            open_page(app, "Shed tag")
            app.wait_for(lambda: heard_only_by(app, "kitchen", "office"), what="the rooms by their gateways' names")
            app.key("ctrl+comma")
            app.wait_for(lambda: "Preferences" in app.frames(), what="Preferences")
            app.press("Sources", role="page tab")
            app.wait_for(lambda: "Name of the room kitchen" in app.names("text"), what="a row per room heard")
            app.find("Name of the room kitchen", "text").set_text_contents("Kitchen")
            app.find("Name of the room office", "text").set_text_contents("Home Office")
            app.key("Escape")
            app.wait_for(lambda: "Preferences" not in app.frames(), what="Preferences closed")
            app.wait_for(lambda: heard_only_by(app, "Kitchen", "Home Office"), what="the rooms by the names given")
        with App("--source", "demo", "--source", broker.url, home=home) as app:
            open_page(app, "Shed tag")
            app.wait_for(lambda: heard_only_by(app, "Kitchen", "Home Office"), what="the names kept across a restart")

    def test_adding_a_source_says_what_is_wrong_in_words_and_a_broker_that_is_not_there_says_so(self):
        with App() as app:
            app.wait_for(lambda: "Add New Devices" in app.names("button"), what="the home page")
            app.key("ctrl+comma")
            app.wait_for(lambda: "Preferences" in app.frames(), what="Preferences")
            app.press("Sources", role="page tab")
            app.press("Add Source…")
            app.wait_for(lambda: "Add a Source" in app.names(), what="the dialog")
            # The fields keep visible labels; the address forms are each one line of their own.
            self.assertTrue({"Name", "Address"} <= set(app.names("label")), "labels beside the fields")
            self.assertIn("A broker: mqtt://[user@]host[:port]/prefix", app.names("label"))
            app.find("Name", "text").set_text_contents("Garage")
            for typed, said in (("broker.local", "A broker’s address starts with mqtt://, as in mqtt://broker.local."),
                                ("bt:xyz", "FavBlue cannot read this address. A broker’s reads mqtt://broker.local/home, a board’s h4-tcp:host:port.")):
                app.find("Address", "text").set_text_contents(typed)
                app.wait_for(lambda: said in app.names("label"), what=f"what is wrong with {typed}")
                self.assertFalse(app.is_sensitive("Add"), f"{typed} cannot be added")
            self.assertFalse([n for n in app.names("label") if "Bluetooth source" in n], "a broker is no Bluetooth source")
            # A broker with a user gets Password…; with nothing listening there, the row says so.
            app.find("Address", "text").set_text_contents("mqtt://me@127.0.0.1:1/home")
            app.wait_for(lambda: app.is_sensitive("Add"), what="a broker's address accepted")
            app.press("Add")
            app.wait_for(lambda: "Password…" in app.names("button"), what="Password… for a broker with a user")
            app.wait_for(lambda: "mqtt://me@127.0.0.1:1/home\nCannot connect: Connection refused. Trying again." in app.names(),
                         timeout=10, what="the broker said to be unreachable within 10 s")

    def test_a_gateway_added_in_preferences_is_scanned_kept_and_said_with_its_state(self):
        broker = Broker()
        self.addCleanup(broker.stop)
        rooms = Gateways(broker, "C0:98:E5:49:00:09", "Hall tag", {"Hall": -50})
        self.addCleanup(rooms.stop)
        home = scratch()
        # This computer's source from settings, not the command line, so Preferences decides.
        write_settings(home, source="'demo'")
        with App(home=home) as app:
            app.wait_for(lambda: "Add New Devices" in app.names("button"), what="the home page")
            # The MQTT library brings libssl and libcrypto: loaded when a broker is first used,
            # not at every start (about 2 ms before main()).
            for library in ("libmosquitto", "libssl"):
                self.assertNotIn(library, mapped_libraries(app), "no broker yet")
            app.key("ctrl+comma")
            app.wait_for(lambda: "Preferences" in app.frames(), what="Preferences")
            app.press("Sources", role=None)
            app.wait_for(lambda: "Add Source…" in app.names("button"), what="the Sources page")
            app.press("Add Source…")
            app.wait_for(lambda: "Add a Source" in app.names(), what="the dialog")
            app.type_text("Hall")
            app.key("Tab")
            app.type_text(broker.url)
            app.key("Return")
            app.wait_for(lambda: "Remove Hall" in app.names("button"), what="the new source's row")
            app.key("Escape")
            app.wait_for(lambda: "Preferences" not in app.frames(), what="Preferences closed")
            app.press("Add New Devices")
            app.wait_for(lambda: "Details for Hall tag" in app.names("button"), timeout=30, what="the gateway's device")
            self.assertIn("libmosquitto", mapped_libraries(app), "loaded for the broker")
            # Its state, and the gateway the broker heard from, while the Scanner runs.
            app.key("ctrl+comma")
            app.wait_for(lambda: "Preferences" in app.frames(), what="Preferences again")
            app.press("Sources", role=None)
            app.wait_for(lambda: any("Hall · connected" in n and "\n" in n for n in app.names()), timeout=20, what="its state said")
        with open(os.path.join(home, "xdg_config_home", "glib-2.0", "settings", "keyfile"), encoding="utf-8") as f:
            kept = f.read()
        self.assertIn("other-sources=['on\\tHall\\t" + broker.url + "']", kept)


if __name__ == "__main__":
    unittest.main()
