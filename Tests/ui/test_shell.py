# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""The app shell as a user meets it: splash, Favorites, navigation, keys,
single instance, German, and accessible names, on the real binary."""

import os
import shutil
import struct
import subprocess
import time
import unittest

from harness import scratch, App, retry_gtk_atspi_crash, binary, pixel, screenshot_pixels

BRAND_BLUE = (77, 116, 217)


def close_to(a, b, tolerance=3):
    return all(abs(x - y) <= tolerance for x, y in zip(a, b))


@retry_gtk_atspi_crash
def write_late_capture(path, name, after_seconds):
    """A btsnoop capture whose one device is first heard `after_seconds` in: until then the
    Scanner looks for devices."""
    epoch = 0x00DCDDB30F2F8000 + 1_700_000_000_000_000  # microseconds since year 0, as btsnoop counts
    records = [(0, bytes([0x04, 0x0E, 0x04, 0x01, 0x0C, 0x20, 0x00]))]  # LE Set Scan Enable's Command Complete
    data = bytes([0x02, 0x01, 0x06, len(name) + 1, 0x09]) + name.encode()
    for n in range(10):
        report = bytes([0x02, 0x01, 0x00, 0x01]) + bytes([1, 0, 0x10, 0x20, 0x30, 0xC0]) + bytes([len(data)]) + data + bytes([0xC8])
        records.append(((after_seconds + n) * 1_000_000, bytes([0x04, 0x3E, len(report)]) + report))
    with open(path, "wb") as f:
        f.write(b"btsnoop\0" + struct.pack(">II", 1, 1002))
        for stamp, packet in records:
            f.write(struct.pack(">IIIIq", len(packet), len(packet), 3, 0, epoch + stamp) + packet)


class SplashTests(unittest.TestCase):
    def test_first_frame_is_the_splash_in_the_theme_colour(self):
        with App(splash_ms=4000) as app:
            app.window_id()
            # Mapped is not yet drawn: on a loaded machine the first frame comes later. What
            # counts is that the first one drawn is the splash.
            deadline = time.monotonic() + 3
            shot = screenshot_pixels()
            while pixel(shot, 40, 40) == (0, 0, 0) and time.monotonic() < deadline:
                time.sleep(0.05)
                shot = screenshot_pixels()
            # No window manager runs here, so the window sits at the top-left corner.
            self.assertTrue(close_to(pixel(shot, 40, 40), BRAND_BLUE), f"top-left is {pixel(shot, 40, 40)}")
            self.assertTrue(close_to(pixel(shot, 600, 560), BRAND_BLUE), f"bottom is {pixel(shot, 600, 560)}")
            # "FavBlue" in large white type across the middle.
            middle = [pixel(shot, x, y) for x in range(200, 520, 2) for y in range(280, 360, 2)]
            self.assertTrue(any(p == (255, 255, 255) for p in middle), "white title text in the centre")

    def test_the_window_shows_the_app_icon_to_the_window_list(self):
        """Set once the splash is painted (drawing it held the first frame), on the window already
        on screen: a window list or Alt+Tab shows FavBlue's icon, not a generic one."""
        with App(splash_ms=4000) as app:
            window = app.window_id()
            deadline = time.monotonic() + 10
            icon = ""
            while time.monotonic() < deadline and "Icon (" not in icon:
                time.sleep(0.2)
                icon = subprocess.run(["xprop", "-id", window, "_NET_WM_ICON"], capture_output=True, text=True).stdout
            self.assertIn("Icon (", icon, "the window carries the app icon")

    def test_favorites_follows_after_the_delay(self):
        with App(splash_ms=1500) as app:
            app.accessible()
            shown = time.monotonic()
            self.assertIn("FavBlue is starting", app.names(), "the splash is what is shown")
            self.assertNotIn("No Favorites Yet", app.names(), "Favorites is hidden under the splash")
            app.wait_for(lambda: "No Favorites Yet" in app.names(), timeout=10, what="Favorites")
            self.assertGreaterEqual(time.monotonic() - app.started, 1.4)
            self.assertGreater(time.monotonic() - shown, 0.3)

    def test_zero_turns_the_splash_off(self):
        with App(splash_ms=0) as app:
            app.accessible()
            self.assertNotIn("FavBlue is starting", app.names(), "no splash at all")
            app.wait_for(lambda: "No Favorites Yet" in app.names(), timeout=2, what="Favorites at once")

    def test_a_click_skips_the_splash(self):
        with App(splash_ms=60000) as app:
            app.window_id()
            time.sleep(0.5)
            app.click(300, 300)
            app.wait_for(lambda: "No Favorites Yet" in app.names(), timeout=5, what="Favorites after a click")

    def test_escape_skips_the_splash(self):
        with App(splash_ms=60000) as app:
            app.window_id()
            time.sleep(0.5)
            app.key("Escape")
            app.wait_for(lambda: "No Favorites Yet" in app.names(), timeout=5, what="Favorites after Esc")


