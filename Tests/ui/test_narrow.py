# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""A phone-wide (360 px) window with a full title-bar layout (minimize, maximize and
close, Ubuntu's default): titles stay readable, controls fold into a menu, and
the problem page's header keeps only what works there.

GTK 4.8 answers no AT-SPI text-extents query for labels, so "shown in full" is
read from widths: a header's title and subtitle labels share one column as wide
as the longer text needs, which is their width in a wide window. Narrower than
that, the longer one is cut with an ellipsis."""

import re
import subprocess
import time
import unittest

from atspi_tree import Node
from harness import DEMO_CAPTURE, App, Atspi, home_with, retry_gtk_atspi_crash



def extents(node):
    if isinstance(node, Node):
        return node.extents(Atspi.CoordType.WINDOW)
    return Atspi.Component.get_extents(node, Atspi.CoordType.WINDOW)


def window_width(app):
    """The X window's width: what the window manager and the user see."""
    # By title: a tooltip or a popover is an X window of the same process too.
    wid = subprocess.run(["xdotool", "search", "--onlyvisible", "--pid", str(app.proc.pid), "--name", "^FavBlue$"],
                         capture_output=True, text=True, timeout=10).stdout.split()[0]
    out = subprocess.run(["xdotool", "getwindowgeometry", "--shell", wid],
                         capture_output=True, text=True, check=True, timeout=10).stdout
    return int(dict(line.split("=", 1) for line in out.split())["WIDTH"])


def header_title(app, title):
    """{text: width} of the showing header's title and subtitle labels."""
    for node, role, name in app.nodes():
        if role == "label" and name == title and extents(node).y < 40:
            column = node.get_parent()
            out = {}
            for i in range(column.get_child_count()):
                label = column.get_child_at_index(i)
                if label.get_state_set().contains(Atspi.StateType.VISIBLE):
                    out[label.get_name()] = extents(label).width
            return out
    raise AssertionError(f"no header title {title!r}; showing: {sorted(set(app.names('label')))}")


def open_scanner(app, subtitle):
    app.wait_for(lambda: "Add New Devices" in app.names("button"), what="the home page")
    app.press("Add New Devices")
    app.wait_for(lambda: subtitle in app.names("label"), timeout=30, what=f"the Scanner saying {subtitle!r}")
    app.settle()


def minimum_width(app):
    """The smallest width the window asks a window manager for (WM_NORMAL_HINTS)."""
    out = subprocess.run(["xprop", "-id", app.window_id(), "WM_NORMAL_HINTS"], capture_output=True, text=True,
                         check=True, timeout=10).stdout
    line = next(l for l in out.splitlines() if "minimum size" in l)
    return int(line.split(":", 1)[1].split("by")[0])


