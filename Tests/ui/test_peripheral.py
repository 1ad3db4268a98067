# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""Act as a Device, with a Bumble central (a phone app) on the air of the controller FavBlue
drives over H4: a preset added from the menu goes on the air with the switch, the central finds
it, connects, writes and follows a characteristic; what it wrote shows as text in its log, Send
reaches it, and its pairing asks through FavBlue's dialog."""

import json
import subprocess
import time
import unittest

from harness import App, iso, retry_gtk_atspi_crash, scratch
from gi.repository import Atspi  # noqa: E402  (harness asks for its version first)
from random_walk import CONTROLS, said_twice

CHAT_SERVICE_BYTES = bytes.fromhex("7E57C0002C8F4F3C9F918577E1891234")[::-1].hex()
TO_CENTRAL = "7E57C001-2C8F-4F3C-9F91-8577E1891234"
FROM_CENTRAL = "7E57C002-2C8F-4F3C-9F91-8577E1891234"
SWITCH = "check box"  # how GTK 4.8 names a GtkSwitch to AT-SPI
CHECKED = Atspi.StateType.CHECKED


def open_act_as_a_device(app, menu="Main Menu", item="Act as a Device"):
    app.wait_for(lambda: menu in app.names("button"), what="the home page")
    app.click_on_until(menu, None, lambda: item in app.names("menu item"), what="the main menu")
    app.click_menu_item(item)
    app.wait_for(lambda: item in app.names(), what="the Act as a Device page")


def add_preset(app, preset, menu="Add Advertisement"):
    app.click_on_until(menu, None, lambda: preset in app.names("menu item"), what="the Add menu")
    app.click_menu_item(preset)


def connect_to_first_heard(central):
    """The central scans, connects to the first advertiser it hears, and returns its address."""
    central.send("SCAN")
    address = central.wait_for("ADV ", timeout=20).split()[1]
    central.send("STOPSCAN")
    central.send(f"CONNECT {address}")
    central.wait_for("CONNECTED", timeout=20)
    return address


