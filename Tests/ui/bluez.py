# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""bluetoothd's stand-in for the UI tests: python-dbusmock's bluez5 template on a private
bus, which FavBlue reaches as its system bus through DBUS_SYSTEM_BUS_ADDRESS."""

import os
import shutil
import signal
import subprocess
import tempfile
import time
import unittest

try:
    import dbus
except ImportError:  # Debian's python3-dbus comes with python3-dbusmock
    dbus = None

DEVICE = "org.bluez.Device1"
ADAPTER = "org.bluez.Adapter1"
PROPS = "org.freedesktop.DBus.Properties"


class MockBlueZ:
    """A private bus with the mock on it; `env` is what FavBlue needs to use it."""

    def __init__(self):
        if dbus is None or shutil.which("dbus-daemon") is None:
            raise unittest.SkipTest("python3-dbusmock and dbus-daemon are needed (meson-helpers/apt-packages.txt)")
        self.dir = tempfile.mkdtemp(prefix="favblue-bluez-")
        self.daemon = subprocess.Popen(
            ["dbus-daemon", "--session", f"--address=unix:path={self.dir}/bus.sock", "--nofork", "--print-address=1"],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.address = self.daemon.stdout.readline().strip()
        self.bus = dbus.bus.BusConnection(self.address)
        self.mock = None
        self.start()

    @property
    def env(self):
        return {"DBUS_SYSTEM_BUS_ADDRESS": self.address}

    def start(self):
        """Starts bluetoothd's stand-in and waits until it owns org.bluez."""
        env = dict(os.environ, DBUS_SESSION_BUS_ADDRESS=self.address)
        self.mock = subprocess.Popen(["/usr/bin/python3", "-m", "dbusmock", "--session", "--template", "bluez5"],
                                     env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 15
        while not self.bus.name_has_owner("org.bluez"):
            if time.monotonic() > deadline:
                raise AssertionError("the bluez5 mock did not claim org.bluez")
            time.sleep(0.05)

    def kill(self):
        """Kills the mock the way a crashing bluetoothd goes."""
        if self.mock and self.mock.poll() is None:
            self.mock.send_signal(signal.SIGKILL)
            self.mock.wait()

    def stop(self):
        self.kill()
        self.daemon.send_signal(signal.SIGKILL)
        self.daemon.wait()
        self.daemon.stdout.close()
        shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()

    # MARK: driving the mock

    def obj(self, path):
        return self.bus.get_object("org.bluez", path)

    def add_adapter(self, name="hci0"):
        return str(self.obj("/org/bluez").AddAdapter(name, "FavBlue test", dbus_interface="org.bluez.Mock"))

    def add_device(self, address, name, adapter="hci0"):
        return str(self.obj("/org/bluez").AddDevice(adapter, address, name, dbus_interface="org.bluez.Mock"))

    def set(self, path, interface, name, value):
        self.obj(path).Set(interface, name, value, dbus_interface=PROPS)

    def get(self, path, interface, name):
        return self.obj(path).Get(interface, name, dbus_interface=PROPS)

    def calls(self, path):
        return [str(call[1]) for call in self.obj(path).GetCalls(dbus_interface="org.freedesktop.DBus.Mock")]

    def load_pairing(self):
        """Pair asks the caller's agent, as bluetoothd does (Tests/Fixtures/dbusmock/bluez_pairing.py)."""
        template = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Fixtures", "dbusmock", "bluez_pairing.py")
        self.obj("/org/bluez").AddTemplate(os.path.abspath(template), dbus.Dictionary({}, signature="sv"),
                                           dbus_interface="org.freedesktop.DBus.Mock")

    def script_pairing(self, device, script, code=0, identity=""):
        """Makes Pair on `device` run `script` (confirm, passkey, display, cancel, silent, reject)."""
        self.obj("/org/bluez").ScriptPairing(device, script, str(code), identity, dbus_interface="org.bluez.Mock")

    def add_chat_service(self, device):
        """Adds FavBlue's chat service to `device` as bluetoothd does after connecting (objects,
        InterfacesAdded, then ServicesResolved); returns the TX and RX characteristics' paths."""
        service, tx, rx = f"{device}/service000a", f"{device}/service000a/char000b", f"{device}/service000a/char000d"
        root = self.obj("/")
        mock = "org.freedesktop.DBus.Mock"
        objects = [
            (service, "org.bluez.GattService1",
             {"UUID": "7e57c000-2c8f-4f3c-9f91-8577e1891234", "Primary": True, "Device": dbus.ObjectPath(device)}, []),
            (tx, "org.bluez.GattCharacteristic1",
             {"UUID": "7e57c001-2c8f-4f3c-9f91-8577e1891234", "Service": dbus.ObjectPath(service),
              "Value": dbus.Array([], signature="y"), "Notifying": False, "Flags": dbus.Array(["notify"], signature="s")},
             [("StartNotify", "", "", "self.UpdateProperties('org.bluez.GattCharacteristic1', {'Notifying': dbus.Boolean(True)})"),
              ("StopNotify", "", "", "")]),
            (rx, "org.bluez.GattCharacteristic1",
             {"UUID": "7e57c002-2c8f-4f3c-9f91-8577e1891234", "Service": dbus.ObjectPath(service),
              "Value": dbus.Array([], signature="y"), "Flags": dbus.Array(["write"], signature="s")},
             [("WriteValue", "aya{sv}", "", "")]),
        ]
        for path, interface, properties, methods in objects:
            properties = dbus.Dictionary(properties, signature="sv")
            root.AddObject(path, interface, properties, dbus.Array(methods, signature="(ssss)"), dbus_interface=mock)
            announced = dbus.Dictionary({interface: properties}, signature="sa{sv}")
            root.EmitSignal("org.freedesktop.DBus.ObjectManager", "InterfacesAdded", "oa{sa{sv}}",
                            dbus.Array([dbus.ObjectPath(path), announced], signature="v"), dbus_interface=mock)
        self.obj(device).UpdateProperties(DEVICE, {"ServicesResolved": True}, dbus_interface=mock)
        return tx, rx

    def written(self, characteristic):
        """The texts written to `characteristic`, oldest first."""
        calls = self.obj(characteristic).GetMethodCalls("WriteValue", dbus_interface="org.freedesktop.DBus.Mock")
        return [bytes(call[1][0]).decode() for call in calls]
