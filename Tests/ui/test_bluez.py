# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""The installed app on the BlueZ route, against bluetoothd's stand-in (python-dbusmock's
bluez5 template on a private bus): what a user with a normal desktop sees."""

import os
import unittest

from bluez import ADAPTER, DEVICE, MockBlueZ, dbus
from flows import add_from_scanner
from harness import App, retry_gtk_atspi_crash, scratch


def home_sharing_nicknames():
    home = scratch("favblue-ui-")
    settings = os.path.join(home, "xdg_config_home", "glib-2.0", "settings")
    os.makedirs(settings)
    with open(os.path.join(settings, "keyfile"), "w") as f:
        f.write("[io/github/favblue/FavBlue]\nshare-nicknames=true\n")
    return home


@retry_gtk_atspi_crash
class BlueZRouteTest(unittest.TestCase):
    def test_lists_the_devices_bluez_finds_and_adds_one_to_the_favorites(self):
        with MockBlueZ() as bluez:
            bluez.add_adapter()
            pixel = bluez.add_device("C0:98:E5:49:00:01", "Pixel 8")
            bluez.add_device("C0:98:E5:49:00:02", "Tile Mate")
            with App("--source", "bluez", env=bluez.env, home=home_sharing_nicknames()) as app:
                app.wait_for(lambda: "Add New Devices" in app.names("button"), what="the home page")
                app.press("Add New Devices")
                app.wait_for(lambda: {"Pixel 8", "Tile Mate"} <= set(app.names("label")), what="the mock's devices")
                self.assertIn("StartDiscovery", bluez.calls("/org/bluez/hci0"))
                add_from_scanner(app, "Pixel 8", "Annas phone")
                # Share Nicknames is on: GNOME Settings would show the nickname too.
                app.wait_for(lambda: str(bluez.get(pixel, DEVICE, "Alias")) == "Annas phone", what="the alias")
                app.press("Back")
                app.wait_for(lambda: "Annas phone" in app.names("label") and "Back" not in app.names("button"),
                             what="the favorite on the home page")
                self.assertIn("C0:98:E5:49:00:01", " ".join(app.names("label")))

    def test_bluetooth_off_offers_turn_on_which_starts_the_scan(self):
        with MockBlueZ() as bluez:
            adapter = bluez.add_adapter()
            bluez.set(adapter, ADAPTER, "Powered", False)
            bluez.add_device("C0:98:E5:49:00:01", "Pixel 8")
            with App("--source", "bluez", env=bluez.env) as app:
                app.wait_for(lambda: "Add New Devices" in app.names("button"), what="the home page")
                app.press("Add New Devices")
                app.wait_for(lambda: "Bluetooth Is Off" in app.names(), what="the Bluetooth is off page")
                self.assertNotIn("StartDiscovery", bluez.calls(adapter))
                app.press("Turn On")
                app.wait_for(lambda: "Pixel 8" in app.names("label"), what="the scan after Turn On")
                self.assertTrue(bool(bluez.get(adapter, ADAPTER, "Powered")))

    def test_a_blocked_adapter_names_airplane_mode_and_rfkill(self):
        with MockBlueZ() as bluez:
            adapter = bluez.add_adapter()
            bluez.obj(adapter).AddProperty(ADAPTER, "PowerState", "off-blocked",
                                           dbus_interface="org.freedesktop.DBus.Mock")
            bluez.set(adapter, ADAPTER, "Powered", False)
            with App("--source", "bluez", env=bluez.env, lang="de") as app:
                app.wait_for(lambda: "Neue Geräte hinzufügen" in app.names("button"), what="the German home page")
                app.press("Neue Geräte hinzufügen")
                app.wait_for(lambda: "Bluetooth ist blockiert" in app.names(), what="the blocked page")
                text = " ".join(app.names())
                self.assertIn("Flugmodus", text)
                self.assertIn("rfkill", text)

    def test_when_bluetoothd_dies_the_list_stays_under_a_banner_and_a_new_one_resumes(self):
        with MockBlueZ() as bluez:
            bluez.add_adapter()
            bluez.add_device("C0:98:E5:49:00:01", "Pixel 8")
            with App("--source", "bluez", env=bluez.env) as app:
                app.wait_for(lambda: "Add New Devices" in app.names("button"), what="the home page")
                app.press("Add New Devices")
                app.wait_for(lambda: "Pixel 8" in app.names("label"), what="the device")
                bluez.kill()
                app.wait_for(lambda: any("Bluetooth service stopped" in n for n in app.names("label")),
                             what="the banner saying why")
                self.assertIn("Pixel 8", app.names("label"), "the list stays")
                bluez.start()
                bluez.add_adapter()
                bluez.add_device("C0:98:E5:49:00:03", "Kitchen Speaker")
                app.wait_for(lambda: "Kitchen Speaker" in app.names("label"), what="scanning resumed by itself")
                self.assertFalse(any("Bluetooth service stopped" in n for n in app.names("label")), "the banner goes")


if __name__ == "__main__":
    unittest.main()


def open_chat(app, bluez, device, peer):
    """From the home page: finds the peer, connects through Device1.Connect, and opens the chat
    once the chat service resolves; returns its notify and write characteristics."""
    app.wait_for(lambda: "Add New Devices" in app.names("button"), what="the home page")
    app.press("Add New Devices")
    app.wait_for(lambda: peer in app.names("label"), what="the device")
    app.press(f"Details for {peer}")
    app.wait_for(lambda: f"Connect to {peer}" in app.names("button"), what="Connect")
    app.press(f"Connect to {peer}")
    app.wait_for(lambda: "Connect" in bluez.calls(device), what="Device1.Connect")
    tx, rx = bluez.add_chat_service(device)
    app.wait_for(lambda: f"Open chat with {peer}" in app.names("button"), what="Open Chat once resolved")
    assert f"Disconnect from {peer}" in app.names("button")
    app.press(f"Open chat with {peer}")
    app.wait_for(lambda: "Message" in app.names("text"), what="the chat page")
    return tx, rx


@retry_gtk_atspi_crash
class BlueZChatTest(unittest.TestCase):
    def test_connect_and_chat_through_bluez(self):
        peer = "Chat Peer"
        with MockBlueZ() as bluez:
            bluez.add_adapter()
            device = bluez.add_device("C0:98:E5:49:00:07", peer)
            with App("--source", "bluez", env=bluez.env) as app:
                tx, rx = open_chat(app, bluez, device, peer)
                app.type_text("hello")
                app.key("Return")
                app.wait_for(lambda: bluez.written(rx) == ["hello"], what="the write at the mock")
                bluez.set(tx, "org.bluez.GattCharacteristic1", "Value", dbus.Array(b"hi from BlueZ", signature="y"))
                app.wait_for(lambda: "hi from BlueZ" in app.names("label", skip=("Devices nearby",)), what="the answer")
                app.press("Back")
                app.wait_for(lambda: f"Disconnect from {peer}" in app.names("button"), what="the detail page")
                # The same browser as on our own host: the chat service from BlueZ's objects, and
                # Generic Access, which BlueZ keeps to itself, rebuilt and marked as the system's.
                labels = app.names("label")
                self.assertIn("Read by the system’s Bluetooth service", labels)
                self.assertIn("FavBlue Chat", labels)
                self.assertTrue(any(l.startswith("Last heard") and "gives no signal while connected" in l for l in labels),
                                "the signal stands still, and the page says why")
                app.press(f"Disconnect from {peer}")
                app.wait_for(lambda: "Disconnect" in bluez.calls(device), what="Device1.Disconnect")
                app.wait_for(lambda: f"Connect to {peer}" in app.names("button"), what="Connect again")

    def test_bluetoothd_vanishing_mid_chat_keeps_the_history_and_connecting_again_works(self):
        """The service dies while connected: the chat says the connection ended and why, keeps
        every line, and once bluetoothd is back Connect on the same page works again."""
        peer = "Chat Peer"
        address = "C0:98:E5:49:00:07"
        with MockBlueZ() as bluez:
            bluez.add_adapter()
            device = bluez.add_device(address, peer)
            with App("--source", "bluez", env=bluez.env) as app:
                tx, rx = open_chat(app, bluez, device, peer)
                app.type_text("before")
                app.key("Return")
                app.wait_for(lambda: bluez.written(rx) == ["before"], what="the write at the mock")
                bluez.set(tx, "org.bluez.GattCharacteristic1", "Value", dbus.Array(b"answer", signature="y"))
                app.wait_for(lambda: "answer" in app.names("label", skip=("Devices nearby",)), what="the answer")

                bluez.kill()
                app.wait_for(lambda: f"Connect to {peer}" in app.names("button"), what="the chat offering Connect again")
                labels = app.names("label", skip=("Devices nearby",))
                self.assertTrue(any("Bluetooth" in n and ("stopped" in n or "service" in n) for n in app.names()),
                                f"the page says the Bluetooth service went away: {app.names()}")
                self.assertIn("answer", labels, "the history stays")
                self.assertTrue(any(n.startswith("You, ") and n.endswith(": before") for n in app.names()), "and the line sent")

                bluez.start()
                bluez.add_adapter()
                device = bluez.add_device(address, peer)
                app.wait_for(lambda: peer in app.names("label") or f"Connect to {peer}" in app.names("button"),
                             what="the device back")
                app.press(f"Connect to {peer}")
                app.wait_for(lambda: "Connect" in bluez.calls(device), timeout=30, what="Device1.Connect on the new service")
                tx, rx = bluez.add_chat_service(device)
                app.wait_for(lambda: "Connected" in app.names("label"), what="connected again")
                app.type_text("after")
                app.key("Return")
                app.wait_for(lambda: bluez.written(rx) == ["after"], what="the write through the new service")
