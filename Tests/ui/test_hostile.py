# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""A room of devices whose names are hostile: markup, formula starters, a right-to-left
override, control characters, invalid UTF-8 and a 248-byte name in an extended
advertisement. Each reads back as text (control characters as visible symbols) on every
page, in the notices and in an export, and GTK never parses one as markup."""

import csv
import os
import shutil
import struct
import unittest

from harness import App, retry_gtk_atspi_crash, iso, scratch

LONG = ("Long name " * 25)[:248].encode()
NAMES = [
    b"R&D <Lab>",
    b"<b>Bold</b> Tag",
    b"Lone < Sign",
    b'=HYPERLINK("x")',
    b"+cmd|calc!A0",
    b"@SUM(1+1)",
    b"-2+3",
    "\u202eexe.live".encode(),
    b"Line\nBreak",
    b"Bell\x07Ring",
    b"Esc\x1b[31mRed",
    b"Bad\xff\xfeBytes",
    LONG,
]


def shown(raw):
    """The name as FavBlue shows it: invalid UTF-8 replaced, control characters as symbols."""
    out = []
    for ch in raw.decode("utf-8", errors="replace"):
        c = ord(ch)
        out.append(chr(0x2400 + c) if c < 0x20 else "\u2421" if c == 0x7F else "\ufffd" if 0x80 <= c <= 0x9F else ch)
    return "".join(out)


def write_hostile_capture(path, seconds=600):
    """A btsnoop capture (H4): each name from its own address once a second; the long one as an
    extended advertisement in two pieces, as a controller sends it."""
    start = 1_700_000_000_000_000 + 0x00DCDDB30F2F8000
    with open(path, "wb") as f:
        f.write(b"btsnoop\0" + struct.pack(">II", 1, 1002))

        def event(params, at):
            packet = bytes([0x04, 0x3E, len(params)]) + params
            f.write(struct.pack(">IIIIq", len(packet), len(packet), 3, 0, at) + packet)

        for second in range(seconds):
            for n, name in enumerate(NAMES):
                at = start + second * 1_000_000 + n * 1000
                address = bytes([n, 0x66, 0x55, 0x44, 0x33, 0xC2])
                data = bytes([0x02, 0x01, 0x06, len(name) + 1, 0x09]) + name
                if len(data) <= 31:
                    report = bytes([0x01, 0x00, 0x01]) + address + bytes([len(data)]) + data + struct.pack("b", -40 - n)
                    event(bytes([0x02]) + report, at)
                    continue
                for i, piece in enumerate((data[:200], data[200:])):
                    status = 1 if i == 0 else 0
                    kind = 0x0001 | status << 5
                    report = (bytes([1]) + struct.pack("<H", kind) + bytes([0x01]) + address
                              + bytes([0x01, 0x00, 0xFF, 0x7F]) + struct.pack("b", -40 - n) + bytes(9)
                              + bytes([len(piece)]) + piece)
                    event(bytes([0x0D]) + report, at + i)


@retry_gtk_atspi_crash
class HostileNameTests(unittest.TestCase):
    def setUp(self):
        self.home = scratch("favblue-hostile-")
        self.addCleanup(shutil.rmtree, self.home, True)
        self.capture = os.path.join(self.home, "hostile.btsnoop")
        write_hostile_capture(self.capture)

    def labels(self, app):
        return [n for _, r, n in app.nodes() if r == "label"]

    def property_value(self, app, title):
        labels = self.labels(app)
        return labels[labels.index(title) + 1] if title in labels else None

    def test_every_name_reads_back_as_text_on_every_page_and_in_the_export(self):
        names = [shown(n) for n in NAMES]
        self.assertIn("Line\u240aBreak", names)
        with App("--source", f"btsnoop:{self.capture}", home=self.home) as app:
            app.wait_for(lambda: "Add New Devices" in app.names("button"), what="the home page")
            app.press("Add New Devices")
            app.wait_for(lambda: all(f"Details for {n}" in app.names("button") for n in names), timeout=40,
                         what="every hostile device in the Scanner")
            listed = self.labels(app)
            for name in names:
                self.assertIn(name, listed, "the Scanner row shows the name as text")

            # The detail page of each: its title, the name as sent, as text.
            for name in names:
                app.press(f"Details for {name}")
                app.wait_for(lambda: "Keywords" in app.names("label") and name in self.labels(app), what=f"the detail page of {name!r}")
                if name.startswith("Bad"):
                    app.wait_for(lambda: "Name bytes, not valid UTF-8: 42 61 64 FF FE 42 79 74 65 73" in app.names(),
                                 what="the name's bytes in hex")
                app.key("alt+Left")
                app.wait_for(lambda: "Add New Devices" not in app.names("button") and f"Details for {name}" in app.names("button"),
                             what="the Scanner again")

            # Favorites, and the notice that says one was added.
            favorites = [shown(NAMES[0]), shown(NAMES[7]), shown(NAMES[8])]
            for name in favorites:
                app.press(f"Add {name} to favorites")
                app.wait_for(lambda: "Add to Favorites" in app.names(), what="the add dialog")
                self.assertIn(f"Add “{iso(name)}” to your favorites. You can give it a nickname.", app.names())
                app.key("Return")
                app.wait_for(lambda: f"“{iso(name)}” added to favorites" in app.names("label", skip=("Devices nearby",)),
                             what=f"the notice for {name!r}")

            # Hide one from its details: the Undo notice names it, then Preferences lists it.
            hidden = shown(NAMES[1])
            app.press(f"Details for {hidden}")
            app.wait_for(lambda: f"Hide {hidden}" in app.names("button"), what="Hide on the detail page")
            app.press(f"Hide {hidden}")
            app.wait_for(lambda: f"“{iso(hidden)}” is hidden" in app.names("label", skip=("Devices nearby",)),
                         what="the Undo notice")

            # Export Devices: the notice, then a file no spreadsheet runs.
            path = os.path.join(self.home, "hostile.csv")
            app.click_on_until("View Options", None, lambda: any(n.startswith("Export Devices") for n in app.names()), what="Export Devices")
            node = next(node for node, _, name in app.nodes() if name.startswith("Export Devices"))
            node.do_action(0)
            app.settle()
            app.wait_for(lambda: "Export Devices" in app.frames(), what="the file chooser")
            app.find("Name:", role="text").set_text_contents(path)
            app.settle()
            app.press("Save")
            app.wait_for(lambda: os.path.exists(path), what="the exported file")
            app.wait_for(lambda: f"Exported {len(NAMES) - 1} devices to “{iso('hostile.csv')}”" in app.names(),
                         what="the export notice")
            app.wait_for(lambda: "Export Devices" not in app.frames(), what="the file chooser to close")

            # Through the main menu, as a screen reader user would: the keyboard focus is for the
            # window manager to give back after the file chooser, and this display has none.
            app.click_on_until("Main Menu", None, lambda: "Preferences" in app.names("menu item"), what="the main menu")
            app.find("Preferences", role="menu item").do_action(0)
            app.wait_for(lambda: f"Unhide {hidden}" in app.names("button"), what="the hidden device in Preferences")
            self.assertIn(hidden, self.labels(app), "its row shows the name as text")
            app.key("Escape")

            # Favorites lists each by its name.
            app.key("alt+Left")
            app.wait_for(lambda: "Add New Devices" in app.names("button"), what="Favorites")
            home = self.labels(app)
            for name in favorites:
                self.assertIn(name, home)
            stderr = app.stderr()
        self.assertNotIn("from markup", stderr, "GTK never read a device's name as markup")

        with open(path, newline="", encoding="utf-8") as f:
            rows = list(csv.reader(f))
        header, body = rows[0], rows[1:]
        for row in body:
            for cell in row:
                if cell and cell[0] in "=+-@\t\r":
                    self.assertRegex(cell, r"^-?\d+(\.\d+)?$", f"only a plain number may start with {cell[0]!r}: {row}")
        exported = {row[header.index("name")] for row in body}
        expected = {n.decode("utf-8", errors="replace") for n in NAMES if n != NAMES[1]}
        self.assertEqual({e[1:] if e.startswith("'") and e[1:2] in "=+-@" else e for e in exported}, expected,
                         "each name reads back exactly, apart from the one quote before a formula starter")


if __name__ == "__main__":
    unittest.main()