@retry_gtk_atspi_crash
class NavigationTests(unittest.TestCase):
    def test_round_trip_with_buttons_and_keys(self):
        with App() as app:
            app.wait_for(lambda: "Add New Devices" in app.names("button"), what="the home page")
            for go_back in ("button", "Escape", "alt+Left"):
                app.press("Add New Devices")
                app.wait_for(lambda: "Back" in app.names("button"), what="the Scanner")
                self.assertIn("Scanner", app.names())
                if go_back == "button":
                    app.press("Back")
                else:
                    app.key(go_back)
                app.wait_for(lambda: "Back" not in app.names("button"), what=f"Favorites after {go_back}")
                self.assertIn("No Favorites Yet", app.names())

    def test_ctrl_n_opens_the_scanner(self):
        with App() as app:
            app.wait_for(lambda: "Add New Devices" in app.names("button"), what="the home page")
            app.key("ctrl+n")
            app.wait_for(lambda: "Back" in app.names("button"), what="the Scanner")

    def test_ctrl_q_quits(self):
        with App() as app:
            app.accessible()
            app.key("ctrl+q")
            self.assertEqual(app.proc.wait(timeout=10), 0)

    def test_ctrl_w_closes_the_window(self):
        with App() as app:
            app.accessible()
            app.key("ctrl+w")
            self.assertEqual(app.proc.wait(timeout=10), 0)

    def test_a_second_launch_presents_the_existing_window(self):
        with App() as first:
            first.accessible()
            second = subprocess.run(first.args, env=first.env, capture_output=True, timeout=20)
            self.assertEqual(second.returncode, 0, second.stderr.decode())
            self.assertIsNone(first.proc.poll(), "the first instance keeps running")
            windows = subprocess.run(["xdotool", "search", "--onlyvisible", "--name", "FavBlue"],
                                     capture_output=True, text=True).stdout.split()
            self.assertEqual(len(windows), 1, "still exactly one window")

    def test_two_launches_at_once_leave_one_window_that_keeps_the_database(self):
        # Each launch starts opening the database before it learns whether it is the first; the
        # one that turns out second may hold the lock for a moment. Several rounds, so the race
        # goes both ways.
        for round in range(4):
            home = scratch()
            launches = [App(storage="sqlite", home=home) for _ in range(2)]
            try:
                deadline = time.monotonic() + 20
                while all(a.proc.poll() is None for a in launches) and time.monotonic() < deadline:
                    time.sleep(0.05)
                ended = [a for a in launches if a.proc.poll() is not None]
                self.assertEqual(len(ended), 1, f"round {round}: one launch hands over to the other and ends")
                self.assertEqual(ended[0].proc.returncode, 0, ended[0].stderr())
                first = next(a for a in launches if a.proc.poll() is None)
                first.wait_for(lambda: "Add New Devices" in first.names("button"), what="the home page")
                labels = first.names("label")
                self.assertFalse([n for n in labels if n.startswith("Another FavBlue")], f"round {round}: {labels}")
                self.assertNotIn("Another FavBlue", first.stderr(), f"round {round}")
            finally:
                for a in launches:
                    a.close()


