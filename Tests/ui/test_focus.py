# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""Where keyboard focus goes after a dialog, a context menu or a page closes: back to
the row or button that opened it, read over AT-SPI (the FOCUSED state)."""

import shutil
import unittest

import subprocess
import time

from harness import App, Atspi, retry_gtk_atspi_crash, iso, screenshot_pixels, scratch
from test_favorites import DEVICES, seed

ROW = "panel"


@retry_gtk_atspi_crash
class FocusTests(unittest.TestCase):
    def setUp(self):
        self.home = scratch("favblue-focus-")
        self.addCleanup(shutil.rmtree, self.home, True)
        seed(self.home, DEVICES[:2])

    def tab_to(self, app, name, limit=12):
        for _ in range(limit):
            app.key("Tab")
            if app.focused() == ("push button", name):
                return
        self.fail(f"Tab never reached {name!r}")

    def test_closing_a_dialog_gives_focus_back_to_the_button_that_opened_it(self):
        with App(storage="sqlite", home=self.home) as app:
            app.wait_for(lambda: "Kitchen" in app.names("label"), what="the favorites")
            self.tab_to(app, "Remove Kitchen from favorites")
            app.key("space")
            app.wait_for(lambda: f"Remove “{iso('Kitchen')}” from favorites?" in app.names(), what="the confirmation")
            app.key("Escape")
            app.wait_for(lambda: f"Remove “{iso('Kitchen')}” from favorites?" not in app.names(), what="the dialog to close")
            self.assertEqual(app.focused(), ("push button", "Remove Kitchen from favorites"))
            # Activated through AT-SPI, as voice control does, the button never had focus; it gets it now.
            app.press("Remove Buds from favorites")
            app.wait_for(lambda: f"Remove “{iso('Buds')}” from favorites?" in app.names(), what="the second confirmation")
            app.key("Escape")
            app.wait_for(lambda: f"Remove “{iso('Buds')}” from favorites?" not in app.names(), what="the dialog to close")
            self.assertEqual(app.focused(), ("push button", "Remove Buds from favorites"))

    def test_after_remove_the_focus_is_on_the_next_row_and_ctrl_z_brings_the_favorite_back(self):
        home = scratch("favblue-focus-")
        self.addCleanup(shutil.rmtree, home, True)
        seed(home, DEVICES)
        with App(storage="sqlite", home=home) as app:
            app.wait_for(lambda: "Kitchen" in app.names("label"), what="the favorites")
            self.tab_to(app, "Remove Buds from favorites")
            app.key("space")
            app.wait_for(lambda: f"Remove “{iso('Buds')}” from favorites?" in app.names(), what="the confirmation")
            app.press("Remove")
            app.wait_for(lambda: "Buds" not in app.names("label"), what="Buds removed")
            # The row that took its place, not its heart: Enter again must not remove Kitchen.
            self.assertEqual(app.focused(), (ROW, "Kitchen"))
            app.key("ctrl+z")
            app.wait_for(lambda: "Buds" in app.names("label"), what="Ctrl+Z to bring Buds back")
            app.wait_for(lambda: app.focused() == (ROW, "Buds"), what="the keyboard on the row that came back")
            # The last one removed: the focus goes to the empty page's Add New Devices.
            for name in ("Buds", "Kitchen", "00:1A:7D:DA:71:13"):
                app.key("Delete")
                app.wait_for(lambda: "Remove" in app.names("button"), what=f"the confirmation for {name}")
                app.press("Remove")
                app.settle()
            app.wait_for(lambda: "No Favorites Yet" in app.names(), what="the empty page")
            self.assertEqual(app.focused(), ("push button", "Add New Devices"))

    def test_on_favorites_tab_runs_through_the_header_from_its_start_then_the_page(self):
        """The first Tab goes to + at the start of the bar, the next to Main Menu at its end,
        then into the page: nothing has the focus before the first Tab."""
        with App(storage="sqlite", home=self.home) as app:
            app.wait_for(lambda: "Kitchen" in app.names("label"), what="the favorites")
            self.assertIsNone(app.focused(), "nothing focused, unseen, before the first Tab")
            app.key("Tab")
            self.assertEqual(app.focused(), ("push button", "Add New Devices"))
            app.key("Tab")
            self.assertEqual(app.focused(), ("push button", "Main Menu"))
            app.key("Tab")
            self.assertNotIn(app.focused(), [("push button", "Add New Devices"), ("push button", "Main Menu")],
                             "then the page")

    def test_the_row_menu_is_a_menu_and_escape_returns_to_the_row_not_its_heart(self):
        with App(storage="sqlite", home=self.home) as app:
            app.wait_for(lambda: "Kitchen" in app.names("label"), what="the favorites")
            self.tab_to(app, "Remove Kitchen from favorites")
            app.key("shift+F10")
            app.wait_for(lambda: "Rename…" in app.names("menu item"), what="the context menu")
            self.assertEqual([n for n in app.names("menu item") if n], ["Rename…", "Details", "Remove…"])
            app.key("Escape")
            self.assertEqual(app.focused(), (ROW, "Kitchen"))
            # The Menu key opens it on the focused row too; Rename, then Escape, lands on the row again.
            app.key("Menu")
            app.wait_for(lambda: "Rename…" in app.names("menu item"), what="the context menu again")
            app.key("Return")
            app.wait_for(lambda: "Rename Favorite" in app.names(), what="the rename dialog")
            self.assertTrue(any(f"“{iso('Kitchen')}”" in n for n in app.names()), "the dialog names the row's device")
            app.key("Escape")
            app.wait_for(lambda: "Rename Favorite" not in app.names(), what="the dialog to close")
            self.assertEqual(app.focused(), (ROW, "Kitchen"))

    def test_going_back_from_details_returns_focus_to_the_details_button_however_it_was_pressed(self):
        with App(storage="sqlite", home=self.home) as app:
            app.wait_for(lambda: "Buds" in app.names("label"), what="the favorites")
            self.tab_to(app, "Details for Buds")
            app.key("Return")
            app.wait_for(lambda: "Signal" in app.names("label"), what="the detail page")
            app.key("alt+Left")
            app.wait_for(lambda: "Signal" not in app.names("label"), what="the favorites again")
            self.assertEqual(app.focused(), ("push button", "Details for Buds"))
            # Activated over AT-SPI, as voice control does, the button never had the focus.
            app.press("Details for Kitchen")
            app.wait_for(lambda: "Signal" in app.names("label"), what="the detail page")
            app.key("alt+Left")
            app.wait_for(lambda: "Signal" not in app.names("label"), what="the favorites again")
            self.assertEqual(app.focused(), ("push button", "Details for Kitchen"))


def row_pixels(rect):
    """The screen's RGB pixels inside rect (x, y, width, height), row by row."""
    width, _, data = screenshot_pixels()
    x, y, w, h = rect
    return [data[((y + j) * width + x) * 3:((y + j) * width + x + w) * 3] for j in range(h)]


