# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""bluetoothd mock for the BlueZ scanning benchmark: python-dbusmock's bluez5
template, plus a storm of RSSI changes sent from inside the mock. These methods
join AddAdapter and AddDevice on the main object (/), interface org.bluez.Mock:

    AddSensors(u devices) -> u
        adapter hci0 unless there is one, then devices "Sensor 0001"… up to
        `devices` in all; returns how many there are.
    StartStorm(u devices, d hz, d seconds)
        AddSensors(devices), then for `seconds` each device's RSSI takes a
        random step `hz` times a second, as Device1 PropertiesChanged, spread
        evenly over time.
    StormStats() -> s
        JSON: emitted, due, elapsed (s), rate (emitted/s), cpu (share of one
        core the mock used), running.

    python3 -m dbusmock --session --template Benchmarks/bluez/storm.py
"""
import json
import random
import time

import dbus
import dbus.lowlevel
from gi.repository import GLib

from dbusmock import mockobject
# Every method of the bluez5 template must be a name here, or the mock does not offer it.
from dbusmock.templates.bluez5 import *  # noqa: F401,F403 pylint: disable=wildcard-import,unused-wildcard-import
from dbusmock.templates import bluez5

BUS_NAME = bluez5.BUS_NAME
MAIN_OBJ = bluez5.MAIN_OBJ
SYSTEM_BUS = bluez5.SYSTEM_BUS
IS_OBJECT_MANAGER = bluez5.IS_OBJECT_MANAGER

ADAPTER = "hci0"
ADAPTER_PATH = "/org/bluez/" + ADAPTER
# A batch every 10 ms (20 changes at 2,000/s): even at the scale of a 16 ms frame.
TICK_MS = 10
# A late tick catches up at most this much; beyond it the mock has fallen behind, and says so.
MAX_CATCH_UP_SECONDS = 0.25

_storm = None


def load(mock, parameters):
    bluez5.load(mock, parameters)


def _address(n):
    return f"C0:30:20:10:{(n >> 8) & 0xFF:02X}:{n & 0xFF:02X}"


def _device_path(n):
    return ADAPTER_PATH + "/dev_" + _address(n).replace(":", "_")


@dbus.service.method(bluez5.BLUEZ_MOCK_IFACE, in_signature="u", out_signature="u")
def AddSensors(self, devices):
    main = mockobject.objects[MAIN_OBJ]
    if ADAPTER_PATH not in mockobject.objects:
        bluez5.AddAdapter(main, ADAPTER, "FavBlue benchmark")
    for n in range(int(devices)):
        if _device_path(n) not in mockobject.objects:
            # Announced with InterfacesAdded, as bluetoothd does when it first hears a device.
            bluez5.AddDevice(main, ADAPTER, _address(n), f"Sensor {n + 1:04d}")
    return dbus.UInt32(sum(1 for p in mockobject.objects if p.startswith(ADAPTER_PATH + "/dev_")))


class Storm:
    """Sends the changes from a GLib timeout of the mock's own main loop: one
    message built and queued per change, with no D-Bus call and no log line."""

    def __init__(self, connection, devices, hz, seconds):
        self.connection = connection
        self.paths = [_device_path(n) for n in range(devices)]
        self.props = [mockobject.objects[p].props[bluez5.DEVICE_IFACE] for p in self.paths]
        self.rng = random.Random(7)
        self.rssi = [self.rng.randint(-95, -40) for _ in self.paths]
        self.rate = devices * hz
        self.seconds = seconds
        self.total = int(self.rate * seconds)
        self.emitted = 0
        self.next = 0
        self.start = time.monotonic()
        self.start_cpu = time.process_time()
        self.end = None
        self.end_cpu = None
        self.no_invalidated = dbus.Array([], signature="s")
        # Steps drawn ahead, so a change costs one list lookup rather than a randint call.
        self.steps = [self.rng.randint(-3, 3) for _ in range(4096)]
        GLib.timeout_add(TICK_MS, self.tick)

    def due(self, now):
        return min(self.total, int((now - self.start) * self.rate))

    def tick(self):
        now = time.monotonic()
        due = self.due(now)
        todo = min(due - self.emitted, int(self.rate * MAX_CATCH_UP_SECONDS) + 1)
        send = self.connection.send_message
        device_iface = bluez5.DEVICE_IFACE
        steps = self.steps
        count = len(self.paths)
        for _ in range(todo):
            i = self.next
            self.next = (i + 1) % count
            rssi = max(-100, min(-30, self.rssi[i] + steps[self.emitted & 4095]))
            self.rssi[i] = rssi
            value = dbus.Int16(rssi, variant_level=1)
            # Kept in the object too, so GetManagedObjects agrees with the signals.
            self.props[i]["RSSI"] = value
            message = dbus.lowlevel.SignalMessage(self.paths[i], dbus.PROPERTIES_IFACE, "PropertiesChanged")
            message.append(device_iface, {"RSSI": value}, self.no_invalidated, signature="sa{sv}as")
            send(message)
            self.emitted += 1
        # Counted as sent only once written to the bus, so a slow daemon shows as a lower rate.
        self.connection.flush()
        if self.emitted >= self.total:
            self.stop()
            return False
        return True

    def stop(self):
        if self.end is None:
            self.end = time.monotonic()
            self.end_cpu = time.process_time()

    def stats(self):
        now = time.monotonic() if self.end is None else self.end
        cpu = time.process_time() if self.end_cpu is None else self.end_cpu
        elapsed = now - self.start
        return {
            "emitted": self.emitted,
            "due": self.due(now),
            "elapsed": elapsed,
            "rate": self.emitted / elapsed if elapsed > 0 else 0.0,
            "target": self.rate,
            "cpu": (cpu - self.start_cpu) / elapsed if elapsed > 0 else 0.0,
            "running": self.end is None,
        }


@dbus.service.method(bluez5.BLUEZ_MOCK_IFACE, in_signature="udd", out_signature="")
def StartStorm(self, devices, hz, seconds):
    global _storm  # pylint: disable=global-statement
    if _storm is not None and _storm.end is None:
        raise dbus.exceptions.DBusException("A storm is already running", name=bluez5.BLUEZ_MOCK_IFACE + ".Busy")
    AddSensors(self, devices)
    _storm = Storm(mockobject.objects[MAIN_OBJ].connection, int(devices), float(hz), float(seconds))


@dbus.service.method(bluez5.BLUEZ_MOCK_IFACE, in_signature="", out_signature="s")
def StormStats(self):
    return json.dumps(_storm.stats() if _storm else {})
