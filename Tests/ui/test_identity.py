# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""A favorite that changes its private address, followed by a key typed in on its detail
page: before the key it is not heard; with it, its new address resolves to it, also after a
restart; a wrong key is refused with the reason; Remove Key forgets it."""

import os
import shutil
import sqlite3
import struct
import unittest

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

from harness import App, home_with, retry_gtk_atspi_crash, scratch

# The Core spec's sample IRK (Vol 3 Part H Appendix D.7).
IRK = bytes.fromhex("ec0234a357c8ad05341010a60a397d9b")
STRANGER_IRK = bytes.fromhex("00112233445566778899aabbccddeeff")


def private_address(irk, prand):
    """A resolvable private address, most significant octet first: prand (top bits 01), then ah(irk, prand)."""
    prand = (prand & 0x3FFFFF) | 0x400000
    r = prand.to_bytes(3, "big")
    encryptor = Cipher(algorithms.AES(irk), modes.ECB()).encryptor()
    return r + (encryptor.update(bytes(13) + r) + encryptor.finalize())[-3:]


def text(address):
    return ":".join(f"{b:02X}" for b in address)


SAVED = private_address(IRK, 0x123456)      # the address the favorite was saved under
NOW = private_address(IRK, 0x2ABCDE)        # the address it uses today
STRANGER = private_address(STRANGER_IRK, 0x333333)


def write_capture(path, devices_at, seconds=600):
    """A btsnoop capture (H4) of legacy advertising reports ten times a second: at each tick,
    one report from each (address, name, dBm) that `devices_at(tick)` lists."""
    start = 1_700_000_000_000_000 + 0x00DCDDB30F2F8000
    with open(path, "wb") as f:
        f.write(b"btsnoop\0" + struct.pack(">II", 1, 1002))
        for tick in range(seconds * 10):
            for n, (address, name, rssi) in enumerate(devices_at(tick)):
                data = bytes([0x02, 0x01, 0x06, len(name) + 1, 0x09]) + name
                report = bytes([0x01, 0x00, 0x01]) + address[::-1] + bytes([len(data)]) + data + struct.pack("b", rssi)
                packet = bytes([0x04, 0x3E, len(report) + 1, 0x02]) + report
                f.write(struct.pack(">IIIIq", len(packet), len(packet), 3, 0, start + tick * 100_000 + n) + packet)


def band_and_stranger(tick):
    """The band from its new address, and a stranger."""
    return [(NOW, b"Band", -50), (STRANGER, b"Other", -70)]


def rotating_band_and_lamp(tick):
    """A band that changes its private address every 5 s, without a bond, and a lamp that keeps its address."""
    return [(private_address(STRANGER_IRK, 0x100 + tick // 50), b"Band", -50), (bytes.fromhex("C61122334455"), b"Lamp", -60)]


SAVED_WORDS = "Key saved. FavBlue now recognises this device when its address changes."


@retry_gtk_atspi_crash
class TypedKeyTests(unittest.TestCase):
    def setUp(self):
        # Short, so the Recognition section's words would fall below the fold.
        self.home = home_with(800, 420)
        self.addCleanup(shutil.rmtree, self.home, True)
        self.capture = os.path.join(self.home, "band.btsnoop")
        write_capture(self.capture, band_and_stranger)

    def property_value(self, app, title):
        labels = [n for _, r, n in app.nodes() if r == "label"]
        return labels[labels.index(title) + 1] if title in labels else None

    def open_details(self, app):
        app.wait_for(lambda: "My Band" in app.names("label"), what="the favorite")
        app.press("Details for My Band")
        app.wait_for(lambda: "Recognition" in app.names("label"), what="the detail page's Recognition section")

    def use_key(self, app, key):
        app.find("Identity Resolving Key", role="text").set_text_contents(key)
        app.settle()
        app.press("Use Key")

    def test_a_typed_key_follows_a_favorite_across_its_address_change(self):
        source = ("--source", f"btsnoop:{self.capture}")
        with App(*source, storage="sqlite", home=self.home) as app:
            app.wait_for(lambda: "No Favorites Yet" in app.names(), what="the empty home page")
        db = sqlite3.connect(os.path.join(self.home, "xdg_data_home", "favblue", "favblue.sqlite"))
        with db:
            db.execute("INSERT INTO favorites (device_id, nickname, last_name, added_at, updated_at) VALUES (?, ?, ?, ?, ?)", (text(SAVED) + "/le-random", "My Band", "Band", 1.7e9, 1.7e9))
        db.close()

        with App(*source, storage="sqlite", home=self.home) as app:
            self.open_details(app)
            # The page scans while shown; the band is heard, but under an address nobody knows.
            app.wait_for(lambda: "Not heard" in app.names("label"), what="the favorite not heard")
            self.use_key(app, "ec02 34a3")
            app.wait_for(lambda: "A key has 32 hex digits; this one has 8 digits." in app.names("label"), what="the length refused")
            # The other device's key resolves what is heard from it, but not this favorite's address.
            self.use_key(app, STRANGER_IRK.hex())
            app.wait_for(lambda: "This key does not match the address this favorite was saved with. "
                                 "It may belong to another device." in app.names("label"), what="another device's key refused")
            # The key as some tools print it, least significant byte first: FavBlue tries both orders.
            self.use_key(app, IRK[::-1].hex(":"))
            app.wait_for(lambda: SAVED_WORDS in app.names("label"), what="the key kept")
            # The window is short: the words are scrolled into view, not left below the fold.
            app.wait_for(lambda: app.in_view(SAVED_WORDS, "label"), what="the key's words in view")
            app.wait_for(lambda: self.property_value(app, "Private Address") == f"{text(NOW)}, resolved",
                         what="the new address resolved to the favorite")
            self.assertIn("−50 dBm", app.names("label"), "the favorite's signal, heard through its new address")
            self.assertIn("Remove Key", app.names("button"))
            self.assertNotIn("Identity Resolving Key", app.names("text"), "the key is not shown again")

        # Kept: a new session recognises it at once.
        with App(*source, storage="sqlite", home=self.home) as app:
            self.open_details(app)
            app.wait_for(lambda: self.property_value(app, "Private Address") == f"{text(NOW)}, resolved",
                         what="the address resolved after a restart")
            app.press("Remove Key")
            app.wait_for(lambda: "Key removed." in app.names("label"), what="the key removed")
            app.wait_for(lambda: app.in_view("Key removed.", "label"), what="the removal's words in view")
            self.assertIn("Identity Resolving Key", app.names("text"), "the entry is offered again")
        db = sqlite3.connect(os.path.join(self.home, "xdg_data_home", "favblue", "favblue.sqlite"))
        self.assertEqual(db.execute("SELECT COUNT(*) FROM bonds").fetchone(), (0,), "Remove Key deletes it")
        db.close()


@retry_gtk_atspi_crash
class AddressChangeTests(unittest.TestCase):
    def test_a_device_that_changes_its_address_is_one_row_that_says_so(self):
        home = scratch("favblue-rotating-")
        self.addCleanup(shutil.rmtree, home, True)
        capture = os.path.join(home, "rotating.btsnoop")
        write_capture(capture, rotating_band_and_lamp)
        with App("--source", f"btsnoop:{capture}", home=home) as app:
            app.wait_for(lambda: "Add New Devices" in app.names("button"), what="the home page")
            app.press("Add New Devices")
            # Three changes of address take 15 s of the replay.
            app.wait_for(lambda: any(n.endswith(" · changes its address") for n in app.names("label")), timeout=40,
                         what="the row marked as changing its address")
            self.assertEqual(app.names("button").count("Details for Band"), 1, "one row for the band")
            app.wait_for(lambda: len([n for n in app.names("label") if n.endswith(" · changes its address")]) == 1
                         and app.names("label").count("Band") == 1, timeout=20, what="still one row after more changes")
            app.press("Details for Band")
            app.wait_for(lambda: "Earlier Addresses" in app.names("label"), what="the earlier addresses on the detail page")
            labels = [n for _, r, n in app.nodes() if r == "label"]
            earlier = labels[labels.index("Earlier Addresses") + 1]
            self.assertGreaterEqual(len(earlier.split(", ")), 1)
            self.assertTrue(any(n.endswith(", in use now") for n in labels))


if __name__ == "__main__":
    unittest.main()