@retry_gtk_atspi_crash
class MenuTests(unittest.TestCase):
    def frames(self, app):
        return app.frames()

    def test_f10_opens_the_main_menu_with_shortcuts_and_about(self):
        with App() as app:
            app.wait_for(lambda: "Add New Devices" in app.names("button"), what="the home page")
            app.key("F10")
            app.wait_for(lambda: "About FavBlue" in app.names("menu item"), what="the main menu")
            self.assertIn("Keyboard Shortcuts", app.names("menu item"))
            app.press("About FavBlue", role="menu item")
            app.wait_for(lambda: len(self.frames(app)) == 2, what="the About window")

    def test_f10_opens_the_main_menu_on_the_scanner_and_the_detail_page_too(self):
        with App("--source", "demo") as app:
            app.wait_for(lambda: "Add New Devices" in app.names("button"), what="the home page")
            app.press("Add New Devices")
            app.wait_for(lambda: any(n.startswith("Details for ") for n in app.names("button")), what="the Scanner's rows")
            app.key("F10")
            app.wait_for(lambda: "About FavBlue" in app.names("menu item"), what="the main menu on the Scanner")
            self.assertIn("Preferences", app.names("menu item"))
            app.key("Escape")
            app.wait_for(lambda: "About FavBlue" not in app.names("menu item"), what="the menu closed")
            app.press(next(n for n in app.names("button") if n.startswith("Details for ")))
            app.wait_for(lambda: "Signal" in app.names("label"), what="the detail page")
            app.key("F10")
            app.wait_for(lambda: "About FavBlue" in app.names("menu item"), what="the main menu on the detail page")
            app.press("Keyboard Shortcuts", role="menu item")
            app.wait_for(lambda: "Keyboard Shortcuts" in self.frames(app), what="the shortcuts window")

    def test_ctrl_question_shows_the_keyboard_shortcuts(self):
        with App() as app:
            app.accessible()
            app.key("ctrl+question")
            app.wait_for(lambda: "Keyboard Shortcuts" in self.frames(app), what="the shortcuts window")


@retry_gtk_atspi_crash
class AccessibilityTests(unittest.TestCase):
    INTERACTIVE = {"button", "push button", "toggle button", "menu button", "check box", "text", "entry"}

    def assert_all_named(self, app):
        unnamed = [role for _, role, name in app.nodes() if role in self.INTERACTIVE and not name.strip()]
        self.assertEqual(unnamed, [], "every control has an accessible name")

    def test_no_control_is_named_with_its_mnemonic_underscore(self):
        """A screen reader says "Confirm", not "C_onfirm Confirm": every button, menu item,
        switch and check box in the main window, its menus, the add, nickname and remove
        dialogs, Preferences and the shortcuts window is named without the underscore."""
        controls = self.INTERACTIVE | {"menu item", "check menu item", "radio menu item", "toggle button", "switch"}

        def check(where):
            nodes = app.nodes()
            # A device's own name is data ("ATC_8E3F", as pvvx's firmware names a thermometer):
            # it shows as a label too, where GTK would have parsed a mnemonic away.
            sent = {n for _, r, n in nodes if r == "label" and "_" in n}
            bad = sorted({(r, n) for _, r, n in nodes if r in controls and "_" in n and not any(d in n for d in sent)})
            self.assertEqual(bad, [], f"names with a mnemonic underscore in {where}")

        with App("--source", "demo", storage="memory", home=scratch("favblue-names-")) as app:
            app.wait_for(lambda: "Add New Devices" in app.names("button"), what="the home page")
            check("Favorites")
            app.key("F10")
            app.wait_for(lambda: "About FavBlue" in app.names("menu item"), what="the main menu")
            check("the main menu")
            app.key("Escape")
            app.press("Add New Devices")
            app.wait_for(lambda: any(n.startswith("Add ") and n.endswith(" to favorites") for n in app.names("button")),
                         timeout=30, what="the Scanner's rows")
            check("the Scanner")
            heart = next(n for n in app.names("button") if n.startswith("Add ") and n.endswith(" to favorites"))
            name = heart[len("Add "):-len(" to favorites")]
            app.press(heart)
            app.wait_for(lambda: "Add to Favorites" in app.names(), what="the add dialog")
            check("the add dialog")
            app.press("Add")
            app.wait_for(lambda: f"Remove {name} from favorites" in app.names("button"), what="the favorite")
            app.press(f"Remove {name} from favorites")
            app.wait_for(lambda: "Remove" in app.names("button"), what="the remove dialog")
            check("the remove dialog")
            app.press("Cancel")
            app.key("ctrl+comma")
            app.wait_for(lambda: "Preferences" in MenuTests().frames(app), what="Preferences")
            check("Preferences")
            app.key("Escape")
            app.key("ctrl+question")
            app.wait_for(lambda: "Keyboard Shortcuts" in MenuTests().frames(app), what="the shortcuts window")
            check("the shortcuts window")

    def test_every_control_on_every_page_has_a_name(self):
        with App() as app:
            app.wait_for(lambda: "Add New Devices" in app.names("button"), what="the home page")
            self.assert_all_named(app)
            self.assertIn("Main Menu", app.names())
            app.press("Add New Devices")
            app.wait_for(lambda: "Back" in app.names("button"), what="the Scanner")
            self.assert_all_named(app)

    def test_tab_alone_reaches_every_control_on_the_home_page(self):
        with App() as app:
            app.wait_for(lambda: "Add New Devices" in app.names("button"), what="the home page")
            reached = set()
            for _ in range(12):
                app.key("Tab")
                time.sleep(0.15)
                name = app.focused_name()
                if name:
                    reached.add(name)
            for control in ("Add New Devices", "Main Menu"):
                self.assertIn(control, reached, f"Tab reaches {control}")

    def test_tab_alone_reaches_every_control_of_the_scanner(self):
        with App("--source", "demo") as app:
            app.wait_for(lambda: "Add New Devices" in app.names("button"), what="the home page")
            app.press("Add New Devices")
            app.wait_for(lambda: "Back" in app.names("button"), what="the Scanner")
            # Forward through the header into the rows, then backward from the start.
            reached = {app.focused_name()}
            for keys in (["Tab"] * 8, ["shift+Tab"] * 8):
                for key in keys:
                    app.key(key)
                    time.sleep(0.15)
                    reached.add(app.focused_name())
            for control in ("Back", "Search Devices", "View Options"):
                self.assertIn(control, reached, f"Tab or Shift+Tab reaches {control}")
            self.assertTrue(any(n and n.startswith("Details for ") for n in app.names("button")), "the rows show")
            self.assertTrue(reached & set(app.names("panel")), f"Tab reaches the rows: {reached}")
            self.assertTrue(reached & {"Stop Scanning", "Start Scanning"}, f"Tab reaches the scan toggle: {reached}")

    def test_the_window_and_pages_are_named(self):
        with App() as app:
            app.wait_for(lambda: "No Favorites Yet" in app.names(), what="the home page")
            roles = {(role, name) for _, role, name in app.nodes()}
            self.assertIn(("frame", "FavBlue"), roles, "the window is named")