@retry_gtk_atspi_crash
class RowFocusRingTests(unittest.TestCase):
    """A row that takes the keyboard focus looks focused: screenshots of the row before and
    after, in the light and the dark style."""

    def ring(self, env):
        home = scratch("favblue-ring-")
        self.addCleanup(shutil.rmtree, home, True)
        seed(home, DEVICES[:2])
        with App(storage="sqlite", home=home, env=env) as app:
            app.wait_for(lambda: "Kitchen" in app.names("label"), what="the favorites")
            subprocess.run(["xdotool", "mousemove", "0", "0"], check=True, timeout=10)
            app.settle()
            extents = app.find("Kitchen", ROW).extents(Atspi.CoordType.SCREEN)
            # With a margin: GNOME's focus ring may sit just outside the row.
            rect = (extents.x - 4, extents.y - 4, extents.width + 8, extents.height + 8)
            before = row_pixels(rect)
            # Into the list, then Down, as a keyboard user moves between rows.
            for _ in range(12):
                app.key("Tab")
                if app.focused()[0] == ROW:
                    break
            for _ in range(3):
                if app.focused() == (ROW, "Kitchen"):
                    break
                app.key("Down")
            self.assertEqual(app.focused(), (ROW, "Kitchen"), "the keyboard reaches the row")
            after = row_pixels(rect)
        changed = strong = 0
        for line_before, line_after in zip(before, after):
            for i in range(0, len(line_before), 3):
                diff = max(abs(line_before[i + k] - line_after[i + k]) for k in range(3))
                changed += diff > 8
                strong += diff > 60
        area = rect[2] * rect[3]
        self.assertGreater(changed, area * 0.3, "the focused row is tinted")
        self.assertGreater(strong, 1.5 * (rect[2] + rect[3]), "and ringed in the accent colour")

    def test_a_focused_row_shows_a_focus_ring_in_the_light_style(self):
        self.ring(None)

    def test_a_focused_row_shows_a_focus_ring_in_the_dark_style(self):
        self.ring({"ADW_DEBUG_COLOR_SCHEME": "prefer-dark"})


# The favorites the demo starts with, by the names their rows give.
DEMO_FAVORITES = {"Greenhouse", "Chest freezer", "Ear Pods 🎧", "Balcony", "Heart Strap"}


def tab_into_the_list(test, app, name=None, unless=()):
    """Tabs from the Scanner's header into its list, then arrows down to the row of `name`
    (any row not in `unless` when None); returns that row's device name."""
    for _ in range(12):
        app.key("Tab")
        if (app.focused() or ("", ""))[0] == ROW:
            break
    else:
        test.fail("Tab never reaches the list")
    for _ in range(40):
        role, device = app.focused()
        if (name is None and device not in unless) or device == name:
            return device
        app.key("Down")
    test.fail(f"the arrows never reach {name}")