@retry_gtk_atspi_crash
class NarrowWindowTests(unittest.TestCase):
    def test_a_window_manager_may_make_any_page_360_px_wide_even_from_a_wide_start(self):
        """A window manager keeps a window at its minimum: a wide layout's minimum (the German
        connection bar's 427 px) kept the 360 px layouts out of reach."""
        with App("--source", "demo", home=home_with(1000), lang="de") as app:
            app.wait_for(lambda: "Neue Geräte hinzufügen" in app.names("button"), what="the home page")
            seen = {"Favoriten": minimum_width(app)}
            app.press("Neue Geräte hinzufügen")
            app.wait_for(lambda: "Details zu FavBlue Demo Chat" in app.names("button"), timeout=20, what="the demo device")
            app.press("Details zu FavBlue Demo Chat")
            app.wait_for(lambda: "Mit FavBlue Demo Chat verbinden" in app.names("button"), what="its page")
            seen["Gerät"] = minimum_width(app)
            app.press("Mit FavBlue Demo Chat verbinden")
            app.wait_for(lambda: "Chat mit FavBlue Demo Chat öffnen" in app.names("button"), what="connected")
            app.press("Zurück")
            app.wait_for(lambda: "Verbindung mit FavBlue Demo Chat trennen" in app.names("button"), what="the connection bar")
            seen["Scanner mit Verbindungsleiste"] = minimum_width(app)
            self.assertEqual({page: width for page, width in seen.items() if width > 360}, {}, f"minimum widths: {seen}")
            subprocess.run(["xdotool", "windowsize", "--sync", app.window_id(), "360", "640"], check=True, timeout=10)
            app.wait_for(lambda: window_width(app) == 360, what="the window at 360 px")
            app.wait_for(lambda: "Verbindung mit FavBlue Demo Chat trennen" in app.names("button"), what="the bar, narrow")
            self.assertIn(f"Verbunden mit \u2068FavBlue Demo Chat\u2069", app.names("label"), "the device's own name, untranslated")

    def scanner_title(self, width):
        with App("--source", DEMO_CAPTURE, home=home_with(width)) as app:
            open_scanner(app, "Replay finished")
            return window_width(app), header_title(app, "Scanner")

    def test_the_scanner_title_and_subtitle_are_shown_in_full_at_360_px(self):
        _, wide = self.scanner_title(1000)
        width, narrow = self.scanner_title(360)
        self.assertEqual(width, 360, "the window keeps the 360 px it was given")
        self.assertEqual(set(narrow), {"Scanner", "Replay finished"})
        for text, needed in wide.items():
            self.assertGreaterEqual(narrow[text], needed, f"{text!r} has the room its full text needs")

    def test_favorites_and_the_detail_page_keep_360_px(self):
        with App("--source", "demo", home=home_with(1000)) as app:
            app.wait_for(lambda: "Add New Devices" in app.names("button"), what="the home page")
            wide = header_title(app, "FavBlue")
        with App("--source", DEMO_CAPTURE, home=home_with(360)) as app:
            app.wait_for(lambda: "Add New Devices" in app.names("button"), what="the home page")
            self.assertEqual(window_width(app), 360)
            self.assertGreaterEqual(header_title(app, "FavBlue")["FavBlue"], wide["FavBlue"], "the home title in full")
            open_scanner(app, "Replay finished")
            app.press("Details for Kitchen Speaker")
            app.wait_for(lambda: "Signal" in app.names("label"), what="the detail page")
            self.assertEqual(window_width(app), 360, "the detail page fits as well")
            self.assertIn("Kitchen Speaker", header_title(app, "Kitchen Speaker"))

    def test_narrow_rows_give_the_address_its_own_line(self):
        with App("--source", DEMO_CAPTURE, home=home_with(360)) as app:
            open_scanner(app, "Replay finished")
            labels = app.names("label")
            self.assertIn("C0:98:E5:49:00:01", labels, "the whole address, alone on its line")
            self.assertFalse([l for l in labels if l.startswith("C0:98:E5:49:00:01 ·")], "no joined identifier line")

    def test_a_narrow_sensor_row_says_two_readings_and_a_wide_one_three(self):
        """At 360 px a third reading would be cut ("22,58 °C · 68,49 % · Ba…"): the row says two
        in full; widened, the same row says three."""
        with App("--source", "demo", home=home_with(360), lang="de") as app:
            app.wait_for(lambda: "Neue Geräte hinzufügen" in app.names("button"), what="the home page")
            app.press("Neue Geräte hinzufügen")
            two = re.compile(r"^\d+,\d+ °C · \d+,\d+ %$")
            app.wait_for(lambda: any(two.match(l) for l in app.names("label")), timeout=30, what="a row with two readings")
            self.assertFalse([l for l in app.names("label") if "Batterie" in l and "°C" in l], "no third reading at 360 px")
            wid = app.window_id()
            subprocess.run(["xdotool", "windowsize", wid, "1000", "700"], check=True, timeout=10)
            three = re.compile(r"^\d+,\d+ °C · \d+,\d+ % · Batterie \d+ %$")
            app.wait_for(lambda: any(three.match(l) for l in app.names("label")), timeout=20, what="the wide row's three readings")

    def test_each_scanner_row_keeps_one_height_at_360_px_while_its_readings_change(self):
        """A narrow row says fewer readings rather than wrapping them: over several seconds of
        changing figures, each row keeps the height it had, and every row with a line of
        readings is as tall as every other such row."""
        def labels(node, depth=0):
            found = []
            for i in range(node.get_child_count()):
                child = node.get_child_at_index(i)
                if child.get_role_name() == "label" and child.get_name() not in ("", "GtkLabel"):
                    found.append(child.get_name())
                if depth < 6:
                    found += labels(child, depth + 1)
            return found

        reading = re.compile(r"^\d+,\d+ °C")
        with App("--source", "demo", home=home_with(360), lang="de") as app:
            app.wait_for(lambda: "Neue Geräte hinzufügen" in app.names("button"), what="the home page")
            app.press("Neue Geräte hinzufügen")
            app.wait_for(lambda: any(reading.match(l) for l in app.names("label")), timeout=30, what="a row with readings")
            heights, with_readings = {}, set()
            for _ in range(6):
                for node, role, _ in app.nodes():
                    if role != "list item":
                        continue
                    box = node.extents(Atspi.CoordType.WINDOW)
                    texts = labels(node)
                    if box.height == 0 or not texts:
                        continue
                    heights.setdefault(texts[0], set()).add(box.height)
                    if any(reading.match(t) for t in texts):
                        self.assertFalse([t for t in texts if reading.match(t) and "\n" in t], f"{texts[0]}: readings on one line")
                        with_readings.add(box.height)
                time.sleep(1.5)
            self.assertEqual({name: h for name, h in heights.items() if len(h) > 1}, {}, "each row keeps one height")
            self.assertEqual(len(with_readings), 1, f"rows with readings share one height: {with_readings}")

    def test_a_narrow_favorite_says_where_it_is_and_its_readings_each_on_a_line(self):
        """At 360 px "Dieser Computer · −58 dBm · 24,46 °C · 63,…" was cut: a narrow favorite says
        where it is on one line and its readings on the next; widened, one line again."""
        with App("--source", "demo", home=home_with(360), lang="de") as app:
            # The greenhouse is one of the favorites the demo starts with.
            app.wait_for(lambda: "Greenhouse aus den Favoriten entfernen" in app.names("button"), timeout=30, what="the greenhouse")
            lines = re.compile(r"^Dieser Computer · −\d+ dBm\n\d+,\d+ °C · \d+,\d+ %$")
            app.wait_for(lambda: any(lines.match(l) for l in app.names("label")), timeout=20, what="two lines")
            subprocess.run(["xdotool", "windowsize", app.window_id(), "1000", "700"], check=True, timeout=10)
            line = re.compile(r"^Dieser Computer · −\d+ dBm · \d+,\d+ °C · \d+,\d+ %$")
            app.wait_for(lambda: any(line.match(l) for l in app.names("label")), timeout=20, what="one line when wide")

    def test_service_data_bytes_wrap_in_their_field_at_360_px_in_german(self):
        """At 360 px the Service Data's bytes were cut off at the field's edge: its lines wrap,
        so every byte shows inside the window, and they read back as typed."""
        data = " ".join(f"{b:02X}" for b in range(24))
        with App("--source", "demo", home=home_with(360), lang="de") as app:
            app.wait_for(lambda: "Hauptmenü" in app.names("button"), what="the home page")
            app.click_on_until("Hauptmenü", None, lambda: "Als Gerät auftreten" in app.names("menu item"), what="the main menu")
            app.click_menu_item("Als Gerät auftreten")
            app.click_on_until("Anzeige hinzufügen", None, lambda: "Eigene Anzeige" in app.names("menu item"), what="the Add menu")
            app.click_menu_item("Eigene Anzeige")
            app.wait_for(lambda: "Name in FavBlue" in app.names("text"), what="the new advertisement's page")
            app.press("Dienstdaten hinzufügen")
            app.wait_for(lambda: "UUID der Dienstdaten" in app.names("text"), what="a service data row")
            uuid = app.find("UUID der Dienstdaten", "text")
            uuid.set_text_contents("FCD2")
            app.settle()
            field = lambda: next(n for n, r, name in app.nodes() if r == "text" and name.startswith("Dienstdaten für "))
            field().set_text_contents("01")
            app.settle()
            one_line = extents(field()).height
            field().set_text_contents(data)
            app.settle()
            self.assertEqual(window_width(app), 360, "the window keeps its 360 px")
            hex_box = extents(field())
            self.assertLessEqual(hex_box.x + hex_box.width, 360, "the field ends inside the window")
            self.assertGreater(hex_box.height, 1.8 * one_line, "the bytes go on over more than one line")
            text = field().text()
            self.assertEqual(text, data, "every byte, as typed")

    def test_search_and_view_options_fold_into_one_menu_and_ctrl_f_still_searches(self):
        with App("--source", DEMO_CAPTURE, home=home_with(360)) as app:
            open_scanner(app, "Replay finished")
            buttons = app.names("button")
            self.assertNotIn("Search Devices", buttons)
            self.assertNotIn("View Options", buttons)
            app.click_on_until("Search and View Options", None, lambda: "Search Devices" in app.names("menu item"), what="the folded menu")
            # The main menu folds in too: one menu button, and F10 opens it.
            for item in ("Signal Strength", "Favorites Only", "Preferences", "About FavBlue"):
                self.assertIn(item, app.names("menu item"))
            self.assertNotIn("Main Menu", buttons)
            app.key("Escape")
            app.wait_for(lambda: "Search Devices" not in app.names("menu item"), what="the menu closed")
            app.key("F10")
            app.wait_for(lambda: "About FavBlue" in app.names("menu item"), what="F10 to open the folded menu")
            app.press("Search Devices", role="menu item")
            app.wait_for(lambda: app.focused_name() == "Search Devices", what="the search entry focused")
            app.type_text("lamp")
            app.wait_for(lambda: "Kitchen Speaker" not in app.names("label"), what="the search to filter")
            self.assertIn("Desk Lamp", app.names("label"))
            app.key("Escape")
            app.wait_for(lambda: "Kitchen Speaker" in app.names("label"), what="the search closed")
            app.key("ctrl+f")
            app.wait_for(lambda: app.focused_name() == "Search Devices", what="Ctrl+F to open the search")

    def test_the_problem_page_header_keeps_only_what_works(self):
        with App("--source", "h4-unix:/nonexistent/favblue.sock", home=home_with(360)) as app:
            app.wait_for(lambda: "Add New Devices" in app.names("button"), what="the home page")
            app.press("Add New Devices")
            app.wait_for(lambda: "No Bluetooth Adapter Found" in app.names(), what="the problem page")
            app.settle()
            buttons = app.names("button")
            self.assertIn("Try Again", buttons)
            self.assertIn("Back", buttons)
            for gone in ("Search Devices", "View Options", "Search and View Options", "Start Scanning", "Stop Scanning"):
                self.assertNotIn(gone, buttons, f"{gone} does nothing useful here")
            self.assertEqual(window_width(app), 360)

    def test_the_problem_page_header_in_a_wide_window(self):
        with App("--source", "h4-unix:/nonexistent/favblue.sock", home=home_with(1000)) as app:
            app.wait_for(lambda: "Add New Devices" in app.names("button"), what="the home page")
            app.press("Add New Devices")
            app.wait_for(lambda: "No Bluetooth Adapter Found" in app.names(), what="the problem page")
            app.settle()
            buttons = app.names("button")
            for gone in ("Search Devices", "View Options", "Start Scanning"):
                self.assertNotIn(gone, buttons)
            app.type_text("x")
            app.settle()
            entry = app.find("Search Devices", role="entry")
            self.assertEqual(extents(entry).height, 0, "typing opens no search bar")

    def test_the_shortcuts_window_fits_360_px(self):
        for lang in ("en", "de"):
            with self.subTest(lang=lang), App(home=home_with(360), lang=lang) as app:
                app.accessible()
                app.key("ctrl+question")
                title = "Keyboard Shortcuts" if lang == "en" else "Tastenkürzel"
                app.wait_for(lambda: title in app.frames(), what="the shortcuts window")
                app.settle()
                root = app.accessible()
                frames = [root.get_child_at_index(i) for i in range(root.get_child_count())]
                shortcuts = next(f for f in frames if f.get_name() == title)
                self.assertLessEqual(extents(shortcuts).width, 360, "no wider than a phone")
                self.assertIn("Search Devices" if lang == "en" else "Geräte suchen", app.names())

    def test_preferences_open_no_wider_than_a_360_px_window(self):
        """libadwaita's preferences window opens at 640 px; over a phone-wide window it takes that width."""
        with App(home=home_with(360), lang="de") as app:
            app.wait_for(lambda: "Neue Geräte hinzufügen" in app.names("button"), what="the home page")
            app.key("ctrl+comma")
            app.wait_for(lambda: "Einstellungen" in app.frames(), what="Preferences")
            app.settle()
            root = app.accessible()
            frames = [root.get_child_at_index(i) for i in range(root.get_child_count())]
            preferences = next(f for f in frames if f.get_name() == "Einstellungen")
            self.assertLessEqual(extents(preferences).width, 360, "no wider than the window")
            self.assertIn("Automatisch scannen", app.names())


if __name__ == "__main__":
    unittest.main()