@retry_gtk_atspi_crash
class LanguageTests(unittest.TestCase):
    def test_german_strings_appear(self):
        with App(lang="de") as app:
            app.wait_for(lambda: "Neue Geräte hinzufügen" in app.names("button"), what="German home page")
            self.assertIn("Noch keine Favoriten", app.names())
            self.assertIn("Hauptmenü", app.names())
            app.press("Neue Geräte hinzufügen")
            app.wait_for(lambda: "Zurück" in app.names("button"), what="German Scanner")

    def test_help_lists_the_options(self):
        out = subprocess.run([binary(), "--help"], capture_output=True, text=True, timeout=20,
                             env=dict(os.environ, LANGUAGE="en", LC_ALL="C.UTF-8")).stdout
        for option in ("--splash-ms", "--storage", "--source", "--version"):
            self.assertIn(option, out)

    def test_a_bad_splash_value_is_explained(self):
        run = subprocess.run([binary(), "--splash-ms", "soon"], capture_output=True, text=True, timeout=20,
                             env=dict(os.environ, LANGUAGE="en", LC_ALL="C.UTF-8"))
        self.assertEqual(run.returncode, 2)
        self.assertIn("--splash-ms needs a number of milliseconds", run.stderr)

    def test_a_bad_option_value_is_explained(self):
        run = subprocess.run([binary(), "--storage", "floppy"], capture_output=True, text=True, timeout=20,
                             env=dict(os.environ, LANGUAGE="en", LC_ALL="C.UTF-8"))
        self.assertNotEqual(run.returncode, 0)
        self.assertIn("Unknown storage “floppy”", run.stderr)


def installed_guide():
    """The HTML guide an installed FavBlue carries (share/favblue/help); None for a development build."""
    share = os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(binary()))), "share", "favblue", "help")
    return share if os.path.isdir(share) else None


def register_help_viewer(home, program):
    """Makes `program` (a script given the URI) the desktop's handler of help: URIs for an
    App(home=home), as installing Yelp does, so GIO's launch can be read instead of the screen."""
    apps = os.path.join(home, "xdg_data_home", "applications")
    os.makedirs(apps, exist_ok=True)
    with open(os.path.join(apps, "help-viewer.desktop"), "w") as f:
        f.write("[Desktop Entry]\nType=Application\nName=Help Viewer\n"
                f"Exec={program} %u\nMimeType=x-scheme-handler/help;x-scheme-handler/ghelp;\n")
    config = os.path.join(home, "xdg_config_home")
    os.makedirs(config, exist_ok=True)
    with open(os.path.join(config, "mimeapps.list"), "w") as f:
        f.write("[Default Applications]\nx-scheme-handler/help=help-viewer.desktop\nx-scheme-handler/ghelp=help-viewer.desktop\n")


