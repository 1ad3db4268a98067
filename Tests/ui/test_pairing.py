# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""Pair and Forget on the BlueZ route, against bluetoothd's stand-in with pairing
(Tests/Fixtures/dbusmock/bluez_pairing.py): FavBlue's own agent asks what the device asks,
in one dialog that names it, and a private address that turns out to be an identity keeps
its favorite under that identity."""

import time
import unittest

from bluez import DEVICE, MockBlueZ
from flows import add_from_scanner
from harness import App, iso, retry_gtk_atspi_crash, scratch

PEER = "Fitness Band"
PRIVATE = "5C:11:22:33:44:55"
IDENTITY = "F0:11:22:33:44:55"


def bluez_with_band(bluez):
    """An adapter and one device heard from a private address; returns its path."""
    bluez.load_pairing()
    bluez.add_adapter()
    device = bluez.add_device(PRIVATE, PEER)
    bluez.set(device, DEVICE, "AddressType", "random")
    return device


def open_details(app):
    app.wait_for(lambda: "Add New Devices" in app.names("button"), what="the home page")
    app.press("Add New Devices")
    app.wait_for(lambda: f"Details for {PEER}" in app.names("button"), what="the device")
    app.press(f"Details for {PEER}")
    app.wait_for(lambda: f"Pair with {PEER}" in app.names("button"), what="Pair on the detail page")


@retry_gtk_atspi_crash
class PairingTests(unittest.TestCase):
    def test_confirming_the_number_pairs_and_the_favorite_moves_to_the_identity_address(self):
        """A favorite kept under a private address: Pair, "Does Fitness Band show 004 321?",
        Confirm. The page says Paired and shows the identity address; the favorite keeps its
        nickname under it, also after a restart. FavBlue registered its own KeyboardDisplay agent
        and never asked to be the desktop's default one."""
        home = scratch("favblue-ui-")
        with MockBlueZ() as bluez:
            device = bluez_with_band(bluez)
            bluez.script_pairing(device, "confirm", 4321, f"{IDENTITY}/public")
            with App("--source", "bluez", env=bluez.env, storage="sqlite", home=home) as app:
                open_details(app)
                self.assertIn("Not paired", app.names())
                app.press("Back")
                app.wait_for(lambda: f"Add {PEER} to favorites" in app.names("button"), what="the scanner")
                add_from_scanner(app, PEER, "My Band")
                app.press("Details for My Band")
                app.wait_for(lambda: "Pair with My Band" in app.names("button"), what="Pair")
                app.press("Pair with My Band")
                question = f"Does {iso('My Band')} show 004 321? Confirm only if the numbers match."
                app.wait_for(lambda: question in app.names(), what="the question naming the device and the number")
                self.assertIn(f"Pair with {iso('My Band')}", app.names())
                # The raw names, as Orca reads them: once, without the access key's underscore.
                buttons = app.names("button")
                self.assertIn("Confirm", buttons)
                self.assertIn("Cancel", buttons)
                self.assertEqual([n for n in buttons if "_" in n], [], "no name says its access key")
                app.press("Confirm")
                app.wait_for(lambda: "Paired" in app.names() and "Forget My Band" in app.names("button"),
                             what="Paired, and Forget offered")
                self.assertTrue(any(IDENTITY in n for n in app.names()), "the page shows the identity address")
                self.assertFalse(any(PRIVATE in n and "resolved" not in n and "Earlier" not in n
                                     for n in app.names("label") if n.startswith(PRIVATE[:8]) and "·" in n),
                                 "the title line no longer names the private address")
                manager_calls = bluez.calls("/org/bluez")
                self.assertIn("RegisterAgent", manager_calls)
                self.assertNotIn("RequestDefaultAgent", manager_calls)
                agent = bluez.obj("/org/bluez").GetMethodCalls("RegisterAgent", dbus_interface="org.freedesktop.DBus.Mock")
                self.assertEqual(str(agent[0][1][1]), "KeyboardDisplay")
                app.press("Back")
                app.press("Back")
                app.wait_for(lambda: "My Band" in app.names("label") and "Back" not in app.names("button"),
                             what="the home page")
                self.assertTrue(any(IDENTITY in n for n in app.names("label")), f"the favorite reads the identity: {app.names('label')}")
                self.assertFalse(any(PRIVATE in n for n in app.names("label")), "and not the private address")
            with App("--source", "bluez", env=bluez.env, storage="sqlite", home=home) as app:
                app.wait_for(lambda: "My Band" in app.names("label"), what="the favorite after a restart")
                self.assertTrue(any(IDENTITY in n for n in app.names("label")), "still under its identity")

    def test_a_wrong_passkey_fails_in_words_and_the_right_one_pairs(self):
        """Six digits, checked as typed: five keep Pair off; a wrong code fails with a plain
        reason under Pair; the right one, typed with its leading zeros, pairs."""
        with MockBlueZ() as bluez:
            device = bluez_with_band(bluez)
            bluez.script_pairing(device, "passkey", 7)
            with App("--source", "bluez", env=bluez.env) as app:
                open_details(app)
                app.press(f"Pair with {PEER}")
                app.wait_for(lambda: f"Type the six digits that {iso(PEER)} shows." in app.names(), what="the passkey question")
                app.wait_for(lambda: app.focused_name() == "Passkey", what="the focus in the entry")
                app.type_text("12345")
                app.wait_for(lambda: "Six digits, as the device shows them." in app.names(), what="the check as typed")
                self.assertFalse(app.is_sensitive("Pair"), "five digits cannot be sent")
                app.type_text("6")
                app.wait_for(lambda: app.is_sensitive("Pair"), what="Pair enabled with six digits")
                app.key("Return")
                app.wait_for(lambda: any(n.startswith("Pairing failed: the codes did not match") for n in app.names()),
                             what="the failure in words")
                app.press(f"Pair with {PEER}")
                app.wait_for(lambda: app.focused_name() == "Passkey", what="the entry again")
                app.type_text("000007")
                app.key("Return")
                app.wait_for(lambda: "Paired" in app.names(), what="Paired")
                self.assertFalse(any(n.startswith("Pairing failed") for n in app.names()), "the old failure is gone")

    def test_cancel_from_bluez_closes_the_dialog_and_says_why(self):
        with MockBlueZ() as bluez:
            device = bluez_with_band(bluez)
            bluez.script_pairing(device, "cancel", 999999)
            with App("--source", "bluez", env=bluez.env) as app:
                open_details(app)
                app.press(f"Pair with {PEER}")
                app.wait_for(lambda: "Confirm" in app.names("button"), what="the question")
                app.wait_for(lambda: "Confirm" not in app.names("button"), what="the dialog closed by BlueZ's Cancel")
                app.wait_for(lambda: "The device or the system cancelled pairing." in app.names(), what="the notice saying why")
                app.wait_for(lambda: "Not paired" in app.names() and app.is_sensitive(f"Pair with {PEER}"),
                             what="Pair offered again")

    def test_a_code_to_type_on_the_device_counts_the_keys_and_closes_when_paired(self):
        """DisplayPasskey again and again, as keys are typed on the device: one dialog,
        updated in place, closed once BlueZ says Paired (no Cancel comes)."""
        with MockBlueZ() as bluez:
            device = bluez_with_band(bluez)
            bluez.script_pairing(device, "display", 42)
            with App("--source", "bluez", env=bluez.env) as app:
                open_details(app)
                app.press(f"Pair with {PEER}")
                text = f"Type 000 042 on {iso(PEER)}, then press Enter on it."
                app.wait_for(lambda: text in app.names(), what="the code to type")
                # The device reports each key typed: the one dialog counts them as they come.
                counts = set()
                deadline = time.monotonic() + 40
                while time.monotonic() < deadline:
                    names = app.names()
                    self.assertLessEqual(names.count(text), 1, "one dialog")
                    counts |= {n for n in names if n.endswith(" of 6 digits typed")}
                    if "Paired" in names:
                        break
                self.assertGreaterEqual(len(counts), 2, f"the count moves in place: {counts}")
                app.wait_for(lambda: "Paired" in app.names() and text not in app.names(), what="closed when paired")

    def test_forget_asks_then_removes_the_bond_and_the_favorite_stays(self):
        home = scratch("favblue-ui-")
        with MockBlueZ() as bluez:
            device = bluez_with_band(bluez)
            bluez.script_pairing(device, "confirm", 1)
            with App("--source", "bluez", env=bluez.env, storage="sqlite", home=home) as app:
                open_details(app)
                app.press("Back")
                app.wait_for(lambda: f"Add {PEER} to favorites" in app.names("button"), what="the scanner")
                add_from_scanner(app, PEER, "Band")
                app.press("Details for Band")
                app.wait_for(lambda: "Pair with Band" in app.names("button"), what="Pair")
                for _ in range(12):
                    app.key("Tab")
                    if app.focused_name() == "Pair with Band":
                        break
                self.assertEqual(app.focused_name(), "Pair with Band", "Tab reaches Pair")
                app.key("Return")
                app.wait_for(lambda: "Confirm" in app.names("button"), what="the question")
                app.key("Return")
                app.wait_for(lambda: "Forget Band" in app.names("button"), what="Forget")
                app.wait_for(lambda: app.focused() == ("push button", "Forget Band"),
                             what="the focus on the same button, which now reads Forget")
                app.press("Forget Band")
                app.wait_for(lambda: f"Forget {iso('Band')}?" in app.names(), what="the question first")
                self.assertTrue(any("favorite, nickname and chat stay" in n for n in app.names()), "it says what stays")
                buttons = app.names("button")
                self.assertIn("Forget", buttons)
                self.assertIn("Cancel", buttons)
                self.assertEqual([n for n in buttons if "_" in n], [], "the forget dialog's buttons say their names once")
                app.press("Forget")
                app.wait_for(lambda: "RemoveDevice" in bluez.calls("/org/bluez/hci0"), what="Adapter1.RemoveDevice")
                app.press("Back")
                app.wait_for(lambda: "Remove Band from favorites" in app.names("button"), what="still a favorite")

    def test_the_row_menu_pairs_and_then_offers_forget(self):
        with MockBlueZ() as bluez:
            device = bluez_with_band(bluez)
            bluez.script_pairing(device, "confirm", 5)
            with App("--source", "bluez", env=bluez.env) as app:
                app.wait_for(lambda: "Add New Devices" in app.names("button"), what="the home page")
                app.press("Add New Devices")
                app.wait_for(lambda: f"Add {PEER} to favorites" in app.names("button"), what="the device")
                from test_focus import tab_into_the_list
                tab_into_the_list(self, app, PEER)
                app.key("Menu")
                app.wait_for(lambda: "Pair" in app.names("menu item"), what="Pair in the row menu")
                app.press("Pair", role="menu item")
                app.wait_for(lambda: "Confirm" in app.names("button"), what="the question")
                self.assertFalse([n for n in app.names("button") if "_" in n], "the question's buttons say Confirm, not C_onfirm")
                app.press("Confirm")
                app.wait_for(lambda: "Paired" in bluez.calls(device) or bool(bluez.get(device, DEVICE, "Paired")),
                             what="paired at BlueZ")
                # The dialog gave the focus back to the row.
                self.assertEqual(app.focused(), ("panel", PEER))
                app.key("Menu")
                app.wait_for(lambda: "Forget…" in app.names("menu item"), what="Forget… in the row menu once paired")
                app.press("Forget…", role="menu item")
                app.wait_for(lambda: "Forget" in app.names("button"), what="the forget dialog")
                # Its buttons are named as a screen reader should say them, without the mnemonic underscore.
                self.assertFalse([n for n in app.names("button") if "_" in n], app.names("button"))
                self.assertIn("Cancel", app.names("button"))
                app.press("Cancel")
                app.wait_for(lambda: "Forget" not in app.names("button"), what="the dialog to close")
                self.assertEqual(app.focused(), ("panel", PEER), "the focus is back on the row")

    def test_with_no_adapter_link_pair_is_offered_greyed_with_the_reason(self):
        with App("--source", "demo") as app:
            app.wait_for(lambda: "Add New Devices" in app.names("button"), what="the home page")
            app.press("Add New Devices")
            app.wait_for(lambda: any(n.startswith("Details for ") for n in app.names("button")), what="a device")
            app.press(next(n for n in app.names("button") if n.startswith("Details for ")))
            app.wait_for(lambda: any(n.startswith("Pair with ") for n in app.names("button")), what="Pair")
            pair = next(n for n in app.names("button") if n.startswith("Pair with "))
            self.assertFalse(app.is_sensitive(pair))
            self.assertIn("The demo’s devices cannot pair.", app.names())


if __name__ == "__main__":
    unittest.main()


if __name__ == "__main__":
    unittest.main()
