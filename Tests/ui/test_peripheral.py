# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""Act as a Device, with a Bumble central (a phone app) on the air of the controller FavBlue
drives over H4: a preset added from the menu goes on the air with the switch, the central finds
it, connects, writes and follows a characteristic; what it wrote shows as text in its log, Send
reaches it, and its pairing asks through FavBlue's dialog."""

import time
import unittest

from harness import App, iso, retry_gtk_atspi_crash

CHAT_SERVICE_BYTES = bytes.fromhex("7E57C0002C8F4F3C9F918577E1891234")[::-1].hex()
TO_CENTRAL = "7E57C001-2C8F-4F3C-9F91-8577E1891234"
FROM_CENTRAL = "7E57C002-2C8F-4F3C-9F91-8577E1891234"
SWITCH = "check box"  # how GTK 4.8 names a GtkSwitch to AT-SPI


def open_act_as_a_device(app, menu="Main Menu", item="Act as a Device"):
    app.wait_for(lambda: menu in app.names("button"), what="the home page")
    app.click_on_until(menu, None, lambda: item in app.names("menu item"), what="the main menu")
    app.click_menu_item(item)
    app.wait_for(lambda: item in app.names(), what="the Act as a Device page")


def add_preset(app, preset, menu="Add Advertisement"):
    app.click_on_until(menu, None, lambda: preset in app.names("menu item"), what="the Add menu")
    app.click_menu_item(preset)


def type_into(app, name, text):
    app.click_on(name, "text")
    app.wait_for(lambda: app.focused_name() == name, what=f"the focus in {name}")
    app.key("ctrl+a")
    app.type_text(text)
    app.settle()


@retry_gtk_atspi_crash
class PeripheralTests(unittest.TestCase):

    def test_a_central_finds_the_chat_preset_writes_markup_that_shows_as_text_and_hears_send(self):
        """FavBlue Chat from the Add menu is a row whose switch sends it: the central scanning
        hears the chat service's UUID in the bytes. With Serve on it connects, writes "<b>hi"
        (shown in its log as those five characters, in quotes, with their hex), follows
        "Messages to the central", and hears the value typed there when Send is pressed."""
        from peers import CentralPeer
        with CentralPeer() as central, App("--source", central.source) as app:
            open_act_as_a_device(app)
            self.assertIn("No advertisement yet. Add one, or start from a preset.", app.names())
            add_preset(app, "FavBlue Chat")
            app.wait_for(lambda: "Send FavBlue Chat" in app.names(SWITCH), what="the advertisement's switch")
            self.assertNotIn("No advertisement yet. Add one, or start from a preset.", app.names())
            app.press("Send FavBlue Chat", SWITCH)
            central.send("SCAN")
            heard = central.wait_for("ADV ", timeout=20).split()
            self.assertIn(CHAT_SERVICE_BYTES, heard[4], "the chat service's UUID is in what the central hears")
            self.assertEqual(heard[3], "1", "the chat preset is connectable")
            address = heard[1]
            app.press("Serve", SWITCH)
            time.sleep(1)
            central.send("STOPSCAN")
            central.send(f"CONNECT {address}")
            central.wait_for("CONNECTED", timeout=20)
            app.wait_for(lambda: "F0:F1:F2:F3:F4:F9" in app.names(), what="the central's row")
            self.assertIn("Connected", app.names())

            central.send(f"WRITE {FROM_CENTRAL} {b'<b>hi'.hex()}")
            central.wait_for(f"WROTE {FROM_CENTRAL}")
            app.press("F0:F1:F2:F3:F4:F9", "button") if "F0:F1:F2:F3:F4:F9" in app.names("button") else \
                app.click_on("F0:F1:F2:F3:F4:F9")
            app.wait_for(lambda: any(f"Wrote “{iso('<b>hi')}” (3C 62 3E 68 69) to {iso('Messages from the central')}" in n
                                     for n in app.names()), what="the write in the central's log, as text")

            central.send(f"SUBSCRIBE {TO_CENTRAL}")
            central.wait_for(f"SUBSCRIBED {TO_CENTRAL}")
            type_into(app, "Value of Messages to the central", "hello")
            app.press("Set Value")
            app.press("Send Messages to the central to the centrals that follow it")
            self.assertEqual(central.wait_for(f"NOTIFIED {TO_CENTRAL}").split()[2], b"hello".hex())
            app.wait_for(lambda: "Sent to 1 central." in app.names(), what="how many it reached")

    def test_a_centrals_pairing_asks_for_the_number_in_favblues_dialog(self):
        """A central that pairs (numeric comparison) is asked about by its address in the same
        dialog as a device's pairing; Confirm pairs, and its log says the link is encrypted."""
        from peers import CentralPeer
        with CentralPeer() as central, App("--source", central.source) as app:
            open_act_as_a_device(app)
            add_preset(app, "Heart Rate Monitor")
            app.wait_for(lambda: "Send Heart Rate Monitor" in app.names(SWITCH), what="the advertisement's switch")
            app.press("Send Heart Rate Monitor", SWITCH)
            app.press("Serve", SWITCH)
            central.send("SCAN")
            address = central.wait_for("ADV ", timeout=20).split()[1]
            central.send("STOPSCAN")
            central.send(f"CONNECT {address}")
            central.wait_for("CONNECTED", timeout=20)
            central.send("PAIR")
            number = central.wait_for("COMPARE ", timeout=20).split()[1]
            question = f"Does {iso('F0:F1:F2:F3:F4:F9')} show {number[:3]} {number[3:]}? Confirm only if the numbers match."
            app.wait_for(lambda: question in app.names(), what="the central's number in the question")
            app.press("Confirm")
            self.assertTrue(central.wait_for("PAIRED", timeout=20).startswith("PAIRED"))

    def test_the_demo_says_why_it_cannot_act_as_a_device(self):
        """The demo has no radio: the page says so and what to do, with no Add menu to mislead."""
        with App("--source", "demo") as app:
            open_act_as_a_device(app)
            app.wait_for(lambda: "This Source Cannot Act as a Device" in app.names(), what="the reason")
            self.assertIn("The demo has no radio to advertise with. Connect an adapter, or use the system’s Bluetooth service.",
                          app.names())
            self.assertNotIn("Add Advertisement", app.names("button"))

    def test_in_german_the_page_and_its_controls_speak_german(self):
        """The page, the menu and the preset's switch in German."""
        from peers import CentralPeer
        with CentralPeer() as central, App("--source", central.source, lang="de") as app:
            open_act_as_a_device(app, menu="Hauptmenü", item="Als Gerät auftreten")
            add_preset(app, "Herzfrequenzmesser", menu="Anzeige hinzufügen")
            app.wait_for(lambda: "Herzfrequenzmesser senden" in app.names(SWITCH), what="the switch in German")
            self.assertIn("Server", app.names())
            self.assertIn("Zentralgeräte", app.names())


if __name__ == "__main__":
    unittest.main()
