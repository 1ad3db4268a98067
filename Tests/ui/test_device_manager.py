# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""The Device Manager on the real app, over our own HCI host, against a Bumble board with
MCUmgr's SMP service (smp_device.py): the slots in words, Echo with its round trip, a file
that is no image refused before a byte goes out, and Update Firmware in Test and Confirm:
the image goes up, the board restarts into it, comes back, is confirmed, and the page shows
the new version running. Images are made with imgtool, as MCUboot's users sign them."""

import fcntl
import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
import unittest
import zipfile

from harness import App, iso, retry_gtk_atspi_crash, scratch
from peers import ROOT, ChatPeer, bumble_python

BOARD = "Zephyr SMP"
SMP_DEVICE = os.path.join(ROOT, "Tests", "PeerTests", "peers", "smp_device.py")


class SMPBoard(ChatPeer):
    """smp_device.py on its own virtual air, FavBlue's controller at `source`."""

    def __init__(self, *args):
        import peers
        saved = peers.CHAT_PEER
        peers.CHAT_PEER = SMP_DEVICE
        try:
            super().__init__(*args)
        finally:
            peers.CHAT_PEER = saved


class ZephyrServer:
    """Zephyr's own SMP server (smp_svr for native_sim, from PyPI smpclient's source distribution,
    fetched by meson-helpers/bootstrap) on UDP port 1337: one at a time, as the Swift tests share
    the port (a lock file), in a folder of its own so its flash starts empty."""

    def __init__(self):
        venv = os.environ.get("FAVBLUE_VENV") or os.path.join(ROOT, ".venv-peers")
        exe = os.path.join(venv, "smp-server", "zephyr_4.4.0_smp_server_0eae053d_native_sim_udp.exe")
        if not os.access(exe, os.X_OK):
            raise AssertionError(f"no Zephyr SMP server at {exe}: run meson-helpers/bootstrap")
        self.lock = open("/tmp/favblue-smp-udp.lock", "a+")
        fcntl.flock(self.lock, fcntl.LOCK_EX)
        self.folder = tempfile.mkdtemp(prefix="smp-server-")
        self.log = open(os.path.join(self.folder, "log"), "wb")
        self.process = subprocess.Popen([exe], cwd=self.folder, stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.time() + 10
        while b"Started" not in self.output():
            if time.time() > deadline:
                raise AssertionError("smp_svr never started: " + self.output().decode(errors="replace"))
            time.sleep(0.02)

    def output(self):
        with open(self.log.name, "rb") as f:
            return f.read()

    def stop(self):
        # native_sim takes SIGTERM as a signal to its simulated board, and goes on.
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()
        self.log.close()
        shutil.rmtree(self.folder, ignore_errors=True)
        fcntl.flock(self.lock, fcntl.LOCK_UN)
        self.lock.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


def signed_image(folder, version, size=40_000):
    """An MCUboot image of `size` bytes at `version`, signed by imgtool (hash TLV only)."""
    raw, signed = os.path.join(folder, "app.bin"), os.path.join(folder, f"app-{version}.bin")
    with open(raw, "wb") as f:
        f.write(bytes((i * 13 + 5) % 256 for i in range(size)))
    imgtool = os.path.join(os.path.dirname(bumble_python()), "imgtool")
    subprocess.run([imgtool, "sign", "--header-size", "0x200", "--align", "4", "--version", version,
                    "--slot-size", "0x80000", "--pad-header", raw, signed], check=True, capture_output=True, timeout=60)
    return signed


def dfu_package(path, images):
    """A dfu_application.zip as the nRF Connect SDK writes it: deflated members, and a manifest
    naming each (image_index as text, file name, bytes)."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("manifest.json", json.dumps({"format-version": 1, "files": [
            {"type": "application", "image_index": index, "file": name, "size": len(data)} for index, name, data in images]}))
        for _, name, data in images:
            z.writestr(name, data)


def connect_to_board(app):
    """From the home page to the board's page, connected."""
    app.wait_for(lambda: "Add New Devices" in app.names("button"), what="the home page")
    app.press("Add New Devices")
    app.wait_for(lambda: BOARD in app.names("label"), timeout=30, what="the board in the scanner")
    app.press(f"Details for {BOARD}")
    app.wait_for(lambda: f"Connect to {BOARD}" in app.names("button"), what="Connect on the detail page")
    app.press(f"Connect to {BOARD}")


def open_device_manager(app):
    connect_to_board(app)
    app.wait_for(lambda: "Slot 0" in app.names(), timeout=30, what="the Device Manager's slots")


def choose_file(app, path, title="Choose a Firmware Image"):
    """GTK's own chooser (no portal under Xvfb): a "/" typed into it opens its location entry,
    where the rest of the path goes, and Enter opens the file."""
    app.wait_for(lambda: title in app.frames(), what="the file chooser")
    found = subprocess.run(["xdotool", "search", "--sync", "--name", title],
                           capture_output=True, text=True, timeout=20).stdout.split()
    window = found[-1]
    subprocess.run(["xdotool", "windowfocus", "--sync", window], check=False, timeout=10)
    subprocess.run(["xdotool", "type", "--window", window, "--delay", "5", path], check=True, timeout=30)
    app.settle()
    subprocess.run(["xdotool", "key", "--window", window, "Return"], check=True, timeout=10)


def dialog_window(title_part=None):
    """The X window of the dialog on top (the newest mapped window of the app)."""
    found = subprocess.run(["xdotool", "search", "--onlyvisible", "--class", "favblue"],
                           capture_output=True, text=True, timeout=20).stdout.split()
    return found[-1]


def choose_mode(app, mode):
    """Picks `mode` in the update question's Mode list with the keyboard: Shift+Tab back to the
    list, Space opens it, Down to the mode, Enter takes it."""
    modes = ["Test and Confirm", "Confirm Only", "Test Only"]
    window = dialog_window()
    for _ in range(6):
        if app.focused_now()[1] == "Mode":
            break
        subprocess.run(["xdotool", "key", "--window", window, "shift+Tab"], check=True, timeout=10)
        app.settle()
    assert app.focused_now()[1] == "Mode", f"Shift+Tab never reached Mode: {app.focused_now()}"
    keys = ["space"] + ["Down"] * modes.index(mode) + ["Return"]
    for key in keys:
        subprocess.run(["xdotool", "key", "--window", window, key], check=True, timeout=10)
        app.settle()
    app.wait_for(lambda: mode in app.names(), what=f"{mode} chosen")


@retry_gtk_atspi_crash
class DeviceManagerTests(unittest.TestCase):
    def test_slots_echo_and_a_refused_file(self):
        folder = scratch("favblue-firmware-")
        not_an_image = os.path.join(folder, "notes.bin")
        with open(not_an_image, "wb") as f:
            f.write(b"not firmware at all, only words" * 10)
        with SMPBoard() as board, App("--source", board.source) as app:
            open_device_manager(app)
            self.assertIn(iso("1.0.0") + " · Running, confirmed", app.names(), "the slot's version and state in words")
            self.assertIn("Copy the hash of Slot 0", app.names("button"))
            self.assertIn(iso("MCUboot"), app.names(), "the bootloader the board names")
            self.assertIn("Connected", app.names("label"))
            self.assertNotIn("Connected. This device has no chat.", app.names(), "a board's page points out no missing chat")
            self.assertIn("4 × 512 bytes", app.names(), "MCUmgr's buffers")
            for absent in ("Statistics", "Shell", "Files"):
                self.assertNotIn(absent, app.names(), "a group the board lacks is not shown, and is no error")
            app.press("Send Echo")
            app.wait_for(lambda: any(n.startswith("“" + iso("hello") + "” came back in ") and n.endswith(" ms.") for n in app.names()),
                         what="the echo and its round trip")
            app.press("Update Firmware…")
            choose_file(app, not_an_image)
            app.wait_for(lambda: "This File Cannot Be Sent" in app.names(), what="the refusal")
            self.assertTrue(any(n.startswith(iso("notes.bin") + " — ") for n in app.names()), app.names())
            app.press("Close")
            self.assertEqual(board.count("UPLOAD"), 0, "no byte of a file that is no image went out")

    def test_erase_asks_first_and_cancel_changes_nothing(self):
        """Erase Spare Slot… names what goes; Cancel leaves the board as it was and gives the
        keyboard back to the button; Erase erases."""
        with SMPBoard("--spare") as board, App("--source", board.source) as app:
            open_device_manager(app)
            app.wait_for(lambda: app.is_sensitive("Erase Spare Slot…"), what="the board's answers in")
            app.press("Erase Spare Slot…")
            app.wait_for(lambda: "Erase the Spare Slot?" in app.names(), what="the question")
            self.assertIn("The image that does not run is removed from the device. The running one stays.", app.names())
            app.press("Cancel")
            app.wait_for(lambda: app.focused() == ("push button", "Erase Spare Slot…"), what="the keyboard back on the button")
            self.assertEqual(board.count("ERASE"), 0, "Cancel erased nothing")
            app.press("Erase Spare Slot…")
            app.wait_for(lambda: "Erase the Spare Slot?" in app.names(), what="the question again")
            app.press("Erase")
            board.wait_for("ERASE", timeout=15)
            app.wait_for(lambda: "Slot 1" not in app.names(), what="the spare slot gone from the list")

    def test_a_board_that_answers_on_a_paired_link_only_is_paired_first_then_opens(self):
        """nRF Desktop's setting: the SMP characteristic needs an encrypted link. The section
        says pairing comes first, in words, and Pair and Open pairs, then shows the slots."""
        with SMPBoard("--encrypted") as board, App("--source", board.source) as app:
            connect_to_board(app)
            said = "This device opens its Device Manager on a paired link only. Pair it, and the Device Manager opens."
            app.wait_for(lambda: said in app.names("label"), timeout=30, what="why the Device Manager waits")
            self.assertNotIn("Slot 0", app.names())
            self.assertEqual(board.count("UPLOAD"), 0)
            app.press("Pair and Open")
            app.wait_for(lambda: "Slot 0" in app.names(), timeout=40, what="the slots, once paired")
            self.assertNotIn(said, app.names("label"))
            self.assertIn(iso("1.0.0") + " · Running, confirmed", app.names())

    def test_update_in_test_and_confirm_runs_the_new_version(self):
        folder = scratch("favblue-firmware-")
        image = signed_image(folder, "1.2.0")
        with SMPBoard("--erase-delay", "0.5") as board, App("--source", board.source) as app:
            open_device_manager(app)
            app.press("Update Firmware…")
            choose_file(app, image)
            app.wait_for(lambda: "Update to 1.2.0?" in app.names(), what="the question, with the file's version")
            body = next(n for n in app.names() if n.startswith(iso("app-1.2.0.bin") + "\n"))
            self.assertRegex(body, "^" + iso("app-1.2.0.bin") + r"\nVersion 1\.2\.0 · \d+(\.\d)? KiB · Hash [0-9a-f]{8}…$")
            self.assertIn("Test and Confirm", app.names(), "the default mode")
            app.press("Update")
            # While the board restarts, the update says so, and the connection tells no failure beside it.
            app.wait_for(lambda: "Waiting for the device to come back…" in app.names(), timeout=90, what="the wait for the board")
            during = app.names("label")
            self.assertEqual([n for n in during if n.startswith("Disconnected")], [], "the restart asked for is no failure")
            app.wait_for(lambda: "Now running 1.2.0" in app.names(), timeout=90, what="the new version running")
            board.wait_for("CONFIRM")
            board.wait_for("RUNNING 1.2.0")
            app.wait_for(lambda: iso("1.2.0") + " · Running, confirmed" in app.names(), timeout=30, what="the slots listed again")


    def test_a_dropped_link_goes_on_where_the_board_stopped_in_confirm_only(self):
        """The board goes out of reach half-way: the page says so and waits, FavBlue connects
        again and goes on from the board's offset (not from the start), then Confirm Only
        marks the image permanent and the board runs it after its restart."""
        folder = scratch("favblue-firmware-")
        image = signed_image(folder, "2.0.0", size=60_000)
        with SMPBoard("--drop-at", "20000") as board, App("--source", board.source) as app:
            open_device_manager(app)
            app.press("Update Firmware…")
            choose_file(app, image)
            app.wait_for(lambda: "Update to 2.0.0?" in app.names(), what="the question")
            choose_mode(app, "Confirm Only")
            self.assertIn("The device restarts into the new image and keeps it, unchecked.", app.names())
            app.press("Update")
            board.wait_for("DROPPED", timeout=60)
            app.wait_for(lambda: "Now running 2.0.0" in app.names(), timeout=120, what="the new version running")
            uploads = [int(line.split()[1]) for line in board.lines if line.startswith("UPLOAD ")]
            first_after_drop = board.lines.index("DROPPED")
            self.assertTrue(any(line.startswith("PERMANENT ") for line in board.lines), board.lines)
            self.assertNotIn("CONFIRM", board.lines, "Confirm Only confirms nothing after the restart")
            self.assertEqual(uploads, sorted(uploads), "the board took every part once, in order: nothing started again")
            self.assertEqual(uploads[-1], os.path.getsize(image))
            self.assertGreater(len([l for l in board.lines[first_after_drop:] if l.startswith("UPLOAD ")]), 0)


    def test_a_network_device_shows_statistics_runs_the_shell_and_moves_files(self):
        """Zephyr's own smp_svr over UDP, opened from the main menu: its statistics, a shell
        command's output, a file uploaded and downloaded the same; a build without the image
        group shows no slots and offers no firmware update, without calling that an error."""
        folder = scratch("favblue-files-")
        local = os.path.join(folder, "settings.txt")
        with open(local, "w") as f:
            f.write("<b>bold?</b> line one\n" * 200)
        back = os.path.join(folder, "back.txt")
        with ZephyrServer(), App("--source", "demo") as app:
            app.wait_for(lambda: "Main Menu" in app.names("button"), what="the home page")
            app.key("F10")
            app.wait_for(lambda: "Connect to a Network Device…" in app.names("menu item"), what="the main menu")
            app.click_menu_item("Connect to a Network Device…")
            app.wait_for(lambda: "Connect to a Network Device" in app.names(), what="the question")
            self.assertFalse(app.is_sensitive("Connect"), "nothing typed, nothing to connect to")
            app.find("Address", "text").set_text_contents("127.0.0.1:99999")
            app.wait_for(lambda: "The port after the colon must be a number from 1 to 65535, such as 1337." in app.names(),
                         what="the port refused as it is typed")
            self.assertFalse(app.is_sensitive("Connect"))
            app.find("Address", "text").set_text_contents("127.0.0.1")
            app.wait_for(lambda: app.is_sensitive("Connect"), what="Connect once the address reads")
            app.press("Connect")
            app.wait_for(lambda: "smp_svr_stats" in [n.strip("\u2068\u2069") for n in app.names()], timeout=20, what="the statistics")
            names = app.names()
            self.assertIn(iso("smp_svr_stats"), names)
            self.assertNotIn("Slot 0", names, "this build has no image group")
            self.assertNotIn("Update Firmware…", app.names("button"))
            self.assertFalse(any(n.startswith("The device’s Device Manager did not answer") for n in names), names)
            self.assertIn("2 × 2,048 bytes", names, "smp_svr's buffers, as its manifest says")

            app.find("Command", "text").set_text_contents("kernel uptime")
            app.press("Run the Command")
            app.wait_for(lambda: any(n.startswith("$ kernel uptime\nUptime: ") for n in app.names()), what="the command's output")

            app.find("Path on the Device", "text").set_text_contents("/lfs1/settings.txt")
            app.press("Upload a File…")
            choose_file(app, local, title="Choose a File to Upload")
            app.wait_for(lambda: iso("/lfs1/settings.txt") + " is on the device (4.3 KiB)." in app.names(), timeout=30,
                         what="the upload done")
            app.press("Download the File…")
            app.wait_for(lambda: "Save the Device’s File" in app.frames(), what="the save chooser")
            entry = app.find("Name:", role="text")
            entry.set_text_contents(back)
            app.settle()
            app.press("Save")
            app.wait_for(lambda: iso("/lfs1/settings.txt") + " was saved (4.3 KiB)." in app.names(), timeout=30,
                         what="the download done")
        with open(local, "rb") as a, open(back, "rb") as b:
            self.assertEqual(a.read(), b.read(), "the file came back as it went")


    def test_the_demo_board_updates_in_german_with_every_control_named_once(self):
        """The demo's board, in German: its Device Manager's controls each named once, and the
        whole update with the image the demo ships, to the new version running and confirmed."""
        image = os.path.join(ROOT, "data", "demo-board-1.1.0.bin")
        with App("--source", "demo", lang="de") as app:
            app.wait_for(lambda: "Neue Geräte hinzufügen" in app.names("button"), what="the home page")
            app.press("Neue Geräte hinzufügen")
            app.wait_for(lambda: "FavBlue Demo Board" in app.names("label"), timeout=30, what="the demo board")
            app.press("Details zu FavBlue Demo Board")
            app.wait_for(lambda: "Mit FavBlue Demo Board verbinden" in app.names("button"), what="Connect")
            app.press("Mit FavBlue Demo Board verbinden")
            app.wait_for(lambda: "Slot 0" in app.names(), timeout=30, what="the board's slots")
            self.assertIn(iso("1.0.0") + " · Läuft, bestätigt", app.names())
            buttons = app.names("button")
            for control in ("Firmware aktualisieren …", "Neu starten …", "Ersatz-Slot löschen …", "Echo senden",
                            "Hash von Slot 0 kopieren"):
                self.assertEqual(buttons.count(control), 1, f"{control} is named once: {buttons}")
            app.press("Firmware aktualisieren …")
            choose_file(app, image, title="Firmware-Abbild wählen")
            app.wait_for(lambda: "Auf 1.1.0 aktualisieren?" in app.names(), what="the question")
            self.assertIn("Testen und bestätigen", app.names())
            app.press("Aktualisieren")
            app.wait_for(lambda: "Jetzt läuft 1.1.0" in app.names(), timeout=90, what="the new version running")
            app.wait_for(lambda: iso("1.1.0") + " · Läuft, bestätigt" in app.names(), timeout=30, what="the slots again")
            self.assertIn(iso("1.0.0") + " · Startfähig", app.names(), "the old image waits in the spare slot")


    def test_an_nrf_connect_package_is_read_and_one_with_images_numbered_twice_is_refused(self):
        """The nRF Connect SDK's dfu_application.zip (deflated, its manifest naming the image)
        asks as its image does; a package whose manifest gives two images one number is refused
        in words before any byte."""
        folder = scratch("favblue-dfu-")
        with open(os.path.join(ROOT, "data", "demo-board-1.1.0.bin"), "rb") as f:
            image = f.read()
        one, twice = os.path.join(folder, "dfu_application.zip"), os.path.join(folder, "twice.zip")
        dfu_package(one, [("0", "app_update.bin", image)])
        dfu_package(twice, [("0", "app.bin", image), ("0", "net.bin", image)])
        with App("--source", "demo") as app:
            app.wait_for(lambda: "Add New Devices" in app.names("button"), what="the home page")
            app.press("Add New Devices")
            app.wait_for(lambda: "FavBlue Demo Board" in app.names("label"), timeout=30, what="the demo board")
            app.press("Details for FavBlue Demo Board")
            app.press("Connect to FavBlue Demo Board")
            app.wait_for(lambda: "Slot 0" in app.names(), timeout=30, what="the board's slots")
            app.press("Update Firmware…")
            choose_file(app, one)
            app.wait_for(lambda: "Update to 1.1.0?" in app.names(), what="the package's image, asked about")
            self.assertTrue(any(n.startswith(iso("dfu_application.zip") + "\nVersion 1.1.0 · ") for n in app.names()), app.names())
            app.press("Cancel")
            app.press("Update Firmware…")
            choose_file(app, twice)
            app.wait_for(lambda: "This File Cannot Be Sent" in app.names(), what="the refusal")
            self.assertIn(iso("twice.zip") + " — The package's manifest gives its images numbers no MCUboot device has: "
                          "each image needs its own number, from 0 to 3.", app.names())

    def test_a_package_for_two_cores_updates_each_core_in_one_restart(self):
        """An nRF5340's dfu_application.zip, as the nRF Connect SDK lists it (the network core's
        image first): the question lists both images, each goes up to its own image number,
        both are tested, one restart runs both, and both are confirmed."""
        folder = scratch("favblue-dfu-")
        app_image, net_image = signed_image(folder, "2.0.0"), signed_image(folder, "1.5.0", size=20_000)
        package = os.path.join(folder, "dfu_application.zip")
        with open(app_image, "rb") as a, open(net_image, "rb") as n:
            dfu_package(package, [("1", "net_core_app_update.bin", n.read()), ("0", "app_update.bin", a.read())])
        with SMPBoard("--cores", "2") as board, App("--source", board.source) as app:
            connect_to_board(app)
            app.wait_for(lambda: "Image 0, Slot 0" in app.names() and "Image 1, Slot 0" in app.names(), timeout=30,
                         what="each core's slot")
            app.press("Update Firmware…")
            choose_file(app, package)
            app.wait_for(lambda: "Update to 2.0.0?" in app.names(), what="the question, with the application's version")
            body = next(n for n in app.names() if n.startswith(iso("dfu_application.zip") + "\n"))
            self.assertRegex(body, "^" + iso("dfu_application.zip") + r"\nImage 0: Version 2\.0\.0 · \d+(\.\d)? KiB · Hash [0-9a-f]{8}…"
                             r"\nImage 1: Version 1\.5\.0 · \d+(\.\d)? KiB · Hash [0-9a-f]{8}…$")
            app.press("Update")
            app.wait_for(lambda: "Now running 2.0.0" in app.names(), timeout=120, what="the new version running")
            for line in ("RUNNING 2.0.0", "RUNNING 1.5.0 image 1", "CONFIRM image 1"):
                board.wait_for(line)
            self.assertIn("CONFIRM", board.lines, "the application's image confirmed too")
            self.assertEqual([l.split()[0] for l in board.lines if l.startswith(("TEST ", "IMAGE "))], ["IMAGE", "IMAGE", "TEST", "TEST"],
                             "both images up, then both marked")
            self.assertTrue(any(l.startswith("IMAGE 2.0.0 ") and not l.endswith("image 1") for l in board.lines), board.lines)
            self.assertTrue(any(l.startswith("IMAGE 1.5.0 ") and l.endswith(" image 1") for l in board.lines), board.lines)
            self.assertEqual(board.count("RESET"), 1, "one restart runs both")
            app.wait_for(lambda: app.names().count(iso("2.0.0") + " · Running, confirmed") == 1
                         and app.names().count(iso("1.5.0") + " · Running, confirmed") == 1, timeout=30, what="both cores' slots")


if __name__ == "__main__":
    unittest.main()
