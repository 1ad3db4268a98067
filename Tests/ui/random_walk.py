# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""A random walk through the running app: controls activated by their accessibility action and
keys pressed (Tab, arrows, Enter, Escape, Space, Ctrl+Z), in an order a seed decides, so a walk
that failed can be walked again step by step. Now and then it takes the way to a place the walk
has not reached yet (Preferences, a dialog, a device's page, the chat, View Options), then goes
on at random from there. The test runs it for 3 minutes; Benchmarks/walk runs it longer."""

import os
import random
import subprocess
import time

from gi.repository import GLib
from harness import App, Atspi, GtkAtspiCrash

CONTROLS = {"push button", "toggle button", "button", "menu item", "check menu item", "radio menu item",
            "check box", "radio button", "switch", "link", "page tab", "combo box"}
KEYS = ["Tab", "shift+Tab", "Up", "Down", "Left", "Right", "Return", "Escape", "space", "ctrl+z"]
# Controls that end the session (the walk checks the app stays up, not that it can be closed)
# or leave the demo for a source that is not there.
AVOID = {"Quit", "Close", "Minimize", "Maximize", "Restore", "Try Again"}
CHAT_DEVICE = "FavBlue Demo Chat"
# Filters that can leave the chat device out of the Scanner (Hide Unnamed Devices does not).
FILTERS = {"Favorites Only", "Trackers Only", "Only New Devices"}
PLACES = ("Preferences", "a dialog", "a device's page", "the chat", "View Options")


def said_twice(name):
    """Whether `name` says one label twice: with its access key's underscore ("_Cancel Cancel"),
    or as a control's own name and its row's title ("Auto Scan Auto Scan")."""
    words = name.split(" ")
    half = len(words) // 2
    first = " ".join(words[:half])
    # A name of spaces alone splits into empty halves: no label in it, so none said twice.
    return len(words) % 2 == 0 and half > 0 and first.strip() != "" and first.replace("_", "") == " ".join(words[half:])


class Walk:
    def __init__(self, app: App, seed: int, log=print):
        self.app, self.seed, self.rng, self.log = app, seed, random.Random(seed), log
        self.reached = set()
        self.steps = 0

    # MARK: where the walk is

    def look(self):
        """Notes which places show now, from one walk of the tree; no name may be said twice
        ("C_onfirm Confirm", as GTK 4.8 names a mnemonic button left to itself), and no control
        may be named by spaces alone."""
        nodes = self.app.nodes(skip=("Devices nearby",))
        names = {name for _, _, name in nodes}
        twice = sorted((role, name) for _, role, name in nodes if said_twice(name))
        assert not twice, f"seed {self.seed}, step {self.steps}: names said twice: {twice}"
        # A control named by spaces alone is a control with no name for a screen reader.
        blank = sorted((role, name) for _, role, name in nodes if role in CONTROLS and name and not name.strip())
        assert not blank, f"seed {self.seed}, step {self.steps}: controls named by spaces alone: {blank}"
        roles = {role for _, role, _ in nodes}
        frames = self.app.frames()
        if any(f.startswith("Preferences") for f in frames):
            self.reached.add("Preferences")
        if roles & {"dialog", "alert", "file chooser"} or len(frames) > 1:
            self.reached.add("a dialog")
        if "Keywords" in names and "Signal" in names:
            self.reached.add("a device's page")
        if any(role == "text" and name == "Message" for _, role, name in nodes):
            self.reached.add("the chat")
        if "Favorites Only" in names:
            self.reached.add("View Options")
        return nodes

    def alive(self):
        if self.app.proc.poll() is None:
            return
        err = self.app.stderr()
        if self.app.proc.returncode == -11 and "g_variant_new_object_path" in err:
            raise GtkAtspiCrash(err[-2000:])
        at = err.find("crashed:")
        raise AssertionError(f"seed {self.seed}, step {self.steps}: favblue exited with {self.app.proc.returncode}: "
                             f"{err[max(at - 1500, 0):at + 2500] if at >= 0 else err[-4000:]}")

    # MARK: steps

    def key(self, key):
        subprocess.run(["xdotool", "key", "--clearmodifiers", key], check=True, timeout=10)

    def act(self, nodes):
        """Activates one control on show, chosen at random."""
        controls = []
        for node, role, name in nodes:
            if role not in CONTROLS or name in AVOID or not name:
                continue
            states = node.get_state_set()
            if states.contains(Atspi.StateType.SENSITIVE) and states.contains(Atspi.StateType.SHOWING):
                controls.append((node, role, name))
        if not controls:
            return None
        node, role, name = self.rng.choice(controls)
        try:
            node.do_action(0)
        except GLib.Error:
            pass  # it went away between the walk of the tree and the action: a list re-sorted
        return f"{role} {name!r}"

    def step(self):
        self.steps += 1
        nodes = self.look()
        if self.rng.random() < 0.55:
            what = self.act(nodes) or "nothing to press"
        else:
            key = self.rng.choice(KEYS)
            self.key(key)
            what = f"key {key}"
        if os.environ.get("FAVBLUE_WALK_TRACE"):
            # Each step with the time of day, to set beside the app's own timestamped warnings.
            # With where the keyboard is, to tell the page a key acted on.
            try:
                focus = self.app.focused()
            except Exception as error:  # a window closing under the question
                focus = repr(error)
            self.log(f"  {time.strftime('%H:%M:%S')}.{int(time.time() * 1000) % 1000:03d} step {self.steps}: {what}; focus {focus}")
        time.sleep(0.25)
        self.alive()
        return what

    # MARK: ways to the places

    def press_if(self, name, role="button"):
        try:
            node = self.app.find(name, role)
            node.do_action(0)
            time.sleep(0.6)
            return True
        except (AssertionError, GLib.Error):
            return False

    def home(self):
        """Back to the home page: dialogs and menus closed, pages left."""
        for _ in range(8):
            self.key("Escape")
            time.sleep(0.2)
            if not self.press_if("Back") and "Add New Devices" in self.app.names("button", skip=("Devices nearby",)):
                return

    def listed(self, seconds):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if f"Details for {CHAT_DEVICE}" in self.app.names("button"):
                return True
            time.sleep(0.3)
        return False

    def scanner(self):
        """The Scanner, with the chat device in its list: the walk may have hidden it (Hide
        Device, then no Ctrl+Z in time) or ticked a filter that leaves it out."""
        self.home()
        self.press_if("Add New Devices")
        if self.listed(8):
            return
        self.key("ctrl+comma")
        time.sleep(1)
        self.press_if(f"Unhide {CHAT_DEVICE}")
        self.key("Escape")
        if self.listed(3):
            return
        try:
            self.app.click_on("View Options")
            time.sleep(0.6)
            for node, role, name in self.app.nodes():
                if role == "check menu item" and name in FILTERS and node.get_state_set().contains(Atspi.StateType.CHECKED):
                    node.do_action(0)
                    time.sleep(0.6)
        except (AssertionError, GLib.Error):
            pass
        self.key("Escape")
        self.listed(5)

    def go(self, place):
        self.log(f"  seed {self.seed}, step {self.steps}: the way to {place}")
        if place == "Preferences":
            self.home()  # a file chooser left open would take the shortcut
            self.key("ctrl+comma")
        elif place == "View Options":
            self.scanner()
            # A menu button's action does not open its menu under GTK 4.8; a click does.
            try:
                self.app.click_on("View Options")
            except AssertionError:
                pass
        elif place == "a dialog":
            self.scanner()
            self.press_if("Add Kitchen Speaker to favorites") or self.press_if("Remove Kitchen Speaker from favorites")
        elif place in ("a device's page", "the chat"):
            self.scanner()
            self.press_if(f"Details for {CHAT_DEVICE}")
            if place == "the chat":
                self.press_if(f"Connect to {CHAT_DEVICE}")
                deadline = time.monotonic() + 15
                while time.monotonic() < deadline and not self.press_if(f"Open chat with {CHAT_DEVICE}"):
                    time.sleep(0.5)
        time.sleep(0.8)
        self.alive()

    def run(self, seconds, steer_every=10):
        """Walks for `seconds`; every `steer_every` steps, the way to a place not reached yet. On a
        loaded machine three minutes are some ninety steps: every tenth leaves room to steer to
        each of the places that the random steps miss (Preferences is in the main menu alone)."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.steps % steer_every == steer_every - 1:
                missing = [p for p in PLACES if p not in self.reached]
                if missing:
                    place = self.rng.choice(missing)
                    self.go(place)
                    self.look()
                    if place not in self.reached:
                        self.log(f"    not there; showing {sorted(set(self.app.names('button')))[:40]}, windows {self.app.frames()}")
            self.step()
        self.alive()
        return self.steps
