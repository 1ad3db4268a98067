# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""A broker that wants a password: it is kept in the desktop's keyring (GNOME Keyring on the
test's session bus), by favblue-scan mqtt-password or by the app's Preferences, and it never
appears on the command line, in a log, in the output or in the settings."""

import glob
import os
import subprocess
import unittest

from gateways import Broker, Gateways, Keyring
from harness import App, binary, retry_gtk_atspi_crash, scratch

PASSWORD = "s3cret-Pa55-%s" % os.getpid()


def scan_binary():
    return os.path.join(os.path.dirname(binary()), "favblue-scan")


@retry_gtk_atspi_crash
class KeyringTests(unittest.TestCase):
    def setUp(self):
        self.keyring = Keyring()
        self.addCleanup(self.keyring.stop)
        self.broker = Broker(user="favblue", password=PASSWORD)
        self.addCleanup(self.broker.stop)
        self.rooms = Gateways(self.broker, "C0:98:E5:49:00:07", "Keys", {"Kitchen": -55})
        self.addCleanup(self.rooms.stop)

    def test_the_command_line_keeps_the_password_in_the_keyring_and_never_says_it(self):
        refused = subprocess.run([scan_binary(), "--source", self.broker.url, "--duration", "3", "--format", "json"],
                                 capture_output=True, text=True, timeout=30)
        self.assertNotEqual(refused.returncode, 0)
        self.assertIn("refused the user name or password", refused.stderr)
        self.assertIn("No password is kept for", refused.stderr)

        kept = subprocess.run([scan_binary(), "mqtt-password", self.broker.url], input=PASSWORD + "\n",
                              capture_output=True, text=True, timeout=30)
        self.assertEqual(kept.returncode, 0, kept.stderr)
        self.assertIn("is kept in the keyring", kept.stdout)
        looked = subprocess.run(["secret-tool", "lookup", "host", "127.0.0.1", "port", str(self.broker.port), "user", "favblue"],
                                capture_output=True, text=True)
        self.assertEqual(looked.stdout, PASSWORD, "in the keyring, under the broker's host, port and user")

        scan = subprocess.run([scan_binary(), "--source", self.broker.url, "--duration", "3", "--format", "json", "--verbose"],
                              capture_output=True, text=True, timeout=30)
        self.assertEqual(scan.returncode, 0, scan.stderr)
        self.assertIn('"name":"Kitchen"', scan.stdout)
        for said in (kept.stdout, kept.stderr, scan.stdout, scan.stderr):
            self.assertNotIn(PASSWORD, said, "never said")

    def test_the_app_reads_the_kept_password_and_keeps_it_out_of_settings_and_logs(self):
        subprocess.run([scan_binary(), "mqtt-password", self.broker.url], input=PASSWORD + "\n", check=True,
                       capture_output=True, text=True, timeout=30)
        home = scratch()
        with App("--source", self.broker.url, "--verbose", home=home) as app:
            app.wait_for(lambda: "Add New Devices" in app.names("button"), what="the home page")
            app.press("Add New Devices")
            app.wait_for(lambda: "Details for Keys" in app.names("button"), timeout=30, what="the gateway's device")
            self.assertNotIn(PASSWORD, app.stderr())
        for path in glob.glob(os.path.join(home, "**", "*"), recursive=True):
            if os.path.isfile(path):
                with open(path, "rb") as f:
                    self.assertNotIn(PASSWORD.encode(), f.read(), f"not in {path}")


if __name__ == "__main__":
    unittest.main()
