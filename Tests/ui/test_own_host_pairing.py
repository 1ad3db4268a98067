# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""Pairing through FavBlue's own Security Manager on an H4 link, with Bumble's chat peer as the
device: the same Pair button and dialog as on the BlueZ route (test_pairing), a bond that
outlives a restart, and a private device reached wherever its address has moved."""

import sys
import time
import unittest

from flows import add_from_scanner
from harness import App, iso, retry_gtk_atspi_crash, scratch


def just_rotated(app, peer):
    """Waits on a detail page for the peer's next private address, and for the page to show
    it: FavBlue reaches a device at the address it heard last, and the peer keeps it 5 s."""
    rotated = peer.count("ROTATED")
    deadline = time.time() + 15
    while peer.count("ROTATED") == rotated and time.time() < deadline:
        time.sleep(0.05)
    address = [line.split()[1] for line in peer.lines if line.startswith("ROTATED ")][-1]
    app.wait_for(lambda: any(n.startswith(address) for n in app.names()), timeout=4,
                 what=f"the page at the new address {address}")


def confirm_the_number(app, peer, name):
    """Waits for the number the peer shows to be asked about, by the device's name, and confirms it."""
    number = peer.wait_for("COMPARE ", timeout=20).split()[1]
    app.wait_for(lambda: f"Does {iso(name)} show {number[:3]} {number[3:]}? Confirm only if the numbers match."
                 in app.names(), what="the number")
    app.press("Confirm")