@retry_gtk_atspi_crash
class HelpTests(unittest.TestCase):
    def recorder(self, home):
        opened = os.path.join(home, "opened.txt")
        program = os.path.join(home, "record-help")
        with open(program, "w") as f:
            f.write(f'#!/bin/sh\nprintf "%s\\n" "$1" >> "{opened}"\n')
        os.chmod(program, 0o755)
        register_help_viewer(home, program)
        return opened

    def wait_for_file(self, path, what):
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            if os.path.exists(path) and open(path).read().strip():
                return open(path).read().split()
            time.sleep(0.2)
        self.fail(f"nothing asked to open {what}")

    def assert_the_guide(self, uris):
        """One request for the guide: help:favblue where it is installed where Yelp looks, else
        (the tests' own prefix, a build tree) the folder of FavBlue's guide, as ghelp:."""
        self.assertEqual(len(uris), 1, uris)
        if uris[0] != "help:favblue":
            self.assertTrue(uris[0].startswith("ghelp:/"), uris)
            with open(os.path.join(uris[0][len("ghelp:"):], "index.page"), encoding="utf-8") as f:
                self.assertIn("FavBlue", f.read())

    def test_f1_asks_the_desktop_to_open_the_guide(self):
        home = scratch("favblue-ui-")
        opened = self.recorder(home)
        with App(home=home) as app:
            app.wait_for(lambda: "Add New Devices" in app.names("button"), what="the home page")
            app.key("F1")
            self.assert_the_guide(self.wait_for_file(opened, "the guide"))

    def test_the_main_menus_help_opens_the_guide_too_on_the_scanner(self):
        home = scratch("favblue-ui-")
        opened = self.recorder(home)
        with App("--source", "demo", home=home) as app:
            app.wait_for(lambda: "Add New Devices" in app.names("button"), what="the home page")
            app.press("Add New Devices")
            # F10 opens the menu of the page on show; while the pages slide, Favorites' is still there.
            app.wait_for(lambda: "Add New Devices" not in app.names("button"), what="the Scanner alone")
            app.key("F10")
            app.wait_for(lambda: "Help" in app.names("menu item"), what="Help in the main menu")
            app.press("Help", role="menu item")
            self.assert_the_guide(self.wait_for_file(opened, "the guide"))

    @staticmethod
    def without_system_applications(home):
        """XDG_DATA_DIRS with the MIME database alone: no desktop file of the system's (Yelp's,
        a browser's) is in sight, and an .html file is still known as text/html."""
        data = os.path.join(home, "mime-only")
        os.makedirs(data)
        os.symlink("/usr/share/mime", os.path.join(data, "mime"))
        return {"XDG_DATA_DIRS": data}

    def test_f1_opens_the_guide_this_build_has_where_yelp_finds_it(self):
        """F1 hands the help viewer the guide this very build has: an installed guide outside
        the data folders Yelp searches (a prefix of one's own, the test's) or a build tree's own
        is given as that folder, not as help:favblue, which Yelp would not find. A stand-in for
        Yelp (a desktop file for help: and ghelp:) notes what it was given."""
        home = scratch("favblue-ui-")
        data = os.path.join(home, "data-dirs")
        os.makedirs(os.path.join(data, "applications"))
        os.symlink("/usr/share/mime", os.path.join(data, "mime"))
        said = os.path.join(home, "yelp-was-given")
        viewer = os.path.join(home, "yelp")
        with open(viewer, "w") as f:
            f.write(f"#!/bin/sh\nprintf '%s' \"$1\" > '{said}'\n")
        os.chmod(viewer, 0o755)
        with open(os.path.join(data, "applications", "yelp.desktop"), "w") as f:
            f.write(f"[Desktop Entry]\nType=Application\nName=Help\nExec={viewer} %u\n"
                    "MimeType=x-scheme-handler/help;x-scheme-handler/ghelp;\n")
        with open(os.path.join(data, "applications", "mimeapps.list"), "w") as f:
            f.write("[Default Applications]\nx-scheme-handler/help=yelp.desktop\nx-scheme-handler/ghelp=yelp.desktop\n")
        with App(home=home, env={"XDG_DATA_DIRS": data}) as app:
            app.wait_for(lambda: "Add New Devices" in app.names("button"), what="the home page")
            app.key("F1")
            deadline = time.monotonic() + 15
            while not os.path.exists(said) and time.monotonic() < deadline:
                time.sleep(0.1)
            with open(said) as f:
                uri = f.read()
        self.assertTrue(uri.startswith("ghelp:/"), f"a folder Yelp reads as it is, not help:favblue: {uri!r}")
        index = os.path.join(uri[len("ghelp:"):], "index.page")
        with open(index, encoding="utf-8") as f:
            self.assertIn("FavBlue", f.read(), f"{index} is FavBlue's guide")

    def test_without_a_help_viewer_a_notice_says_what_to_install(self):
        home = scratch("favblue-ui-")
        with App(home=home, env=self.without_system_applications(home)) as app:
            app.wait_for(lambda: "Add New Devices" in app.names("button"), what="the home page")
            app.key("F1")
            # An installed FavBlue has the guide as HTML, but here no browser to open it.
            guide = installed_guide()
            said = (f"This computer has no help viewer and no web browser for the guide. Install Yelp, GNOME’s help viewer, "
                    f"or open \u2068{os.path.join(guide, 'C', 'index.html')}\u2069 in a browser." if guide else
                    "This computer has no help viewer for the guide. Install Yelp, GNOME’s help viewer, to read it.")
            app.wait_for(lambda: said in app.names("label"), what="the notice")
            self.assertFalse([n for n in app.names("label") if "not supported" in n], "no raw error")

    @unittest.skipUnless(installed_guide(), "a development build carries no HTML guide (meson-helpers/test installs one)")
    def test_without_a_help_viewer_the_html_guide_opens_in_the_browser_in_the_users_language(self):
        for lang, folder in ((None, "C"), ("de", "de")):
            home = scratch("favblue-ui-")
            opened = os.path.join(home, "opened.txt")
            program = os.path.join(home, "browser")
            with open(program, "w") as f:
                f.write(f'#!/bin/sh\nprintf "%s\\n" "$1" >> "{opened}"\n')
            os.chmod(program, 0o755)
            apps = os.path.join(home, "xdg_data_home", "applications")
            os.makedirs(apps, exist_ok=True)
            with open(os.path.join(apps, "browser.desktop"), "w") as f:
                f.write(f"[Desktop Entry]\nType=Application\nName=Browser\nExec={program} %u\nMimeType=text/html;\n")
            os.makedirs(os.path.join(home, "xdg_config_home"), exist_ok=True)
            with open(os.path.join(home, "xdg_config_home", "mimeapps.list"), "w") as f:
                f.write("[Default Applications]\ntext/html=browser.desktop\n")
            with App(home=home, lang=lang, env=self.without_system_applications(home)) as app:
                app.wait_for(lambda: len(app.names("button")) > 2, what="the home page")
                app.key("F1")
                page = os.path.join(installed_guide(), folder, "index.html")
                # GIO hands a local file to the browser as its path.
                self.assertEqual(self.wait_for_file(opened, "the HTML guide"), [page], f"{folder}: its guide")
                self.assertTrue(os.path.exists(os.path.join(installed_guide(), folder, "favorites.html")), "with its pages")


