# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""Help (F1) on a desktop without Yelp: the guide opens as HTML in the web browser, in the
user's language, and the app says in words what is missing when it cannot."""

import os
import shutil
import time
import unittest

from harness import App, binary, retry_gtk_atspi_crash, scratch


def installed_guide():
    """The HTML guide an installed FavBlue carries; nil for a development build."""
    share = os.path.join(os.path.dirname(os.path.dirname(binary())), "share", "favblue", "help")
    return share if os.path.isdir(share) else None


def home_with_browser():
    """A home whose default web browser writes the address it is given to a file."""
    home = scratch("favblue-help-")
    apps = os.path.join(home, "xdg_data_home", "applications")
    os.makedirs(apps)
    opened = os.path.join(home, "opened")
    script = os.path.join(home, "browser.sh")
    with open(script, "w") as f:
        f.write(f'#!/bin/sh\nprintf "%s\\n" "$1" >> "{opened}"\n')
    os.chmod(script, 0o755)
    with open(os.path.join(apps, "test-browser.desktop"), "w") as f:
        f.write(f"[Desktop Entry]\nType=Application\nName=Test Browser\nExec={script} %u\nMimeType=text/html;\n")
    config = os.path.join(home, "xdg_config_home")
    os.makedirs(config, exist_ok=True)
    with open(os.path.join(config, "mimeapps.list"), "w") as f:
        f.write("[Default Applications]\ntext/html=test-browser.desktop\n")
    return home, opened


def read_when_there(path, timeout=15):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if os.path.exists(path) and open(path).read().strip():
            return open(path).read().split()
        time.sleep(0.2)
    return []


@retry_gtk_atspi_crash
class HelpTests(unittest.TestCase):
    def setUp(self):
        if not shutil.which("yelp"):
            return
        self.skipTest("Yelp is installed here: F1 opens the guide in it")

    @unittest.skipUnless(installed_guide(), "a development build carries no HTML guide")
    def test_f1_opens_the_html_guide_in_the_browser_in_the_users_language(self):
        for lang, folder in ((None, "C"), ("de", "de")):
            home, opened = home_with_browser()
            self.addCleanup(shutil.rmtree, home, True)
            with App(home=home, lang=lang) as app:
                app.wait_for(lambda: len(app.names("button")) > 2, what="the home page")
                app.key("F1")
                pages = read_when_there(opened)
                self.assertEqual(pages, ["file://" + os.path.join(installed_guide(), folder, "index.html")], f"{lang}: the guide")
                self.assertTrue(os.path.exists(os.path.join(installed_guide(), folder, "favorites.html")), "its pages")

    @unittest.skipIf(installed_guide(), "an installed FavBlue carries the HTML guide")
    def test_f1_without_a_guide_viewer_says_what_to_install(self):
        with App() as app:
            app.wait_for(lambda: len(app.names("button")) > 2, what="the home page")
            app.key("F1")
            app.wait_for(lambda: "This computer has no help viewer for the guide. Install Yelp, GNOME’s help viewer, to read it."
                         in app.names("label"), what="the toast")
            self.assertFalse([n for n in app.names("label") if "\u2068" in n or "not supported" in n], "no raw error")


if __name__ == "__main__":
    unittest.main()
