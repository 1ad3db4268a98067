# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""Pairing for python-dbusmock's bluez5 template, loaded on top of it with AddTemplate.

bluez5's own Device1.Pair marks the device paired at once. Real bluetoothd asks the agent
registered by the connection that called Pair, and answers Pair only when pairing is over.
This template does that: AgentManager1.RegisterAgent remembers who registered, and
`org.bluez.Mock.ScriptPairing(device, script, code, identity)` makes that device's Pair ask:

  confirm  RequestConfirmation(code); a yes pairs, a no fails AuthenticationRejected
  passkey  RequestPasskey(); the right code pairs, a wrong one fails AuthenticationFailed
  display  DisplayPasskey(code, 0..6), a key every 1.5 s, then pairs
  cancel   RequestConfirmation(code), then Cancel() after a second; fails AuthenticationCanceled
  silent   DisplayPasskey(code, 0), then pairs after a second without Cancel
  reject   fails AuthenticationRejected at once, asking nothing
  noagent  the behaviour with no agent: fails AuthenticationFailed

On success the device reads Paired and Bonded, and when `identity` is "AA:BB:…/public" or
"…/random", its Address and AddressType change to it in place, as bluetoothd does when the
device's identity key arrives. Each agent call is logged on the device as "Agent.<Method>".
"""

import time

import dbus
import dbus.service
from gi.repository import GLib

from dbusmock import mockobject

BUS_NAME = "org.bluez"
MAIN_OBJ = "/org/bluez"
SYSTEM_BUS = True
DEVICE_IFACE = "org.bluez.Device1"
AGENT_IFACE = "org.bluez.Agent1"
MANAGER_IFACE = "org.bluez.AgentManager1"
MOCK_IFACE = "org.bluez.Mock"
PROPS_IFACE = "org.freedesktop.DBus.Properties"


def load(mock, _parameters):
    manager = mockobject.objects[MAIN_OBJ]
    manager.agent_owners = {}
    manager.default_requested = []

    @dbus.service.method(MANAGER_IFACE, in_signature="os", out_signature="", sender_keyword="sender")
    def register_agent(self, path, capability, sender=None):
        self.call_log.append((int(time.time()), "RegisterAgent", [path, capability]))
        self.agent_owners[str(sender)] = (str(path), str(capability))

    @dbus.service.method(MANAGER_IFACE, in_signature="o", out_signature="", sender_keyword="sender")
    def request_default_agent(self, path, sender=None):
        self.call_log.append((int(time.time()), "RequestDefaultAgent", [path]))
        self.default_requested.append(str(sender))

    manager.methods[MANAGER_IFACE]["RegisterAgent"] = ("os", "", "", register_agent)
    manager.methods[MANAGER_IFACE]["RequestDefaultAgent"] = ("o", "", "", request_default_agent)


def _log(device, name, args=()):
    device.call_log.append((int(time.time()), name, list(args)))


def _finish(device, ok, identity):
    props = {"Paired": dbus.Boolean(True), "Bonded": dbus.Boolean(True)}
    if identity:
        address, kind = identity.split("/")
        props["Address"] = dbus.String(address)
        props["AddressType"] = dbus.String(kind)
    device.paired = True
    for key, value in props.items():
        device.props[DEVICE_IFACE][key] = value
    device.EmitSignal(PROPS_IFACE, "PropertiesChanged", "sa{sv}as", [DEVICE_IFACE, props, []])
    ok()


def _make_pair(script, code, identity):
    @dbus.service.method(DEVICE_IFACE, in_signature="", out_signature="", sender_keyword="sender",
                         async_callbacks=("ok", "err"))
    def pair(self, sender=None, ok=None, err=None):
        _log(self, "Pair")
        manager = mockobject.objects[MAIN_OBJ]
        owner = manager.agent_owners.get(str(sender))

        def fail(name, text="Pairing failed"):
            err(dbus.exceptions.DBusException(text, name="org.bluez.Error." + name))

        if getattr(self, "paired", False):
            return fail("AlreadyExists", "Already Exists")
        if owner is None or script in ("noagent",):
            return fail("AuthenticationFailed", "Authentication Failed")
        if script == "reject":
            return fail("AuthenticationRejected", "Authentication Rejected")
        agent_path = owner[0]
        device_path = dbus.ObjectPath(self.__dbus_object_path__)

        def agent(method, signature, args, on_reply, on_error):
            _log(self, "Agent." + method, args)
            self.connection.call_async(str(sender), agent_path, AGENT_IFACE, method, signature, args,
                                       on_reply, on_error, timeout=120)

        def failed_by(name):
            return lambda _error: fail(name, "Authentication " + name)

        if script == "confirm":
            agent("RequestConfirmation", "ou", [device_path, dbus.UInt32(int(code))],
                  lambda *a: _finish(self, ok, identity), failed_by("AuthenticationRejected"))
        elif script == "passkey":
            def check(value):
                _log(self, "Typed", [int(value)])
                if int(value) == int(code):
                    _finish(self, ok, identity)
                else:
                    fail("AuthenticationFailed", "Authentication Failed")
            agent("RequestPasskey", "o", [device_path], check, failed_by("AuthenticationCanceled"))
        elif script == "display":
            def step(typed):
                agent("DisplayPasskey", "ouq", [device_path, dbus.UInt32(int(code)), dbus.UInt16(typed)],
                      lambda *a: None, lambda *a: None)
                # A key a second and a half, as a person types on a device.
                if typed < 6:
                    GLib.timeout_add(1500, lambda: step(typed + 1) and False)
                else:
                    GLib.timeout_add(1500, lambda: _finish(self, ok, identity) and False)
                return False
            step(0)
        elif script == "silent":
            agent("DisplayPasskey", "ouq", [device_path, dbus.UInt32(int(code)), dbus.UInt16(0)],
                  lambda *a: None, lambda *a: None)
            GLib.timeout_add(1500, lambda: _finish(self, ok, identity) and False)
        elif script == "cancel":
            agent("RequestConfirmation", "ou", [device_path, dbus.UInt32(int(code))],
                  lambda *a: None, lambda *a: None)

            def cancel():
                agent("Cancel", "", [], lambda *a: None, lambda *a: None)
                fail("AuthenticationCanceled", "Authentication Canceled")
                return False
            GLib.timeout_add(1500, cancel)
        else:
            fail("Failed", "Unknown script " + script)

    return pair


@dbus.service.method(MOCK_IFACE, in_signature="ssss", out_signature="")
def ScriptPairing(_self, device_path, script, code, identity):
    """Makes Device1.Pair on `device_path` run `script` (see the module's documentation)."""
    device = mockobject.objects[device_path]
    device.methods[DEVICE_IFACE]["Pair"] = ("", "", "", _make_pair(str(script), str(code), str(identity)))