@retry_gtk_atspi_crash
class InstallTests(unittest.TestCase):
    def test_the_installed_app_finds_its_schema_and_translations(self):
        if "FAVBLUE_BIN" not in os.environ:
            self.skipTest("runs against an installed prefix (meson-helpers/test sets FAVBLUE_BIN)")
        with App(lang="de", env={"FAVBLUE_RESOURCES": "/nonexistent"}) as app:
            app.wait_for(lambda: "Neue Geräte hinzufügen" in app.names("button"), what="German from the prefix")
            app.key("ctrl+q")
            app.proc.wait(timeout=10)
            err = app.stderr()
            self.assertNotIn("schema", err.lower(), err)
            self.assertNotIn("could not load", err, err)

    def test_the_guide_is_installed_in_english_and_german(self):
        if "FAVBLUE_BIN" not in os.environ:
            self.skipTest("runs against an installed prefix (meson-helpers/test sets FAVBLUE_BIN)")
        share = os.path.join(os.path.dirname(os.path.realpath(binary())), "..", "share", "help")
        for lang, title in (("C", "Find a device"), ("de", "Ein Gerät finden")):
            with open(os.path.join(share, lang, "favblue", "scanner.page"), encoding="utf-8") as f:
                self.assertIn(f"<title>{title}</title>", f.read())