@retry_gtk_atspi_crash
class ScannerFocusTests(unittest.TestCase):
    def open_scanner(self, app):
        app.wait_for(lambda: "Add New Devices" in app.names("button"), what="the home page")
        app.press("Add New Devices")
        app.wait_for(lambda: "Kitchen Speaker" in app.names("label"), what="devices from the demo")

    def test_the_list_is_one_tab_stop_with_the_arrows_inside_it(self):
        """25 devices are not 50 stops: Tab enters the list on a row, the next Tab leaves it,
        and Shift+Tab comes back to the row it left; no heart or Details is a stop."""
        with App("--source", "demo") as app:
            self.open_scanner(app)
            stops = []
            for _ in range(12):
                app.key("Tab")
                stops.append(app.focused())
                if stops[-1][0] == ROW:
                    break
            self.assertEqual(stops[-1][0], ROW, f"Tab enters the list on a row: {stops}")
            app.key("Down")
            row = app.focused()
            self.assertEqual(row[0], ROW, "Down moves to the next row")
            app.key("Tab")
            after = app.focused()
            self.assertNotEqual(after[0], ROW, "the next Tab leaves the list")
            self.assertFalse(after[1].startswith(("Add ", "Remove ", "Details for ")), f"no row button is a stop: {after}")
            app.key("shift+Tab")
            self.assertEqual(app.focused(), row, "Shift+Tab comes back to the row it left")

    def test_sort_again_from_the_keyboard_brings_the_focus_back_to_the_device_it_left(self):
        """Tab leaves the list for Sort Again once the order changed; Enter sorts, and the focus
        goes back into the list to the device it left, wherever that device went, not to the row
        now in its place."""
        with App("--source", "demo") as app:
            self.open_scanner(app)
            subprocess.run(["xdotool", "mousemove", "0", "0"], check=True, timeout=10)  # the pill never comes under the pointer
            app.wait_for(lambda: "Sort Again" in app.names("button", skip=("Devices nearby",)), timeout=40,
                         what="the demo's signals to change the order")
            tab_into_the_list(self, app)
            for _ in range(2):
                app.key("Down")
            row = app.focused()
            self.assertEqual(row[0], ROW)
            before = [n for _, r, n in app.nodes() if r == ROW]
            app.key("Tab")
            self.assertEqual(app.focused(), ("push button", "Sort Again"), "the next stop after the list is Sort Again")
            app.key("Return")
            app.wait_for(lambda: "Sort Again" not in app.names("button", skip=("Devices nearby",)), what="the pill to go")
            self.assertNotEqual([n for _, r, n in app.nodes() if r == ROW], before, "the rows were sorted again")
            app.wait_for(lambda: app.focused_now() == row, timeout=3, what=f"the focus back on {row[1]}")

    def test_the_list_holds_still_under_the_keyboard_while_signals_change(self):
        """Arrowing through the demo's list while its signals keep changing: the focused row
        stays where it is, and the selection with it, until the focus leaves the list."""
        with App("--source", "demo") as app:
            self.open_scanner(app)
            tab_into_the_list(self, app)
            for _ in range(3):
                app.key("Down")
            focused = app.focused()
            y = app.find(focused[1], ROW).extents(Atspi.CoordType.WINDOW).y
            order = [n for _, r, n in app.nodes() if r == ROW]
            time.sleep(4)  # the list refreshes four times a second; the demo's signals move meanwhile
            self.assertEqual(app.focused(), focused, "the focus stays on its row")
            self.assertEqual(app.find(focused[1], ROW).extents(Atspi.CoordType.WINDOW).y, y, "and the row stays in its place")
            self.assertEqual([n for _, r, n in app.nodes() if r == ROW], order, "no row moved under the keyboard")
            selected = [n for node, r, n in app.nodes() if r == "list item" and node.get_state_set().contains(Atspi.StateType.SELECTED)]
            self.assertIn(selected, ([], [focused[1]]), "the selection, if any, is on the focused row")

    def test_enter_on_a_scanner_row_opens_its_device_and_back_returns_to_the_row(self):
        with App("--source", "demo") as app:
            self.open_scanner(app)
            device = tab_into_the_list(self, app)
            app.key("Down")
            role, device = app.focused() or (None, "")
            self.assertEqual(role, ROW, "the arrows move between rows")
            app.key("Return")
            app.wait_for(lambda: "Signal" in app.names("label"), what="the device's page, not a dialog")
            self.assertNotIn("Add to Favorites", app.names(), "Enter opens the device, the heart adds it")
            self.assertIn(device, app.names("label"), "the page of the row Enter was pressed on")
            app.key("alt+Left")
            app.wait_for(lambda: "Signal" not in app.names("label"), what="the Scanner again")
            self.assertEqual(app.focused(), (ROW, device))

    def test_add_from_a_row_menu_then_cancel_returns_to_that_row(self):
        with App("--source", "demo") as app:
            self.open_scanner(app)
            device = tab_into_the_list(self, app, unless=DEMO_FAVORITES)
            app.key("Menu")
            app.wait_for(lambda: "Add to Favorites…" in app.names("menu item"), what="the row menu")
            self.assertIn("Details", app.names("menu item"))
            app.key("Return")
            app.wait_for(lambda: f"Add “{iso(device)}” to your favorites. You can give it a nickname." in app.names(),
                         what=f"the add dialog for {device}")
            app.key("Escape")
            app.wait_for(lambda: "Add to Favorites" not in app.names(), what="the dialog to close")
            self.assertEqual(app.focused(), (ROW, device))


if __name__ == "__main__":
    unittest.main()