def open_log(app, central):
    """Opens a connected device's row onto its log, as Enter on the row does."""
    app.find(central, "list item").do_action(0)
    app.settle()


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
            open_log(app, "F0:F1:F2:F3:F4:F9")
            app.wait_for(lambda: any(f"Wrote “{iso('<b>hi')}” (3C 62 3E 68 69) to {iso('Messages from the central')}" in n
                                     for n in app.names()), what="the write in the central's log, as text")

            central.send(f"SUBSCRIBE {TO_CENTRAL}")
            central.wait_for(f"SUBSCRIBED {TO_CENTRAL}")
            type_into(app, "Value of Messages to the central", "hello")
            app.press("Set Value")
            app.press("Send Messages to the central to the connected devices that follow it")
            self.assertEqual(central.wait_for(f"NOTIFIED {TO_CENTRAL}").split()[2], b"hello".hex())
            app.wait_for(lambda: "Sent to 1 connected device." in app.names(), what="how many it reached")

    def test_losing_the_adapter_is_said_at_the_top_and_each_switch_says_why_it_is_off(self):
        """The controller goes away while an advertisement is on: a banner at the top says what
        stopped and why, with Try Again; the advertisement's row says its switch is off because
        the adapter went away. Try Again with no adapter says why on the row, and the banner goes."""
        from peers import CentralPeer
        central = CentralPeer()
        try:
            with App("--source", central.source) as app:
                open_act_as_a_device(app)
                add_preset(app, "FavBlue Chat")
                app.wait_for(lambda: "Send FavBlue Chat" in app.names(SWITCH), what="the advertisement's switch")
                app.press("Send FavBlue Chat", SWITCH)
                app.wait_for(lambda: app.find("Send FavBlue Chat", SWITCH).get_state_set().contains(CHECKED), what="on air")
                central.stop()
                app.wait_for(lambda: any(n.startswith("Advertising and serving stopped: ") for n in app.names()),
                             timeout=20, what="the banner at the top")
                self.assertIn("Try Again", app.names("button"))
                self.assertTrue(any(n.startswith("Off: the adapter went away. Try Again starts it again.") for n in app.names()),
                                app.names())
                self.assertFalse(app.find("Send FavBlue Chat", SWITCH).get_state_set().contains(CHECKED), "the switch is off")
                self.assertFalse(any(n.startswith("This adapter sends ") for n in app.names()), "no summary of an adapter that is gone")
                app.press("Try Again")
                app.wait_for(lambda: not any(n.startswith("Advertising and serving stopped: ") for n in app.names()),
                             what="the banner gone once tried")
                self.assertFalse(any(n.startswith("Off: the adapter went away") for n in app.names()))
        finally:
            central.stop()

    def test_focus_goes_to_the_next_row_after_a_removal_and_into_the_adapters_preferences(self):
        """Remove Advertisement → Remove: back on the list, the focus is on the row that took its
        place, so Tab and the shortcuts go on working. Adapter Details opens Preferences on the
        adapter with the focus in it, and Escape closes it."""
        from peers import CentralPeer
        with CentralPeer() as central, App("--source", central.source) as app:
            open_act_as_a_device(app)
            for preset in ("iBeacon", "Battery"):
                add_preset(app, preset)
                app.wait_for(lambda: f"Send {preset}" in app.names(SWITCH), what=f"the {preset} row")
            app.click_on_until("iBeacon", "label", lambda: "Remove Advertisement" in app.names("button"), what="its page")
            app.press("Remove Advertisement")
            app.wait_for(lambda: "Remove This Advertisement?" in app.names(), what="the question")
            app.press("Remove")
            app.wait_for(lambda: "Send iBeacon" not in app.names(SWITCH), what="the row gone")
            role, name = app.focused()
            self.assertIn("Battery", name, f"the focus on the row that took its place: {role} {name!r}")
            app.key("Tab")
            self.assertIsNotNone(app.focused_now(), "Tab moves on from there")

            app.press("Adapter Details")
            app.wait_for(lambda: "Preferences" in app.frames(), what="Preferences")
            time.sleep(0.5)
            focused = app.focused_now()
            self.assertIsNotNone(focused, "the focus is inside Preferences")
            window = subprocess.run(["xdotool", "search", "--onlyvisible", "--name", "^Preferences$"],
                                    capture_output=True, text=True, timeout=10).stdout.split()[-1]
            subprocess.run(["xdotool", "windowfocus", "--sync", window, "key", "Escape"], check=True, timeout=10)
            app.wait_for(lambda: "Preferences" not in app.frames(), what="Preferences closed by Escape")

    def test_errors_sit_on_the_field_that_caused_them(self):
        """A name too long marks the Name field, and says so under it, not under the Add
        buttons; a service data row with a bad UUID and bad hex explains and marks both."""
        from peers import CentralPeer
        # GTK 4.8 says an entry's invalid state to AT-SPI as "invalid" (later ones as "invalid-entry").
        def marked(node):
            states = node.get_state_set()
            return states.contains(Atspi.StateType.INVALID_ENTRY) or states.contains(Atspi.StateType.INVALID)
        with CentralPeer() as central, App("--source", central.source) as app:
            open_act_as_a_device(app)
            add_preset(app, "Custom Advertisement")
            app.wait_for(lambda: "Name in FavBlue" in app.names("text"), what="the new advertisement's page")
            name = next(node for node, role, n in app.nodes() if role == "text" and n == "Name")
            name.set_text_contents("A name far too long for thirty-one bytes of data")
            app.settle()
            app.wait_for(lambda: any(n.startswith("The name does not fit: ") for n in app.names()), what="the name's problem")
            name = next(node for node, role, n in app.nodes() if role == "text" and n == "Name")
            self.assertTrue(marked(name), "the Name field is marked")
            order = [n for _, _, n in app.nodes()]
            said = next(i for i, n in enumerate(order) if n.startswith("The name does not fit: "))
            self.assertLess(said, order.index("Add Manufacturer Data"), "said under the field, above the Add buttons")
            name.set_text_contents("Lab")
            app.settle()
            app.press("Add Service Data")
            app.wait_for(lambda: "Service data UUID" in app.names("text"), what="a service data row")
            app.find("Service data UUID", "text").set_text_contents("zz")
            app.settle()
            hex_entry = next(node for node, role, n in app.nodes() if role == "text" and n.startswith("Service data for "))
            hex_entry.set_text_contents("GG")
            app.settle()
            app.wait_for(lambda: any("is not a UUID" in n and "Hex needs two digits" in n for n in app.names()), what="both halves explained")
            for node, role, n in app.nodes():
                if role == "text" and (n == "Service data UUID" or n.startswith("Service data for ")):
                    self.assertTrue(marked(node), f"{n} is marked")

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
            connect_to_first_heard(central)
            central.send("PAIR")
            number = central.wait_for("COMPARE ", timeout=20).split()[1]
            question = f"Does {iso('F0:F1:F2:F3:F4:F9')} show {number[:3]} {number[3:]}? Confirm only if the numbers match."
            app.wait_for(lambda: question in app.names(), what="the central's number in the question")
            app.press("Confirm")
            self.assertTrue(central.wait_for("PAIRED", timeout=20).startswith("PAIRED"))

    def test_clone_this_device_serves_a_copy_whose_dump_equals_the_originals(self):
        """On a connected device's page, Clone This Device says the copy is set up, and its Open
        goes to Act as a Device, where "Copy of Original" and the device's services wait. Switched
        on while FavBlue stays connected to the original, a central finds the copy by the
        original's name and dumps the same attributes from it as from the original."""
        from peers import CentralPeer
        original = "F0:F1:F2:F3:F4:F8"
        with CentralPeer("--original") as central:
            # The original as the central sees it, first: connected to FavBlue, it stops advertising.
            central.send(f"CONNECT {original}")
            central.wait_for("CONNECTED", timeout=20)
            central.send("DUMP")
            expected = central.wait_for("DUMP ", timeout=20)
            central.send("DISCONNECT")
            central.wait_for("DISCONNECTED")
            app = App("--source", central.source)
            self.addCleanup(app.close)
            open_act_as_a_device(app)
            add_preset(app, "Battery")
            app.wait_for(lambda: "Send Battery" in app.names(SWITCH), what="the preset's switch")
            app.press("Back")
            app.wait_for(lambda: "Add New Devices" in app.names("button"), what="the home page")
            app.press("Add New Devices")
            app.wait_for(lambda: "Details for Original" in app.names("button"), timeout=30, what="the original in the scanner")
            app.press("Details for Original")
            app.wait_for(lambda: "Connect to Original" in app.names("button"), what="Connect on the detail page")
            app.press("Connect to Original")
            app.wait_for(lambda: "Clone This Device" in app.names("button"), timeout=30, what="Clone once the services are known")
            app.press("Clone This Device")
            # The server set up before (the Battery preset's) goes only once the user says so.
            app.wait_for(lambda: f"Replace “{iso('FavBlue')}”?" in app.names(), timeout=30, what="the question before the copy replaces it")
            self.assertIn(f"The server you set up, with its 1 service, goes, and “{iso('Original')}” takes its place. "
                          "Your advertisements stay.", app.names())
            app.press("Replace")
            app.wait_for(lambda: f"A copy of {iso('Original')} is set up: turn it on under Act as a Device." in app.names(),
                         timeout=30, what="the copy said to be set up")
            app.press("Open")
            app.wait_for(lambda: "Send Copy of Original" in app.names(SWITCH), what="the copy's advertisement")
            self.assertIn("Battery Level", app.names(), "the original's characteristics are served")
            app.press("Send Copy of Original", SWITCH)
            app.press("Serve", SWITCH)

            central.send("SCAN")
            name = b"Original".hex()
            deadline = time.time() + 20
            copy = None
            while copy is None and time.time() < deadline:
                copy = next((line.split()[1] for line in central.lines
                             if line.startswith("ADV ") and name in line and line.split()[1] != original), None)
                time.sleep(0.1)
            self.assertIsNotNone(copy, f"the copy is heard by the original's name: {central.lines}")
            central.send("STOPSCAN")
            central.send(f"CONNECT {copy}")
            self.assertEqual(central.wait_for(f"CONNECTED {copy}", timeout=20).split()[1], copy)
            central.send("DUMP")
            deadline = time.time() + 20
            while central.count("DUMP ") < 2 and time.time() < deadline:
                time.sleep(0.1)
            self.assertEqual([l for l in central.lines if l.startswith("DUMP ")][-1], expected)

    def test_presets_join_the_server_and_a_phone_finds_every_service_they_advertise(self):
        """Heart Rate Monitor, then Battery, then FavBlue Chat: the server holds all three
        presets' characteristics, and a central that connects finds the battery the Battery
        advertisement announces."""
        from peers import CentralPeer
        with CentralPeer() as central, App("--source", central.source) as app:
            open_act_as_a_device(app)
            for preset in ("Heart Rate Monitor", "Battery", "FavBlue Chat"):
                add_preset(app, preset)
                app.wait_for(lambda: f"Send {preset}" in app.names(SWITCH), what=f"the {preset} switch")
            for characteristic in ("Heart Rate Measurement", "Battery Level", "Messages to the central"):
                self.assertIn(characteristic, app.names(), "each preset's characteristics are served")
            self.assertFalse(any("which the server lacks" in n for n in app.names()), "no advertisement lists a missing service")
            # One name: the server's, which the Battery advertisement follows.
            app.press("Edit Server")
            app.wait_for(lambda: "Name Centrals Read" in app.names("text"), what="the server editor")
            app.find("Name Centrals Read", "text").set_text_contents("Lab Bench")
            app.settle()
            app.key("Escape")
            app.wait_for(lambda: "Send Battery" in app.names(SWITCH), what="Act as a Device again")
            app.click_on_until("Battery", "label", lambda: "Name in FavBlue" in app.names("text"), what="the Battery's page")
            said = f"Phones see “{iso('Lab Bench')}”, the server’s name, before and after they connect."
            app.wait_for(lambda: said in app.names(), what="what a phone sees, said once")
            self.assertEqual(app.names().count(said), 1)
            app.key("Escape")
            app.wait_for(lambda: "Send Battery" in app.names(SWITCH), what="Act as a Device again")
            app.press("Send Battery", SWITCH)
            central.send("SCAN")
            heard = central.wait_for("ADV ", timeout=20).split()
            self.assertIn(b"Lab Bench".hex(), heard[4], "the advertisement carries the server's name")
            central.send("STOPSCAN")
            app.press("Serve", SWITCH)
            connect_to_first_heard(central)
            central.send("READ 2A19")
            self.assertEqual(central.wait_for("VALUE 2A19", timeout=20).split()[2], "57", "the battery's 87 %")

    def test_a_server_set_up_in_the_editor_is_what_a_central_discovers(self):
        """Set Up a Server opens the editor; Add Service and Add a Characteristic put the keyboard
        in the new UUID, typed as 180D and 2A37 they are named Heart Rate and Heart Rate
        Measurement, and its switches make it notify and not read. Served beside a custom
        advertisement, a central's dump holds that service and characteristic with the
        configuration descriptor FavBlue adds."""
        from peers import CentralPeer
        with CentralPeer() as central, App("--source", central.source) as app:
            open_act_as_a_device(app)
            add_preset(app, "Custom Advertisement")
            app.wait_for(lambda: "Advertising Data" in app.names(), what="the custom advertisement's page")
            app.press("Back")
            app.wait_for(lambda: "Set Up a Server" in app.names("button"), what="Set Up a Server")
            app.press("Set Up a Server")
            app.wait_for(lambda: "Add Service" in app.names("button"), what="the server editor")
            app.press("Add Service")
            # GTK 4.8's bridge marks no focus on a text made this moment, so what is typed
            # straight after the click says where the keyboard is.
            app.key("ctrl+a")
            app.type_text("180D")
            app.wait_for(lambda: "Add a Characteristic to Heart Rate" in app.names("button"), what="the service named by its UUID")
            app.press("Add a Characteristic to Heart Rate")
            app.key("ctrl+a")
            app.type_text("2A37")
            app.wait_for(lambda: "Heart Rate Measurement notifies" in app.names(SWITCH), what="the characteristic named")
            app.press("Heart Rate Measurement notifies", SWITCH)
            app.press("Heart Rate Measurement can be read", SWITCH)
            self.assert_every_control_named_once(app, "the server editor")
            app.press("Back")
            app.wait_for(lambda: "Serve" in app.names(SWITCH), what="Serve")
            self.assertIn("Edit Server", app.names("button"))
            app.press("Serve", SWITCH)
            app.press("Send Custom Advertisement", SWITCH)
            connect_to_first_heard(central)
            central.send("DUMP")
            dump = json.loads(central.wait_for("DUMP ", timeout=20).split(" ", 1)[1])
            start = dump.index(next(row for row in dump if row[1:] == ["2800", "180D"]))
            self.assertEqual([row[1:] for row in dump[start + 1:start + 4]], [["2803", 16], ["2A37", None], ["2902", None]])

    def test_the_demo_can_be_a_device_and_its_phone_comes_on_its_own(self):
        """In the demo, Act as a Device works whole: FavBlue Chat goes on air, Serve runs it, and
        the demo's phone finds it, connects, reads, writes "hello" and follows the messages to
        it, each in its log; Send reaches it. Clone This Device is on the demo chat device's page."""
        phone = "5E:A1:10:DE:ED:01"
        with App("--source", "demo") as app:
            open_act_as_a_device(app)
            self.assertNotIn("This Source Cannot Act as a Device", app.names())
            add_preset(app, "FavBlue Chat")
            app.wait_for(lambda: "Send FavBlue Chat" in app.names(SWITCH), what="the advertisement's switch")
            app.press("Send FavBlue Chat", SWITCH)
            app.press("Serve", SWITCH)
            app.wait_for(lambda: phone in app.names(), timeout=20, what="the demo's phone, connected")
            open_log(app, phone)
            app.wait_for(lambda: any(f"Wrote “{iso('hello')}”" in n for n in app.names()), timeout=20, what="its write, in its log")
            app.wait_for(lambda: any(f"Asked for notifications of {iso('Messages to the central')}" in n for n in app.names()),
                         timeout=20, what="it follows the messages to it")
            type_into(app, "Value of Messages to the central", "pong")
            app.press("Set Value")
            app.press("Send Messages to the central to the connected devices that follow it")
            app.wait_for(lambda: "Sent to 1 connected device." in app.names(), what="Send reaches the phone")
            app.key("Escape")
            app.wait_for(lambda: "Add New Devices" in app.names("button"), what="the home page")
            app.press("Add New Devices")
            app.wait_for(lambda: "Details for FavBlue Demo Chat" in app.names("button"), timeout=30, what="the demo chat device")
            app.press("Details for FavBlue Demo Chat")
            app.press("Connect to FavBlue Demo Chat")
            app.wait_for(lambda: "Clone This Device" in app.names("button"), timeout=30, what="Clone This Device in the demo")

    def assert_every_control_named_once(self, app, where):
        controls = [(role, name) for _, role, name in app.nodes() if role in CONTROLS | {"text"}]
        self.assertEqual([c for c in controls if not c[1]], [], f"every control on {where} has a name")
        self.assertEqual([c for c in controls if said_twice(c[1])], [], f"no name on {where} is said twice")

    def test_a_presets_name_follows_the_language_until_the_user_renames_it(self):
        """Battery added in English reads "Batterie" when FavBlue next starts in German; once
        renamed there, the user's name stays, in either language."""
        from peers import CentralPeer
        home = scratch("favblue-ui-")
        with CentralPeer() as central:
            with App("--source", central.source, storage="sqlite", home=home) as app:
                open_act_as_a_device(app)
                add_preset(app, "Battery")
                app.wait_for(lambda: "Send Battery" in app.names(SWITCH), what="the Battery row")
            with App("--source", central.source, storage="sqlite", home=home, lang="de") as app:
                open_act_as_a_device(app, menu="Hauptmenü", item="Als Gerät auftreten")
                app.wait_for(lambda: "Batterie senden" in app.names(SWITCH), what="the preset's name in German")
                self.assertNotIn("Send Battery", app.names(SWITCH))
                app.click_on_until("Batterie", "label", lambda: "Name in FavBlue" in app.names("text"), what="its page")
                app.find("Name in FavBlue", "text").set_text_contents("Akku im Flur")
                app.settle()
                app.key("Escape")
                app.wait_for(lambda: "Akku im Flur senden" in app.names(SWITCH), what="the user's name")
            with App("--source", central.source, storage="sqlite", home=home) as app:
                open_act_as_a_device(app)
                app.wait_for(lambda: "Send Akku im Flur" in app.names(SWITCH), what="the user's name, kept in English")

    def test_in_german_the_page_the_server_and_the_editor_speak_german_each_name_said_once(self):
        """The page, the menu, the preset's switch, the server's values and the advertisement's
        own page in German; every control there has a name, said once."""
        from peers import CentralPeer
        with CentralPeer() as central, App("--source", central.source, lang="de") as app:
            open_act_as_a_device(app, menu="Hauptmenü", item="Als Gerät auftreten")
            add_preset(app, "Herzfrequenzmesser", menu="Anzeige hinzufügen")
            app.wait_for(lambda: "Herzfrequenzmesser senden" in app.names(SWITCH), what="the switch in German")
            names = app.names()
            for text in ("Server", "Bereitstellen", "Verbundene Geräte", "Noch hat sich kein Gerät verbunden.",
                         "Wert von Herzfrequenzmessung", "Herzfrequenzmessung an die verbundenen Geräte senden, die ihr folgen"):
                self.assertIn(text, names)
            self.assert_every_control_named_once(app, "Als Gerät auftreten")
            app.click_on("Herzfrequenzmesser")
            app.wait_for(lambda: "Advertising-Daten" in app.names(), what="the advertisement's own page")
            for text in ("Senden", "Art", "Erweitertes Advertising", "Scan-Antwort", "Herstellerdaten hinzufügen"):
                self.assertIn(text, app.names())
            self.assert_every_control_named_once(app, "the advertisement's page")


if __name__ == "__main__":
    unittest.main()