@retry_gtk_atspi_crash
class OwnHostPairingTests(unittest.TestCase):
    """Pairing through FavBlue's own Security Manager on an H4 link, with Bumble's chat peer
    as the device: the same Pair button and dialog as on the BlueZ route."""

    def test_numeric_comparison_pairs_and_the_bond_outlives_a_restart(self):
        """Pair on the detail page asks "Does Chat Peer show NNN NNN?" with the number the
        device shows; Confirm pairs and encrypts the link. After a restart the page still
        says Paired (the bond is in the database), and Forget asks, then deletes it."""
        from peers import ChatPeer
        peer_name = "Chat Peer"
        home = scratch("favblue-ui-")
        with ChatPeer("--service", "chat", "--pairing", "yesno") as peer:
            with App("--source", peer.source, storage="sqlite", home=home) as app:
                app.wait_for(lambda: "Add New Devices" in app.names("button"), what="the home page")
                app.press("Add New Devices")
                app.wait_for(lambda: f"Details for {peer_name}" in app.names("button"), timeout=30, what="the peer")
                app.press(f"Details for {peer_name}")
                app.wait_for(lambda: f"Pair with {peer_name}" in app.names("button"), what="Pair on the detail page")
                self.assertIn("Not paired", app.names())
                app.press(f"Pair with {peer_name}")
                number = peer.wait_for("COMPARE ", timeout=20).split()[1]
                question = f"Does {iso(peer_name)} show {number[:3]} {number[3:]}? Confirm only if the numbers match."
                app.wait_for(lambda: question in app.names(), what="the device's own number in the question")
                self.assertEqual([n for _, r, n in app.nodes() if r == "push button" and "_" in n], [],
                                 "the dialog's buttons are named without their mnemonic underscore")
                app.press("Confirm")
                app.wait_for(lambda: "Paired" in app.names() and f"Forget {peer_name}" in app.names("button"),
                             what="Paired, and Forget offered")
                peer.wait_for("ENCRYPTED 1")
                peer.wait_for("PAIRED")
            # Quitting ends the connection first: a link left up keeps the device from advertising.
            peer.wait_for("DISCONNECTED", timeout=5)
            with App("--source", peer.source, storage="sqlite", home=home) as app:
                app.wait_for(lambda: "Add New Devices" in app.names("button"), what="the home page")
                app.press("Add New Devices")
                app.wait_for(lambda: f"Details for {peer_name}" in app.names("button"), timeout=30, what="the peer")
                app.press(f"Details for {peer_name}")
                app.wait_for(lambda: "Paired" in app.names(), what="Paired after a restart")
                app.press(f"Forget {peer_name}")
                app.wait_for(lambda: f"Forget {iso(peer_name)}?" in app.names(), what="Forget asks first")
                app.press("Forget")
                app.wait_for(lambda: "Not paired" in app.names() and f"Pair with {peer_name}" in app.names("button"),
                             what="Not paired once forgotten")
                # FavBlue comes from the address it paired from: its identity is kept across restarts.
                app.press(f"Connect to {peer_name}")
                app.wait_for(lambda: peer.count("CONNECTED") >= 2, timeout=20, what="the second connection")
            first, second = [line.split()[1] for line in peer.lines if line.startswith("CONNECTED")][:2]
            self.assertEqual(second, first, "the same address after the restart")

    def test_a_device_that_asks_to_pair_is_asked_about_in_a_dialog_that_names_it(self):
        """Connected, the device sends a Security Request: "Chat Peer asks to pair", with Pair
        and Not Now. Pair runs the pairing on that link (the number is confirmed) and the page
        reads Paired; the next connection is encrypted without a question."""
        from peers import ChatPeer
        with ChatPeer("--service", "chat", "--pairing", "yesno", "--request-pairing") as peer:
            with App("--source", peer.source, storage="memory", home=scratch("favblue-ui-")) as app:
                app.wait_for(lambda: "Add New Devices" in app.names("button"), what="the home page")
                app.press("Add New Devices")
                app.wait_for(lambda: "Details for Chat Peer" in app.names("button"), timeout=30, what="the peer")
                app.press("Details for Chat Peer")
                app.wait_for(lambda: "Connect to Chat Peer" in app.names("button"), what="Connect")
                app.press("Connect to Chat Peer")
                peer.wait_for("REQUESTED", timeout=20)
                app.wait_for(lambda: f"{iso('Chat Peer')} asks to pair" in app.names(), what="the device's request, by name")
                self.assertIn("Not Now", app.names("button"))
                app.press("Pair")
                confirm_the_number(app, peer, "Chat Peer")
                app.wait_for(lambda: "Paired" in app.names(), what="Paired")
                self.assertEqual(peer.count("CONNECTED"), 1, "paired on the link the request came over")
                app.press("Disconnect from Chat Peer")
                app.wait_for(lambda: "Connect to Chat Peer" in app.names("button"), what="disconnected")
                app.press("Connect to Chat Peer")
                deadline = time.time() + 15
                while peer.count("ENCRYPTED 1") < 2 and time.time() < deadline:
                    time.sleep(0.1)
                self.assertEqual(peer.count("ENCRYPTED 1"), 2, "the bonded device's next request is answered with encryption")
                self.assertNotIn(f"{iso('Chat Peer')} asks to pair", app.names(), "and not with a question")

    def test_a_device_rotating_every_two_seconds_pairs_from_its_row_and_connects_twenty_times(self):
        """A stranger that takes a new private address every 2 s, heard for three rotations, is
        one row; Pair on its page reaches it where it is now (not where the row was first heard)
        and bonds. Then 20 connections in a row, each after a new rotation, all succeed: every
        one goes to the address heard last, and follows the device if it moves meanwhile."""
        from peers import ChatPeer
        home = scratch("favblue-ui-")
        with ChatPeer("--service", "chat", "--pairing", "yesno", "--irk", "0f1e2d3c4b5a69788796a5b4c3d2e1f0",
                      "--private", "--rotate", "2", "--advertising-interval", "100") as peer:
            with App("--source", peer.source, "--verbose", storage="sqlite", home=home) as app:
                app.wait_for(lambda: "Add New Devices" in app.names("button"), what="the home page")
                app.press("Add New Devices")
                app.wait_for(lambda: "Details for Chat Peer" in app.names("button"), timeout=30, what="the peer")
                rotated = peer.count("ROTATED")
                deadline = time.time() + 20
                while peer.count("ROTATED") < rotated + 3 and time.time() < deadline:
                    time.sleep(0.1)
                rows = [n for n in app.names("button") if n.startswith("Details for ")]
                self.assertEqual(rows, ["Details for Chat Peer"], "one row across three rotations")
                app.press("Details for Chat Peer")
                app.wait_for(lambda: "Pair with Chat Peer" in app.names("button"), what="Pair")
                app.press("Pair with Chat Peer")
                confirm_the_number(app, peer, "Chat Peer")
                app.wait_for(lambda: "Paired" in app.names() and "Forget Chat Peer" in app.names("button"), what="Paired")
                app.wait_for(lambda: "Disconnect from Chat Peer" in app.names("button"), timeout=20, what="connected")
                for n in range(20):
                    self.reconnect_after_a_rotation(app, peer, n, 20)
                self.assertEqual(peer.count("PAIRED"), 1, "bonded once; every later link is encrypted with the bond")
                retried = app.stderr().count("changed its address; trying")
                print(f"\n20 connects after rotations: {retried} needed a retry", file=sys.stderr)

    def reconnect_after_a_rotation(self, app, peer, n, of):
        """Disconnect, wait for the peer's next address, Connect: connection n + 1 of `of`."""
        app.press("Disconnect from Chat Peer")
        app.wait_for(lambda: "Connect to Chat Peer" in app.names("button"), what=f"disconnected ({n})")
        rotated = peer.count("ROTATED")
        deadline = time.time() + 10
        while peer.count("ROTATED") == rotated and time.time() < deadline:
            time.sleep(0.05)
        self.assertGreater(peer.count("ROTATED"), rotated, "the peer took a new address")
        app.press("Connect to Chat Peer")
        app.wait_for(lambda: "Disconnect from Chat Peer" in app.names("button"), timeout=15,
                     what=f"connection {n + 1} of {of} after a rotation")

    def ten_connects_all_encrypted(self, *misbehaviour):
        """Pairs with a peer rotating every 2 s behind a controller that does not keep its word,
        then connects 10 times, each after a rotation: every link ends encrypted with the bond."""
        from peers import ChatPeer
        with ChatPeer("--service", "chat", "--pairing", "yesno", "--irk", "0f1e2d3c4b5a69788796a5b4c3d2e1f0",
                      "--private", "--rotate", "2", "--advertising-interval", "100", *misbehaviour) as peer:
            with App("--source", peer.source, "--verbose", storage="sqlite", home=scratch("favblue-ui-")) as app:
                app.wait_for(lambda: "Add New Devices" in app.names("button"), what="the home page")
                app.press("Add New Devices")
                app.wait_for(lambda: "Details for Chat Peer" in app.names("button"), timeout=30, what="the peer")
                app.press("Details for Chat Peer")
                app.wait_for(lambda: "Pair with Chat Peer" in app.names("button"), what="Pair")
                app.press("Pair with Chat Peer")
                confirm_the_number(app, peer, "Chat Peer")
                app.wait_for(lambda: "Forget Chat Peer" in app.names("button"), what="Paired")
                app.wait_for(lambda: "Disconnect from Chat Peer" in app.names("button"), timeout=20, what="connected")
                for n in range(10):
                    encrypted = peer.count("ENCRYPTED 1")
                    self.reconnect_after_a_rotation(app, peer, n, 10)
                    deadline = time.time() + 10
                    while peer.count("ENCRYPTED 1") == encrypted and time.time() < deadline:
                        time.sleep(0.05)
                    self.assertGreater(peer.count("ENCRYPTED 1"), encrypted, f"connection {n + 1} is encrypted")
                self.assertEqual(peer.count("PAIRED"), 1, "bonded once")
                return peer, app.stderr()

    def test_ten_connects_through_a_controller_that_claims_a_resolving_list_and_never_resolves(self):
        _, log = self.ten_connects_all_encrypted("--claim-resolving-list")
        self.assertIn("resolving list: the controller did not connect to", log, "the log says why the list is distrusted")

    def test_ten_connects_when_the_controller_leaves_encryption_unanswered_now_and_then(self):
        peer, log = self.ten_connects_all_encrypted("--unanswered-encryptions", "3")
        self.assertEqual(peer.count("UNANSWERED_ENCRYPTION"), 3, "three links were left silent")

    def test_a_private_device_paired_here_keeps_one_row_its_nickname_and_chat_across_rotations_and_restarts(self):
        """A peer with its own identity key that takes a new private address every 5 s:
        made a favorite ("My Peer") under the address it used then, paired (numeric
        comparison), and chatted with. Across three rotations it stays one row, named My
        Peer, nearby. After a restart FavBlue still knows it, reconnects at its current
        address with an encrypted link and shows the chat. Forget: its next address is a
        stranger again."""
        from peers import ChatPeer
        irk = "0f1e2d3c4b5a69788796a5b4c3d2e1f0"
        from test_presence import write_settings
        home = scratch("favblue-ui-")
        with ChatPeer("--service", "chat", "--pairing", "yesno", "--irk", irk, "--private", "--rotate", "5",
                      "--advertising-interval", "100") as peer:
            with App("--source", peer.source, storage="sqlite", home=home) as app:
                app.wait_for(lambda: "Add New Devices" in app.names("button"), what="the home page")
                app.press("Add New Devices")
                app.wait_for(lambda: "Add Chat Peer to favorites" in app.names("button"), timeout=30, what="the peer")
                add_from_scanner(app, "Chat Peer", "My Peer")
                app.press("Details for My Peer")
                app.wait_for(lambda: "Pair with My Peer" in app.names("button"), what="Pair")
                self.assertTrue(any("changes every few minutes" in n for n in app.names()), "the page says the address changes")
                just_rotated(app, peer)
                app.press("Pair with My Peer")
                confirm_the_number(app, peer, "My Peer")
                app.wait_for(lambda: "Paired" in app.names() and "Forget My Peer" in app.names("button"), what="Paired")
                self.assertTrue(any("F0:F1:F2:F3:F4:F5" in n for n in app.names()), "the page shows the identity address")
                # Paired over a connection: chat on it.
                app.wait_for(lambda: "Open chat with My Peer" in app.names("button"), timeout=20, what="the chat offered")
                app.press("Open chat with My Peer")
                app.wait_for(lambda: "Message" in app.names("text"), what="the chat page")
                app.type_text("hello")
                app.key("Return")
                self.assertIn("hello", peer.wait_for("RX chat"))
                app.wait_for(lambda: "echo: hello" in app.names("label", skip=("Devices nearby",)), what="the echo")
                app.press("Back")
                app.wait_for(lambda: "Disconnect from My Peer" in app.names("button"), what="the detail page")
                app.press("Disconnect from My Peer")
                peer.wait_for("DISCONNECTED")
                app.press("Back")
                # Three new addresses: still one row, under its nickname.
                rotated = peer.count("ROTATED")
                deadline = time.time() + 40
                while peer.count("ROTATED") < rotated + 3 and time.time() < deadline:
                    time.sleep(0.2)
                self.assertGreaterEqual(peer.count("ROTATED"), rotated + 3, peer.lines)
                rows = [n for n in app.names("button") if n.startswith("Details for ")]
                self.assertEqual(rows, ["Details for My Peer"], f"one row across rotations: {rows}")
                app.press("Details for My Peer")
                # The row follows the address it uses now.
                latest = lambda: [line.split()[1] for line in peer.lines if line.startswith("ROTATED ")][-1]
                app.wait_for(lambda: any(n.startswith(latest()) for n in app.names()), timeout=10,
                             what="the detail page at the newest private address")
            # After a restart, Favorites hears it through the background scan, at whatever address it uses.
            write_settings(home, background_scan="true", scanner_period_seconds=15, scanner_window_seconds=10)
            with App("--source", peer.source, storage="sqlite", home=home) as app:
                app.wait_for(lambda: "My Peer" in app.names("label"), what="the favorite after a restart")
                app.wait_for(lambda: any(l.startswith("Nearby · −") for l in app.names("label")), timeout=40,
                             what="My Peer nearby on Favorites")
                app.press("Add New Devices")
                app.wait_for(lambda: "Details for My Peer" in app.names("button"), timeout=30, what="the peer recognised")
                self.assertNotIn("Details for Chat Peer", app.names("button"), "not a stranger")
                app.press("Details for My Peer")
                app.wait_for(lambda: "Paired" in app.names(), what="still Paired")
                encrypted = peer.count("ENCRYPTED 1")
                just_rotated(app, peer)
                app.press("Connect to My Peer")
                app.wait_for(lambda: "Open chat with My Peer" in app.names("button"), timeout=30, what="connected")
                self.assertEqual(peer.count("PAIRED"), 1, "no second pairing")
                deadline = time.time() + 10
                while peer.count("ENCRYPTED 1") <= encrypted and time.time() < deadline:
                    time.sleep(0.1)
                self.assertGreater(peer.count("ENCRYPTED 1"), encrypted, "the new link is encrypted with the bond")
                app.press("Open chat with My Peer")
                app.wait_for(lambda: "echo: hello" in app.names("label", skip=("Devices nearby",)), what="the chat history")
                app.press("Back")
                app.press("Disconnect from My Peer")
                peer.wait_for("DISCONNECTED")
                app.press("Forget My Peer")
                app.wait_for(lambda: f"Forget {iso('My Peer')}?" in app.names(), what="Forget asks first")
                app.press("Forget")
                app.wait_for(lambda: "Not paired" in app.names(), what="Not paired")
                app.press("Back")
                app.wait_for(lambda: "Details for Chat Peer" in app.names("button"), timeout=30,
                             what="its next address is a stranger again")
