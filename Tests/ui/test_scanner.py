# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""The Scanner and device pages on the real app, fed by the shipped demo capture
(recorded from virtual Bumble devices) and by sources that fail."""

import os
import re
import subprocess
import tempfile
import time
import unittest

from atspi_tree import a11y_connection, child_at, extents_of, walk_tree
from flows import add_from_scanner, remove_from_scanner_after_checking_home
from gi.repository import GLib
from harness import App, Atspi, retry_gtk_atspi_crash, iso, scratch

NAME = "Kitchen Speaker"
ROW = "panel"


def names_under(node, depth=0):
    """Every name in the subtree of an accessible node (a dialog, say)."""
    if node is None or depth > 30:
        return []
    out = [node.get_name() or ""]
    for i in range(node.get_child_count()):
        out += names_under(node.get_child_at_index(i), depth + 1)
    return out


def write_busy_capture(path, devices=24, rate=100, seconds=180, jitter=4):
    """A btsnoop capture (H4) of named LE devices 1 dB apart (from −45 dBm, 50 steps down,
    then again) whose signals wander by `jitter` dB on every report, so neighbours in a list
    sorted by signal keep swapping."""
    import random
    import struct
    rng = random.Random(11)
    start = 1_700_000_000_000_000 + 0x00DCDDB30F2F8000
    with open(path, "wb") as f:
        f.write(b"btsnoop\0" + struct.pack(">II", 1, 1002))
        for i in range(seconds * rate):
            n = rng.randrange(devices)
            name = (f"Busy Sensor {n:02d}" if devices <= 100 else f"Busy Sensor {n:03d}").encode()
            data = bytes([0x02, 0x01, 0x06, len(name) + 1, 0x09]) + name
            address = bytes([n, 0x42, 0x10, 0x20, 0x30, 0xC0])
            rssi = -45 - n % 50 + rng.randint(-jitter, jitter)
            report = bytes([0x01, 0x00, 0x01]) + address + bytes([len(data)]) + data + struct.pack("b", rssi)
            body = bytes([0x02]) + report
            packet = bytes([0x04, 0x3E, len(body)]) + body
            f.write(struct.pack(">IIIIq", len(packet), len(packet), 3, 0, start + i * 1_000_000 // rate) + packet)


@retry_gtk_atspi_crash
class ScannerTests(unittest.TestCase):
    def open_scanner(self, app):
        app.wait_for(lambda: "Add New Devices" in app.names("button"), what="the home page")
        app.press("Add New Devices")
        app.wait_for(lambda: NAME in app.names("label"), timeout=20, what="devices from the demo")

    def test_devices_are_listed_with_name_identifier_and_signal(self):
        with App("--source", "demo") as app:
            self.open_scanner(app)
            labels = app.names("label")
            self.assertTrue(any(l.endswith("dBm") and l.startswith("−") for l in labels), "RSSI as −NN dBm")
            self.assertIn("C0:98:E5:49:00:01", labels, "the identifier, alone for an address that stays")
            self.assertNotIn("LE static random", " ".join(labels), "no jargon on the rows")
            self.assertIn(f"Add {NAME} to favorites", app.names("button"))
            self.assertIn(f"Details for {NAME}", app.names("button"))
            self.assertTrue(any(n.startswith("Signal strength:") for n in app.names()), "the signal icon is named")

    def test_the_demo_goes_on_for_as_long_as_it_is_shown(self):
        """The demo's capture lasts a few seconds; a minute on, its devices are still listed,
        live (no "N s ago" under their signal), and the page never says the replay finished."""
        with App("--source", "demo") as app:
            started = time.time()
            self.open_scanner(app)
            while time.time() - started < 60:
                self.assertNotIn("Replay finished", app.names(), "the demo does not end")
                time.sleep(5)
            labels = app.names("label")
            self.assertIn(NAME, labels, "still listed a minute on")
            self.assertTrue(any(l.endswith("dBm") and l.startswith("−") for l in labels), "with a live signal")
            self.assertFalse(any(re.fullmatch(r"\d+ (s|min) ago", l) for l in labels), f"none of them stale: {labels}")

    def test_a_row_that_fades_keeps_its_height_and_the_rows_below_it_stay(self):
        """A device that falls silent says how old its figure is, in the place of its level
        icon: its row neither grows nor shrinks, so the rows under the pointer do not move."""
        from test_identity import write_capture
        fading, steady = "Fading Sensor", "Steady Sensor"
        with tempfile.TemporaryDirectory() as tmp:
            capture = os.path.join(tmp, "fading.btsnoop")
            write_capture(capture, lambda tick: ([(bytes.fromhex("C61122334401"), fading.encode(), -40)] if tick < 30 else [])
                          + [(bytes.fromhex("C61122334402"), steady.encode(), -60),
                             (bytes.fromhex("C61122334403"), b"Third Sensor", -70)], seconds=120)
            with App("--source", f"btsnoop:{capture}") as app:
                app.wait_for(lambda: "Add New Devices" in app.names("button"), what="the home page")
                app.press("Add New Devices")
                app.wait_for(lambda: fading in app.names("label") and steady in app.names("label"), timeout=20, what="the sensors")
                def boxes():
                    return [tuple(app.find(name, ROW).extents(Atspi.CoordType.WINDOW)) for name in (fading, steady)]
                before = boxes()
                app.wait_for(lambda: any(re.fullmatch(r"\d+ s ago", l) for l in app.names("label")), timeout=60,
                             what="the silent sensor's age")
                after = boxes()
                self.assertEqual(after, before, "the faded row and the one under it are where they were, as tall as they were")

    def test_add_with_a_nickname_then_remove_from_the_scanner(self):
        with App("--source", "demo") as app:
            self.open_scanner(app)
            add_from_scanner(app, NAME, "Kitchen")
            remove_from_scanner_after_checking_home(app, NAME, "Kitchen")

    def test_row_buttons_act_on_the_device_they_name_while_the_list_resorts(self):
        """Voice control and switch access read a button's name, then activate it a moment
        later, while jumping signals keep re-sorting the list. Every dialog that opens must
        name the device whose button was activated."""
        with tempfile.TemporaryDirectory() as tmp:
            capture = os.path.join(tmp, "busy.btsnoop")
            write_busy_capture(capture)
            with App("--source", f"btsnoop:{capture}") as app:
                self.check_activations_name_their_device(app)

    def test_fifty_clicks_where_a_row_is_drawn_open_that_row_in_a_room_of_200_changing_signals(self):
        """Rows never move on their own: what the user aims at stays where it was drawn, however
        the signals change, and Sort Again puts them in order when asked."""
        import random
        with tempfile.TemporaryDirectory() as tmp:
            capture = os.path.join(tmp, "room.btsnoop")
            # Longer than the test takes on a loaded machine: once a replay ends, each row shows
            # its age, which is not what this test is about.
            write_busy_capture(capture, devices=200, rate=150, seconds=1500, jitter=8)
            with App("--source", f"btsnoop:{capture}") as app:
                app.wait_for(lambda: "Add New Devices" in app.names("button"), what="the home page")
                app.press("Add New Devices")
                app.wait_for(lambda: sum(n.startswith("Busy Sensor ") for n in app.names("label")) >= 8,
                             what="the room's devices")
                # The whole room first: this is about signals that change, not devices still arriving.
                app.wait_for(lambda: "200 devices" in app.names(skip=("Devices nearby",)), timeout=30, what="all 200 devices")
                rng = random.Random(7)
                offered = sorted_again = 0
                window = None
                for click in range(50):
                    if window is None:
                        # What shows of the list: its scrolled window, not the list's whole height.
                        listed = app.find("Devices nearby", "list", skip=("Devices nearby",))
                        window = listed.get_parent().extents(Atspi.CoordType.SCREEN)
                    # The hand comes from the window's corner and rests over the list while the eyes
                    # read the rows: Sort Again appears only while the pointer is elsewhere, so what is
                    # read below is what the click lands on (a pill that came up while the pointer
                    # passed the corner is read with the rest).
                    subprocess.run(["xdotool", "mousemove", "0", "0", "sleep", "0.05", "mousemove",
                                    str(window.x + window.width // 2), str(window.y + 8), "sleep", "0.3"],
                                   check=True, timeout=10)
                    # The window without the list's rows, then the rows to the panel that names each
                    # device (a whole walk of 200 rows is some 2,600 nodes; this is some 400).
                    nodes = app.nodes(skip=("Devices nearby",))
                    listed = next(node for node, role, name in nodes if role == "list" and name == "Devices nearby")
                    pill = next((node for node, role, name in nodes if name == "Sort Again" and role in app.BUTTONS), None)
                    if pill is not None:
                        offered += 1
                        if click % 10 == 9:
                            # Now and then the user asks for the new order, and aims again.
                            app.press("Sort Again", skip=("Devices nearby",))
                            sorted_again += 1
                            continue
                        pill = pill.extents(Atspi.CoordType.SCREEN)
                    # GTK 4.8 keeps the widgets of rows moved out of view, not drawn, with the place
                    # they had, and marks no row as showing; it lists them after the rows drawn, which
                    # come first and from the top down. What is drawn ends where the places go back up.
                    rows = []
                    for name, e in self.row_places(listed):
                        if rows and e.y <= rows[-1][1].y or e.y + e.height > window.y + window.height:
                            break
                        rows.append((name, e))
                    under_pill = lambda e: pill is not None and pill.y <= e.y + e.height and e.y <= pill.y + pill.height \
                        and pill.x <= e.x + e.width and e.x <= pill.x + pill.width
                    rows = [(name, e) for name, e in rows if e.y >= window.y and not under_pill(e)]
                    self.assertTrue(rows, "rows on screen")
                    name, e = rng.choice(rows)
                    if pill is None:
                        # A pill that came up as the pointer passed the corner can be drawn only after
                        # the rows were read, on a loaded machine; then it is read with them next time.
                        late = self.sort_again(app)
                        if late is not None:
                            pill = late.extents(Atspi.CoordType.SCREEN)
                            if under_pill(e):
                                continue
                    # From where it rests over the list, without leaving it.
                    x, y = e.x + e.width // 2, e.y + e.height // 2
                    subprocess.run(["xdotool", "mousemove", str(x), str(y), "sleep", "0.1", "click", "1"],
                                   check=True, timeout=10)
                    try:
                        app.wait_for(lambda: "Signal" in app.names("label", skip=("Devices nearby",)), timeout=10,
                                     what=f"a device's page after click {click + 1} on {name}")
                    except AssertionError as error:
                        raise AssertionError(f"{error}\n{self.what_is_at(app, listed, x, y, name)}") from None
                    shown = [n for n in app.names("label", skip=("Devices nearby",)) if n.startswith("Busy Sensor ")]
                    self.assertEqual(set(shown), {name}, f"click {click + 1}, where {name} was drawn, opened its page")
                    subprocess.run(["xdotool", "key", "--clearmodifiers", "alt+Left"], check=True, timeout=10)
                    app.wait_for(lambda: "Signal" not in app.names("label", skip=("Devices nearby",)), timeout=10,
                                 what="the Scanner again")
                self.assertGreater(offered, 0, "the signals changed the order enough to offer Sort Again")
                self.assertGreater(sorted_again, 0, "and rows were clicked after a Sort Again too")

    @staticmethod
    def sort_again(app):
        """The Sort Again pill's node, when it is offered (the list's rows are not walked)."""
        return next((node for node, role, name in app.nodes(skip=("Devices nearby",))
                     if name == "Sort Again" and role in app.BUTTONS), None)

    @staticmethod
    def row_places(listed):
        """(name, screen extents) of the busy list's rows in the list's order, without the rows
        kept beyond the view (no height) or gone."""
        panels = [node for node in walk_tree(a11y_connection(), listed.bus, listed.path, max_depth=2)
                  if node.role == ROW and re.fullmatch(r"Busy Sensor \d{3}", node.name)]
        # Each row's name label: its panel's first child's first child, asked of all rows at once.
        labels = list(zip(child_at(child_at(panels, 0), 0), [panel.name for panel in panels]))
        return [(name, e) for (_, name), e in zip(labels, extents_of([node for node, _ in labels]))
                if e is not None and e.height != 0]

    @staticmethod
    def what_is_at(app, listed, x, y, name):
        """For a click that opened nothing: which row is drawn at the point clicked now, where the
        row aimed at is, and whether Sort Again covers the point."""
        found = []
        for row, e in ScannerTests.row_places(listed):
            if e.x <= x < e.x + e.width and e.y <= y < e.y + e.height:
                found.append(f"drawn at the point now: {row} ({e.x}, {e.y}, {e.width}×{e.height})")
            if row == name:
                found.append(f"{name} now at ({e.x}, {e.y}, {e.width}×{e.height})")
        pill = ScannerTests.sort_again(app)
        if pill is not None:
            p = pill.extents(Atspi.CoordType.SCREEN)
            found.append(f"Sort Again at ({p.x}, {p.y}, {p.width}×{p.height})")
        return f"clicked at ({x}, {y}); " + ("; ".join(found) or "no row is drawn there now")

    def check_activations_name_their_device(self, app):
        app.wait_for(lambda: "Add New Devices" in app.names("button"), what="the home page")
        app.press("Add New Devices")
        app.wait_for(lambda: any(n.startswith("Add Busy Sensor") for n in app.names("button")), what="busy devices")
        # The pointer rests outside the list, so Sort Again is offered there as the signals change.
        app.click(1279, 799)
        app.key("ctrl+f")
        root = app.accessible()
        windows = root.get_child_count()
        opened, attempts, hearts, resorts = 0, 0, [], 0
        while opened < 20 and attempts < 40:
            attempts += 1
            if not hearts:
                # Names read now are acted on over the next few seconds, while rows move.
                hearts = [(node, name) for node, role, name in app.nodes()
                          if role in app.BUTTONS and name.startswith("Add ") and name.endswith(" to favorites")][:4]
                self.assertTrue(hearts, "rows offer Add")
            node, name = hearts.pop(0)
            device = name[len("Add "):-len(" to favorites")]
            time.sleep(0.4)  # as a command is spoken
            # Meanwhile the list is sorted again (a second user, or the same at the pointer).
            pill = self.sort_again(app)
            if pill is not None:
                pill.do_action(0)
                resorts += 1
            try:
                node.do_action(0)
            except GLib.Error:
                continue  # the button is gone with its device: nothing happened, which is also safe
            # A dialog is a window of its own: counting windows is cheaper than walking the tree.
            deadline = time.monotonic() + 3
            while time.monotonic() < deadline and root.get_child_count() <= windows:
                time.sleep(0.1)
            self.assertGreater(root.get_child_count(), windows, f"activating {name!r} opened a dialog")
            dialog = root.get_child_at_index(root.get_child_count() - 1)
            bodies = [n for n in names_under(dialog) if n.startswith("Add “")]
            self.assertEqual(bodies, [f"Add “{iso(device)}” to your favorites. You can give it a nickname."],
                             f"activation {opened + 1} asked for {device}")
            opened += 1
            app.key("Escape")
            deadline = time.monotonic() + 5
            while time.monotonic() < deadline and root.get_child_count() > windows:
                time.sleep(0.1)
            # Focus came back to the button that opened the dialog; take it off the list again.
            app.key("ctrl+f")
        # Every dialog that opened named the right device (asserted above), and a button read
        # a moment ago still works: only a device whose row left the screen may lose its buttons.
        self.assertEqual(opened, 20, f"{opened} of {attempts} activations opened the named device's dialog")
        self.assertGreater(resorts, 0, "the rows moved between reading a name and acting on it")

    def test_the_detail_page_shows_signal_and_keywords(self):
        with App("--source", "demo") as app:
            self.open_scanner(app)
            app.press(f"Details for {NAME}")
            app.wait_for(lambda: "Keywords" in app.names("label"), what="the detail page")
            labels = app.names("label")
            self.assertIn("Signal", labels)
            self.assertTrue(any(l.startswith("−") and l.endswith("dBm") for l in labels), "the signal figure")
            self.assertIn("Bluetooth LE", labels)
            # Each fact once: the maker and the services are properties, not Keywords too.
            for fact in ("Nordic Semiconductor ASA", "Nordic UART"):
                said = [l for l in labels if fact in l.split(", ")]
                self.assertEqual(len(said), 1, f"{fact} said once: {labels}")
            self.assertTrue(any(l.endswith(" · Fixed address") for l in labels), "the address says what its kind means")
            self.assertFalse([l for l in labels if "LE static random" in l], "in plain words; the term is in the tooltip")
            self.assertFalse(any("6E400001" in l for l in labels), "a well-known vendor service is named, not a bare UUID")
            self.assertIn(NAME, labels, "the name is the title")
            self.assertNotIn("Advertised Name", labels, "the name as sent is the title; it is said again only under a nickname")
            self.assertEqual([l for l in labels if l.startswith("Last heard")], ["Last heard just now"], "when, said once")

    def test_the_demo_lists_its_chat_device_with_the_keywords_of_a_real_advert(self):
        with App("--source", "demo") as app:
            self.open_scanner(app)
            app.wait_for(lambda: "Details for FavBlue Demo Chat" in app.names("button"), what="the demo chat device")
            self.assertIn("C0:FA:B1:0E:DE:01", app.names("label"))
            app.press("Details for FavBlue Demo Chat")
            app.wait_for(lambda: "Keywords" in app.names("label"), what="the demo device's page")
            labels = app.names("label")
            for keyword in ("Bluetooth LE", "Connectable", "Visible to everyone", "No classic Bluetooth"):
                self.assertIn(keyword, labels)
            self.assertEqual([l for l in labels if "FavBlue Chat" in l.split(", ")], ["FavBlue Chat"],
                             "its service, said once, under Advertised Services")

    def test_german_scanner_and_detail(self):
        with App("--source", "demo", lang="de") as app:
            app.wait_for(lambda: "Neue Geräte hinzufügen" in app.names("button"), what="the German home page")
            app.press("Neue Geräte hinzufügen")
            app.wait_for(lambda: f"Details zu {NAME}" in app.names("button"), timeout=20, what="German rows")
            self.assertIn(f"{NAME} zu den Favoriten hinzufügen", app.names("button"))
            # A name a device sends is data: German shows it as the device says it.
            app.wait_for(lambda: "FavBlue Demo Chat" in app.names("label"), what="the chat device's own name")
            self.assertNotIn("FavBlue-Demo-Chat", app.names("label"))
            app.press(f"Details zu {NAME}")
            app.wait_for(lambda: "Schlagwörter" in app.names("label"), what="the German detail page")
            labels = app.names("label")
            self.assertIn("Signal", labels)
            self.assertNotIn("Audio Sink", labels, "service names are translated too")
            self.assertTrue(any(l.startswith("Audiowiedergabe") for l in labels), f"the audio sink in German: {labels}")

    def test_ctrl_f_searches_and_escape_closes_the_search_not_the_page(self):
        with App("--source", "demo") as app:
            self.open_scanner(app)
            app.key("ctrl+f")
            app.type_text("kitchen")
            app.wait_for(lambda: "Desk Lamp" not in app.names("label"), what="the search to filter")
            self.assertIn(NAME, app.names("label"))
            app.key("Escape")
            app.wait_for(lambda: "Desk Lamp" in app.names("label"), what="every device again")
            self.assertIn("Back", app.names("button"), "Escape closed the search, not the Scanner")

    def test_view_options_filter_and_persist_across_restarts(self):
        home = scratch("favblue-ui-")
        with App("--source", "demo", home=home) as app:
            self.open_scanner(app)
            app.click_on_until("View Options", None, lambda: "Favorites Only" in app.names(), what="the view menu")
            app.press("Favorites Only", role=None)
            # The demo's five favorites, and nothing else.
            app.wait_for(lambda: "5 devices" in app.names() and "Chest freezer" in app.names("label"), what="the favorites alone")
            self.assertNotIn(NAME, app.names("label"))
        with App("--source", "demo", home=home) as app:
            app.wait_for(lambda: "Add New Devices" in app.names("button"), what="the home page")
            app.press("Add New Devices")
            app.wait_for(lambda: "5 devices" in app.names(), timeout=20, what="the filter kept after a restart")
            self.assertNotIn(NAME, app.names("label"))

    def test_preferences_speak_plainly(self):
        """No magic numbers and no source names: switches say "show every device" and "keep
        every message", and the figures wait for them."""
        with App("--source", "demo", storage="sqlite", home=scratch("favblue-ui-")) as app:
            app.wait_for(lambda: "Add New Devices" in app.names("button"), what="the home page")
            app.key("ctrl+comma")
            app.wait_for(lambda: "Preferences" in app.frames(), what="the Preferences window")
            text = " ".join(app.names())
            for magic in ("−127", "-127", "0 keeps", "bluez or auto", "source"):
                self.assertNotIn(magic, text, f"Preferences say {magic!r}")
            self.assertIn("Hide Weak Devices", app.names())
            self.assertFalse(app.is_sensitive("Minimum Signal in dBm", role=None), "the figure waits for Hide Weak Devices")
            switch = next(node for node, role, name in app.nodes()
                          if name == "Hide Weak Devices" and role in ("toggle button", "switch", "check box"))
            switch.do_action(0)
            app.wait_for(lambda: app.is_sensitive("Minimum Signal in dBm", role=None), what="the minimum to take a figure")
            # The chat's history is kept under Connections, a page of its own.
            app.press("Connections", role="page tab")
            app.wait_for(lambda: app.page_on_show() == "Connections", what="the Connections page")
            self.assertFalse(app.is_sensitive("Delete Messages After in days", role=None), "every message is kept at first")
            text = " ".join(app.names())
            for magic in ("0 keeps", "source"):
                self.assertNotIn(magic, text, f"Preferences say {magic!r}")

    def test_preferences_are_named_and_kept(self):
        home = scratch("favblue-ui-")
        with App("--source", "demo", home=home) as app:
            app.wait_for(lambda: "Add New Devices" in app.names("button"), what="the home page")
            app.key("ctrl+comma")
            app.wait_for(lambda: "Preferences" in app.frames(), what="the Preferences window")
            names = app.names()
            for control in ("Auto Scan", "Scan Interval in seconds", "Scan Length in seconds",
                            "Minimum Signal in dBm", "Fade After in seconds", "Remove After in seconds"):
                self.assertIn(control, names)
            self.assertFalse(app.is_sensitive("Scan Interval in seconds", role=None), "the interval waits for Auto Scan")
            app.key("space")  # the Auto Scan row has the focus first
            app.wait_for(lambda: app.is_sensitive("Scan Interval in seconds", role=None), what="Auto Scan on")
            app.key("Escape")
        keyfile = os.path.join(home, "xdg_config_home", "glib-2.0", "settings", "keyfile")
        with open(keyfile, encoding="utf-8") as f:
            self.assertIn("scanner-periodic=true", f.read(), "Auto Scan is kept in GSettings")

    def test_a_missing_source_explains_and_offers_the_demo(self):
        with App("--source", "h4-unix:/nonexistent/favblue.sock") as app:
            app.wait_for(lambda: "Add New Devices" in app.names("button"), what="the home page")
            app.press("Add New Devices")
            app.wait_for(lambda: "No Bluetooth Adapter Found" in app.names(), what="the explanation")
            # Opened by its accessible action alone, as a screen reader or voice control does, and says so.
            expanded = lambda: app.find("Details", "button").get_state_set().contains(Atspi.StateType.EXPANDED)
            self.assertFalse(expanded(), "closed at first, and says so")
            app.press("Details")
            app.wait_for(lambda: any("/nonexistent/favblue.sock" in n for n in app.names("label")), what="what failed, under Details")
            app.wait_for(expanded, what="Details to say it is open")
            app.press("Try the Demo")
            app.wait_for(lambda: NAME in app.names("label"), timeout=20, what="demo devices")
            # Preferences → Sources says what runs now: the demo, not the source that was missing.
            app.key("ctrl+comma")
            app.wait_for(lambda: "Preferences" in app.frames(), what="Preferences")
            app.press("Sources", role="page tab")
            app.wait_for(lambda: any(n.startswith("The demo") for n in app.names("label")), what="This Computer's row saying the demo")
            self.assertFalse([n for n in app.names("label") if "controller FavBlue speaks to itself" in n],
                             "not the source that was missing")


