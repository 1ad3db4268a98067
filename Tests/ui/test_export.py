# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""Taking data away on the real app: Export Devices… through GTK's own file chooser (no
portal under Xvfb), its path typed into the chooser's accessible name entry, and Record,
whose capture btmon, tshark and favblue-scan read back."""

import csv
import json
import os
import shutil
import subprocess
import time
import unittest

from harness import DEMO_CAPTURE, App, retry_gtk_atspi_crash, scratch

def write_calm_capture(path, devices=4, seconds=900):
    """A btsnoop capture (H4) of named LE devices, each heard once a second at a steady signal:
    a scan that lasts, with a list that stays still while the accessibility tree is walked."""
    import struct
    start = 1_700_000_000_000_000 + 0x00DCDDB30F2F8000
    with open(path, "wb") as f:
        f.write(b"btsnoop\0" + struct.pack(">II", 1, 1002))
        for i in range(seconds * devices):
            n = i % devices
            name = f"Calm Sensor {n:02d}".encode()
            data = bytes([0x02, 0x01, 0x06, len(name) + 1, 0x09]) + name
            address = bytes([n, 0x42, 0x10, 0x20, 0x30, 0xC0])
            report = bytes([0x01, 0x00, 0x01]) + address + bytes([len(data)]) + data + struct.pack("b", -50 - 3 * n)
            body = bytes([0x02]) + report
            packet = bytes([0x04, 0x3E, len(body)]) + body
            f.write(struct.pack(">IIIIq", len(packet), len(packet), 3, 0, start + i * 1_000_000 // devices) + packet)


HEADER = ["address", "addressType", "transport", "name", "rssi", "rssiMax", "txPower", "company", "companyId",
          "services", "reports", "firstSeen", "lastSeen", "manufacturerData", "serviceData", "readings", "addresses",
          "nickname", "favorite"]
# JSON has a sensor's maker and model and a beacon's identity besides the CSV's columns.
JSON_KEYS = set(HEADER) | {"sensor", "beacon"}


@retry_gtk_atspi_crash
class ExportTests(unittest.TestCase):
    def open_finished_scanner(self, app):
        app.wait_for(lambda: "Add New Devices" in app.names("button"), what="the home page")
        app.press("Add New Devices")
        # The replay's end keeps the list still, so what is listed is what gets exported.
        app.wait_for(lambda: "Replay finished" in app.names(), timeout=60, what="the capture replayed to its end")

    def listed_devices(self, app):
        """The devices the list shows, by the names their Details buttons carry."""
        prefix = "Details for "
        return {n[len(prefix):] for n in app.names("button") if n.startswith(prefix)}

    def choose_in_menu(self, app, label):
        app.click_on_until("View Options", None, lambda: any(n.startswith(label) for n in app.names()), what=f"{label} in View Options")
        node = next(node for node, _, name in app.nodes() if name.startswith(label))
        node.do_action(0)
        app.settle()

    def save_through_chooser(self, app, title, path, button="Save"):
        app.wait_for(lambda: title in app.frames(), what=f"the {title} file chooser")
        entry = app.find("Name:", role="text")
        entry.set_text_contents(path)
        app.settle()
        app.press(button)

    def test_export_to_a_path_set_through_the_dialogs_accessible_entry(self):
        folder = scratch("favblue-export-")
        path = os.path.join(folder, "nearby, “today”.csv")
        with App("--source", DEMO_CAPTURE) as app:
            self.open_finished_scanner(app)
            listed = self.listed_devices(app)
            self.assertGreaterEqual(len(listed), 5, listed)
            self.choose_in_menu(app, "Export Devices")
            self.save_through_chooser(app, "Export Devices", path)
            app.wait_for(lambda: os.path.exists(path), what="the exported file")
            app.wait_for(lambda: any(n.startswith("Exported ") for n in app.names()), what="the notice that says where it went")
        with open(path, newline="", encoding="utf-8") as f:
            rows = list(csv.reader(f))
        self.assertEqual(rows[0], HEADER)
        exported = [dict(zip(HEADER, row)) for row in rows[1:]]
        self.assertEqual({r["nickname"] or r["name"] for r in exported}, listed,
                         "the rows that were listed, and none the filters hid (unnamed devices)")
        for r in exported:
            self.assertRegex(r["lastSeen"], r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")
            self.assertEqual(r["favorite"], "false")

    def test_export_from_favorites_writes_the_favorites_not_the_scanners_list(self):
        """Export from the home page's main menu writes the demo's five favorites, under their
        nicknames, although the Scanner hears the whole demo room."""
        folder = scratch("favblue-export-")
        path = os.path.join(folder, "mine.csv")
        with App("--source", "demo") as app:
            app.wait_for(lambda: "Remove Chest freezer from favorites" in app.names("button"), what="the demo's favorites")
            app.key("F10")
            app.wait_for(lambda: any(n.startswith("Export Favorites") for n in app.names("menu item")), what="the main menu")
            node = next(node for node, _, name in app.nodes() if name.startswith("Export Favorites"))
            node.do_action(0)
            app.settle()
            self.save_through_chooser(app, "Export Favorites", path)
            app.wait_for(lambda: os.path.exists(path), what="the exported file")
            app.wait_for(lambda: any(n.startswith("Exported 5 favorites to ") for n in app.names()),
                         what="the notice naming favorites")
        with open(path, newline="", encoding="utf-8") as f:
            rows = list(csv.reader(f))
        self.assertEqual(rows[0], HEADER)
        column = {name: i for i, name in enumerate(HEADER)}
        self.assertEqual(sorted(row[column["address"]] for row in rows[1:]),
                         ["C0:98:E5:49:00:00", "C0:98:E5:49:00:02", "C4:7C:8D:6A:3E:01", "C4:7C:8D:6A:3E:02", "C4:7C:8D:6A:3E:04"],
                         "the five favorites and no other device")
        self.assertEqual(sorted(row[column["nickname"]] for row in rows[1:]), ["", "", "Balcony", "Chest freezer", "Ear Pods 🎧"])

    def test_a_full_disk_says_so_and_leaves_the_older_file_whole(self):
        """A write past `ulimit -f` fails as a full disk does: the dialog says what happened and
        what to do, the older file of that name is untouched, and no partial file is left."""
        folder = scratch("favblue-export-")
        path = os.path.join(folder, "nearby.csv")
        with open(path, "w") as f:
            f.write("older export\n")
        with App("--source", DEMO_CAPTURE, file_size_limit=1024) as app:
            self.open_finished_scanner(app)
            self.choose_in_menu(app, "Export Devices")
            self.save_through_chooser(app, "Export Devices", path)
            app.wait_for(lambda: "Replace" in app.names("button"), what="the chooser's question before replacing")
            app.press("Replace")
            app.wait_for(lambda: "Export Failed" in app.names(), what="the failure")
            message = next(n for n in app.names("label") if "could not be saved" in n)
            self.assertIn("“nearby.csv” could not be saved: File too large.", message)
            self.assertIn("Nothing was lost", " ".join(app.names("label")), "and what to do next")
            app.key("Escape")
            app.wait_for(lambda: "Export Failed" not in app.names(), what="the dialog closed")
            self.assertGreaterEqual(len(self.listed_devices(app)), 5, "the list is unchanged")
        with open(path) as f:
            self.assertEqual(f.read(), "older export\n", "the older file stays whole")
        self.assertEqual(os.listdir(folder), ["nearby.csv"], "no partial file is left beside it")

    def test_a_typed_json_name_writes_a_json_array_with_favblue_scans_keys(self):
        folder = scratch("favblue-export-")
        path = os.path.join(folder, "devices.json")
        with App("--source", DEMO_CAPTURE) as app:
            self.open_finished_scanner(app)
            listed = self.listed_devices(app)
            self.choose_in_menu(app, "Export Devices")
            self.save_through_chooser(app, "Export Devices", path)
            app.wait_for(lambda: os.path.exists(path), what="the exported file")
        with open(path, encoding="utf-8") as f:
            devices = json.load(f)
        self.assertIsInstance(devices, list)
        self.assertEqual({d["name"] for d in devices}, listed)
        for d in devices:
            self.assertEqual(set(d), JSON_KEYS)

    @unittest.skipUnless(shutil.which("btmon") and shutil.which("tshark"), "needs btmon and tshark")
    def test_record_for_three_seconds_makes_a_capture_btmon_tshark_and_favblue_scan_read(self):
        folder = scratch("favblue-record-")
        path = os.path.join(folder, "scan.btsnoop")
        # The demo ends after a few seconds; this calm capture goes on for 15 minutes, so the scan outlasts
        # the recording however slowly the accessibility tree is walked on a busy machine.
        calm = os.path.join(folder, "calm.btsnoop")
        write_calm_capture(calm)
        with App("--source", f"btsnoop:{calm}") as app:
            app.wait_for(lambda: "Add New Devices" in app.names("button"), what="the home page")
            app.press("Add New Devices")
            app.wait_for(lambda: any(n.startswith("Details for ") for n in app.names("button")), what="devices")
            self.choose_in_menu(app, "Record")
            self.save_through_chooser(app, "Record Scan", path, button="Record")
            app.wait_for(lambda: any(n.endswith("· Recording") for n in app.names()), what="the subtitle saying it records")
            time.sleep(3)
            listed = self.listed_devices(app)
            self.choose_in_menu(app, "Record")
            self.assertTrue(os.path.getsize(path) > 16, "packets were written while recording")
            # The notice naming the file lasts 5 s, less than a walk of the tree can take here; the
            # view model's tests check it. The subtitle is what stays.
            names = app.names()
            self.assertFalse(any(n.endswith("· Recording") for n in names))
            self.assertIn("Stop Scanning", app.names("button"), "scanning goes on without the recording")
        for tool in (["btmon", "-r", path], ["tshark", "-r", path]):
            run = subprocess.run(tool, capture_output=True, text=True, timeout=60)
            self.assertEqual(run.returncode, 0, run.stderr)
            self.assertIn("LE", run.stdout, f"{tool[0]} decodes advertising reports")
            self.assertNotIn("malformed", run.stdout.lower())
        scan = os.environ.get("FAVBLUE_SCAN") or os.path.join(os.path.dirname(os.environ["FAVBLUE_BIN"]), "favblue-scan")
        run = subprocess.run([scan, "--source", f"btsnoop:{path}", "--fast", "--format", "json"],
                             capture_output=True, text=True, timeout=60)
        self.assertEqual(run.returncode, 0, run.stderr)
        recorded = {json.loads(line)["name"] for line in run.stdout.splitlines()}
        self.assertEqual(recorded, listed, "favblue-scan lists the devices the app listed while recording")


if __name__ == "__main__":
    unittest.main()
