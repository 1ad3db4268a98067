# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""Notify When Nearby and Notify When It Leaves: the notifications are read off the session
bus, where python-dbusmock's notification_daemon template serves org.freedesktop.Notifications
(GLib sends there when no org.gtk.Notifications is on the bus), not off the screen."""

import signal
import subprocess
import time
import unittest

from bluez import ADAPTER, DEVICE, MockBlueZ, dbus
from flows import add_from_scanner
from harness import App, Atspi, iso, retry_gtk_atspi_crash

PEER = "Key Finder"
ADDRESS = "C0:98:E5:49:00:09"
SWITCH = "check box"  # how GTK 4.8 names a GtkSwitch to AT-SPI


class MockNotifications:
    """The desktop's notification service, on this test's session bus."""

    def __init__(self):
        self.bus = dbus.SessionBus()
        self.proc = subprocess.Popen(["/usr/bin/python3", "-m", "dbusmock", "--template", "notification_daemon"],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 15
        while not self.bus.name_has_owner("org.freedesktop.Notifications"):
            if time.monotonic() > deadline:
                raise AssertionError("the notification mock did not claim its name")
            time.sleep(0.05)
        self.obj = self.bus.get_object("org.freedesktop.Notifications", "/org/freedesktop/Notifications")

    def sent(self):
        """(id, summary, body) of every Notify, oldest first; the id is the one the mock returned."""
        calls = self.obj.GetMethodCalls("Notify", dbus_interface="org.freedesktop.DBus.Mock")
        return [(int(args[1]), str(args[3]), str(args[4])) for _, args in calls]

    def shown(self):
        """(id, summary, body) of every Notify with the id the mock gave back: the one it asked
        to replace, else the next of its count from 1."""
        out, next_id = [], 1
        for replaces, summary, body in self.sent():
            if replaces:
                out.append((replaces, summary, body))
            else:
                out.append((next_id, summary, body))
                next_id += 1
        return out

    def click(self, notification_id):
        """What a click on the notification's body sends."""
        self.obj.EmitSignal("org.freedesktop.Notifications", "ActionInvoked", "us",
                            [dbus.UInt32(notification_id), "default"], dbus_interface="org.freedesktop.DBus.Mock")

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        self.proc.wait()


@retry_gtk_atspi_crash
class PresenceNotificationTests(unittest.TestCase):
    def test_a_favorite_coming_and_going_sends_one_quiet_notification_each_and_a_click_opens_it(self):
        notifications = MockNotifications()
        self.addCleanup(notifications.stop)
        with MockBlueZ() as bluez:
            bluez.add_adapter()
            device = bluez.add_device(ADDRESS, PEER)
            with App("--source", "bluez", env=bluez.env) as app:
                app.wait_for(lambda: "Add New Devices" in app.names("button"), what="the home page")
                app.press("Add New Devices")
                app.wait_for(lambda: f"Add {PEER} to favorites" in app.names("button"), what="the device")
                add_from_scanner(app, PEER, "Keys")
                app.press("Details for Keys")
                app.wait_for(lambda: "Notify When Nearby" in app.names(), what="the notification switches")
                switches = ("Notify When Nearby", "Notify When It Leaves")
                for name in switches:
                    app.find(name, role=SWITCH).do_action(0)
                app.wait_for(lambda: all(app.find(n, role=SWITCH).get_state_set().contains(Atspi.StateType.CHECKED) for n in switches),
                             what="both switches on")
                self.assertEqual(notifications.sent(), [], "switching on says nothing about a device already here")

                # Heard a few more times, strongly: it has come near.
                for rssi in (-60, -61, -59):
                    bluez.set(device, DEVICE, "RSSI", dbus.Int16(rssi))
                    time.sleep(0.3)
                app.wait_for(lambda: len(notifications.sent()) >= 1, what="the nearby notification")
                nid, summary, body = notifications.sent()[0]
                self.assertEqual(summary, f"{iso('Keys')} is nearby")
                self.assertNotIn("Keys", body, "the device's name stays out of the body, which may be markup")

                # A few more readings at the edge of range do not make it come and go again.
                for rssi in (-88, -92, -87):
                    bluez.set(device, DEVICE, "RSSI", dbus.Int16(rssi))
                    time.sleep(0.3)
                self.assertEqual(len(notifications.sent()), 1, "no flapping at the edge")

                # bluetoothd drops it: it left.
                bluez.obj("/org/bluez/hci0").RemoveDevice(dbus.ObjectPath(device), dbus_interface=ADAPTER)
                app.wait_for(lambda: len(notifications.sent()) >= 2, what="the leaving notification")
                self.assertEqual(notifications.sent()[1][1], f"{iso('Keys')} left")
                self.assertEqual(len(notifications.sent()), 2)

                app.press("Back")
                app.press("Back")
                app.wait_for(lambda: "Back" not in app.names("button"), what="the home page")
                notifications.click(notifications.sent()[1][0])
                app.wait_for(lambda: "Notify When Nearby" in app.names(), what="the device's page, opened by the click")


if __name__ == "__main__":
    unittest.main()