def tab_cycle(test, app, limit=40):
    """Presses Tab until the focus comes back to where it started; returns the (role, name)
    of each stop, in order. Fails on a stop that repeats before the cycle closes (a trap)."""
    # The first stop as soon as the focus is on it: under load (two test shards and a build on
    # two cores) its focus event has come more than 3 s late, so the first move gets longer.
    first = app.tab(before=app.focused(), timeout=15)
    test.assertIsNotNone(first, "Tab puts the focus somewhere")
    stops = [first]
    for _ in range(limit):
        now = app.tab(before=stops[-1])
        if now == first:
            return stops
        test.assertNotIn(now, stops, f"Tab came back to {now} before closing the cycle: {stops}")
        stops.append(now)
    test.fail(f"Tab never came back to {first}: {stops}")


@retry_gtk_atspi_crash
class DetailPageTests(unittest.TestCase):
    def open_details(self, app, name):
        app.wait_for(lambda: "Add New Devices" in app.names("button"), what="the home page")
        app.press("Add New Devices")
        app.wait_for(lambda: f"Details for {name}" in app.names("button"), timeout=30, what=name)
        app.press(f"Details for {name}")
        app.wait_for(lambda: "Signal" in app.names("label"), what="the detail page")

    def check_tab_visits_every_control_once(self, app, name):
        stops = tab_cycle(self, app)
        names = [n for _, n in stops]
        for control in ("Back", f"Hide {name}", f"Add {name} to favorites", "Main Menu", "Copy Address",
                        "Export Signal History…"):
            self.assertIn(control, names, f"Tab reaches {control}: {stops}")
        self.assertTrue(all(n for n in names), f"every stop is named: {stops}")
        # Reading order: the header, then the page from top to bottom.
        self.assertLess(names.index("Main Menu"), names.index("Copy Address"))
        self.assertLess(names.index("Copy Address"), names.index("Export Signal History…"))

    def test_tab_visits_every_control_of_the_detail_page_once_in_a_quiet_room(self):
        with App("--source", "demo") as app:
            self.open_details(app, NAME)
            # The moment rule: a reading seconds old was heard "just now", never a date.
            app.wait_for(lambda: "Last heard just now" in app.names("label"), what="heard just now")
            self.check_tab_visits_every_control_once(app, NAME)

    def test_in_a_busy_room_the_detail_page_stays_live_and_tab_visits_every_control_once(self):
        """In a busy replay the page's "Last heard" stays "just now" and the plot's
        last reading moves, for as long as the page is shown; its updates never hold Tab."""
        with tempfile.TemporaryDirectory() as tmp:
            capture = os.path.join(tmp, "busy.btsnoop")
            write_busy_capture(capture, seconds=600)  # still replaying however long the machine takes to get here
            with App("--source", f"btsnoop:{capture}") as app:
                self.open_details(app, "Busy Sensor 03")
                ages, plots = [], set()
                for _ in range(8):
                    time.sleep(1)
                    age = next((n for n in app.names("label") if n.startswith("Last heard ")), None)
                    ages.append(age)
                    plots.update(n for n in app.names() if re.match(r"Last \d+ (s|min): ", n))
                self.assertEqual(set(ages), {"Last heard just now"}, f"the device is still heard while its page shows: {ages}")
                self.assertGreater(len(plots), 1, f"the plot's readings move on: {plots}")
                # When it was heard is said once, under the signal: no Last Heard row to say it again.
                self.assertNotIn("Last Heard", app.names("label"))
                self.check_tab_visits_every_control_once(app, "Busy Sensor 03")


@retry_gtk_atspi_crash
class NoAdapterTests(unittest.TestCase):
    def test_no_adapter_is_one_plain_sentence_with_the_detail_behind_details(self):
        """No system bus and no Bluetooth sockets: the page says so as GNOME Settings does,
        keeps Try the Demo, and shows the routes tried only when Details is opened."""
        with App("--source", "auto", env={"DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent/system_bus_socket"}) as app:
            app.wait_for(lambda: "Add New Devices" in app.names("button"), what="the home page")
            app.press("Add New Devices")
            app.wait_for(lambda: "No Bluetooth Adapter Found" in app.names(), what="the plain sentence")
            labels = app.names("label")
            self.assertIn("Plug in or switch on a Bluetooth adapter and try again, or try the demo.", labels)
            self.assertFalse(any("system bus" in n or "socket" in n for n in labels), f"no technical words up front: {labels}")
            self.assertNotIn("Failed", app.names(), "the header does not just say Failed")
            self.assertIn("Try the Demo", app.names("button"))
            app.press("Details")
            app.wait_for(lambda: any("system bus" in n for n in app.names("label")), what="the routes tried, under Details")


if __name__ == "__main__":
    unittest.main()