def environment_of(pid):
    with open(f"/proc/{pid}/environ", "rb") as f:
        return [entry.decode("utf-8", "replace") for entry in f.read().split(b"\0") if entry]


@retry_gtk_atspi_crash
class MemoryTests(unittest.TestCase):
    def test_the_app_starts_once_its_slices_set_before_glib_loads(self):
        """GLib 2.74's slice allocator kept growing over an hour of chat. The app sets GLib's slices
        to malloc before GLib loads (GtkKitTests.SliceAllocatorTests checks the setting), so it no
        longer starts itself again with G_SLICE=always-malloc, which cost the start-up an exec."""
        with App(splash_ms=0) as app:
            app.wait_for(lambda: "No Favorites Yet" in app.names(), what="Favorites")
            self.assertFalse(any(e.startswith("G_SLICE=") for e in environment_of(app.proc.pid)),
                             "the window is the process that was started, not a restarted one")

    def test_the_app_icon_is_drawn_without_the_svg_renderer(self):
        """The window's icon and About's come from PNGs at fixed sizes: loading librsvg for the
        app's SVG icon cost some 6 MiB of memory and its loading at every start."""
        with App(splash_ms=0) as app:
            app.wait_for(lambda: "No Favorites Yet" in app.names(), what="Favorites")
            window = app.window_id()
            app.wait_for(lambda: "Icon (" in subprocess.run(["xprop", "-id", window, "_NET_WM_ICON"],
                                                           capture_output=True, text=True).stdout,
                         what="the window's icon")
            app.key("F10")
            app.wait_for(lambda: "About FavBlue" in app.names("menu item"), what="the main menu")
            app.press("About FavBlue", role="menu item")
            app.wait_for(lambda: len(app.frames()) == 2, what="the About window, which shows the icon")
            with open(f"/proc/{app.proc.pid}/maps") as f:
                maps = f.read()
            self.assertNotIn("librsvg", maps, "the app's icon is drawn without loading the SVG renderer")

    def test_the_scanner_looking_for_devices_and_listing_them_is_drawn_without_the_svg_renderer(self):
        """"Looking for devices…" and the spinner beside it are FavBlue's own symbolic PNGs, as the
        signal icons are Adwaita's: its SVGs for those two loaded librsvg (some 6 MiB) the first time
        the Scanner looked for devices."""
        capture = os.path.join(scratch(), "late.btsnoop")
        write_late_capture(capture, "Late Sensor", after_seconds=4)
        with App("--source", "btsnoop:" + capture) as app:
            app.wait_for(lambda: "Add New Devices" in app.names("button"), what="Favorites")
            app.press("Add New Devices")
            app.wait_for(lambda: "Looking for devices…" in app.names(), what="the Scanner looking for devices")
            app.wait_for(lambda: "Late Sensor" in app.names(), what="the device listed")
            with open(f"/proc/{app.proc.pid}/maps") as f:
                maps = f.read()
            self.assertFalse("librsvg" in maps, "the Scanner is drawn without loading the SVG renderer")

    def test_the_code_start_up_ran_is_given_back_once_the_window_has_settled(self):
        """Start-up runs through some 14 MiB of the program's own code, which stayed resident: the
        app gives those pages back a few seconds after its window is shown. A private copy of the
        program, as the kernel leaves a page that another running copy maps too."""
        home = scratch()
        prefix = os.path.dirname(os.path.dirname(os.path.realpath(binary())))
        os.makedirs(os.path.join(home, "bin"))
        os.symlink(os.path.join(prefix, "share"), os.path.join(home, "share"))
        program = os.path.join(home, "bin", "favblue")
        shutil.copy2(os.path.realpath(binary()), program)
        # Written back to the disk, so its pages in memory are clean copies the kernel may drop.
        with open(program, "rb") as f:
            os.fsync(f.fileno())

        def resident_code_kib(pid):
            total, code = 0, False
            with open(f"/proc/{pid}/smaps") as f:
                for line in f:
                    fields = line.split()
                    if len(fields) >= 5 and "-" in fields[0] and not fields[0].endswith(":"):
                        code = "x" in fields[1] and fields[-1] == program
                    elif code and fields[0] == "Rss:":
                        total += int(fields[1])
            return total

        env = dict(os.environ, HOME=home, XDG_DATA_HOME=os.path.join(home, "data"),
                   XDG_CACHE_HOME=os.path.join(home, "cache"), GSETTINGS_BACKEND="memory")
        proc = subprocess.Popen([program, "--splash-ms", "0", "--storage", "memory"], env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            found = subprocess.run(["xdotool", "search", "--sync", "--onlyvisible", "--pid", str(proc.pid)],
                                   capture_output=True, text=True, timeout=60)
            self.assertTrue(found.stdout.strip(), "the window is shown")
            shown = resident_code_kib(proc.pid)
            self.assertGreater(shown, 4096, "start-up ran through more than 4 MiB of the program's code")
            deadline, now = time.monotonic() + 8, shown
            while time.monotonic() < deadline and now >= shown / 2:
                time.sleep(0.5)
                now = resident_code_kib(proc.pid)
            self.assertLess(now, shown / 2, f"{shown} KiB of code resident as the window was shown, {now} KiB after")
            self.assertIsNone(proc.poll(), "the app runs on")
        finally:
            proc.terminate()
            proc.wait(timeout=10)

    def test_a_g_slice_the_user_set_is_kept(self):
        with App(splash_ms=0, env={"G_SLICE": ""}) as app:
            app.wait_for(lambda: "No Favorites Yet" in app.names(), what="Favorites")
            self.assertIn("G_SLICE=", environment_of(app.proc.pid))
            self.assertNotIn("G_SLICE=always-malloc", environment_of(app.proc.pid))


def processes():
    """{pid: command line} of every process now."""
    out = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/cmdline", "rb") as f:
                    out[int(name)] = f.read().replace(b"\0", b" ").decode("utf-8", "replace")
            except OSError:
                pass
    return out


class SessionBusTests(unittest.TestCase):
    def test_without_a_session_bus_the_app_runs_and_starts_no_bus_for_itself(self):
        """A bare X server or a kiosk has no session bus. GLib would start one (dbus-launch, and
        the accessibility bus after it) only to learn that FavBlue is the only instance: FavBlue
        runs as an instance of its own, says so under --verbose, and keeps its settings."""
        home = scratch()
        runtime = os.path.join(home, "runtime")
        os.makedirs(runtime, mode=0o700)
        env = {k: v for k, v in os.environ.items() if k not in ("DBUS_SESSION_BUS_ADDRESS", "GSETTINGS_BACKEND")}
        env.update({"HOME": home, "XDG_RUNTIME_DIR": runtime, "XDG_CONFIG_HOME": os.path.join(home, "config"),
                    "XDG_DATA_HOME": os.path.join(home, "data"), "XDG_CACHE_HOME": os.path.join(home, "cache"),
                    "LANG": "C.UTF-8", "LANGUAGE": "", "GSETTINGS_SCHEMA_DIR": os.environ.get("GSETTINGS_SCHEMA_DIR", "")})
        if not env["GSETTINGS_SCHEMA_DIR"]:
            del env["GSETTINGS_SCHEMA_DIR"]
        before = set(processes())
        proc = subprocess.Popen([binary(), "--splash-ms", "0", "--source", "demo", "--verbose"], env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            found = subprocess.run(["xdotool", "search", "--sync", "--onlyvisible", "--pid", str(proc.pid)],
                                   capture_output=True, text=True, timeout=30)
            self.assertTrue(found.stdout.strip(), "the window is shown")
            time.sleep(2)
            self.assertIsNone(proc.poll(), "it runs")
            started = {pid: cmd for pid, cmd in processes().items() if pid not in before}
            buses = [cmd for cmd in started.values() if "dbus-launch" in cmd or ("dbus-daemon" in cmd and runtime in cmd)
                     or "--autolaunch" in cmd]
            self.assertEqual(buses, [], "no bus was started for it")
        finally:
            proc.terminate()
            _, err = proc.communicate(timeout=20)
        self.assertIn("No session bus: FavBlue runs as an instance of its own and does not start one.", err)
        self.assertNotIn("WARNING", err, err)
        self.assertNotIn("CRITICAL", err, err)
        self.assertTrue(os.path.exists(os.path.join(home, "config", "glib-2.0", "settings", "keyfile")),
                        "its settings are kept in GLib's key file, which needs no bus")


if __name__ == "__main__":
    unittest.main()
