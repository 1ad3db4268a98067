# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""Starts the real FavBlue binary on the test display and drives it the way a
screen reader or a user's automation would: through the AT-SPI tree, with real
key presses (xdotool) and real screenshots (ImageMagick's import)."""

import atexit
import os
import resource
import shutil
import signal
import subprocess
import tempfile
import time
import unittest

import gi

gi.require_version("Atspi", "2.0")
from gi.repository import Atspi  # noqa: E402

from atspi_tree import a11y_connection, named_now, walk_tree  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# The demo's capture as a plain replay, which ends ("Replay finished") and then keeps its list
# still; the demo itself plays it again and again.
DEMO_CAPTURE = "btsnoop:" + os.path.join(ROOT, "data", "demo.btsnoop")


def binary():
    path = os.environ.get("FAVBLUE_BIN") or os.path.join(ROOT, ".build", "debug", "favblue")
    if not os.path.exists(path):
        raise unittest.SkipTest(f"no favblue binary at {path}")
    return path


class GtkAtspiCrash(AssertionError):
    """GTK 4.8's AT-SPI code crashed while the tree was walked during a teardown."""


def retry_gtk_atspi_crash(cls):
    """Runs a test again (twice at most) when GTK 4.8's AT-SPI bridge crashed under it (it builds a
    NULL object path for a widget being torn down); says so on stderr, never hides it."""
    for name in [n for n in dir(cls) if n.startswith("test_")]:
        original = getattr(cls, name)

        def wrapper(self, _original=original, _name=name):
            import sys
            for attempt in range(3):
                try:
                    return _original(self)
                except GtkAtspiCrash:
                    if attempt == 2:
                        raise
                    print(f"\nWARNING: {_name}: GTK AT-SPI crash (g_variant_new_object_path); retrying",
                          file=sys.stderr)
        setattr(cls, name, wrapper)
    return cls


_scratch_root = None


def scratch(prefix="favblue-ui-"):
    """A new folder for one test's data. All of a test process's folders sit under one root,
    removed when the process exits, so runs leave nothing behind in /tmp."""
    global _scratch_root
    if _scratch_root is None:
        _scratch_root = tempfile.mkdtemp(prefix="favblue-tests-")
        atexit.register(shutil.rmtree, _scratch_root, True)
    return tempfile.mkdtemp(prefix=prefix, dir=_scratch_root)


def _limit_file_size(size):
    """For the child only: `ulimit -f` in bytes, with SIGXFSZ ignored so a write past it fails
    with EFBIG, as a full disk fails a write, instead of killing the process."""
    def apply():
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    return apply


class App:
    """One running favblue process with its own data, settings and language."""

    def __init__(self, *args, lang=None, splash_ms=0, env=None, storage="memory", home=None, file_size_limit=None):
        self.home = home or scratch()
        self.env = dict(os.environ)
        for key in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"):
            self.env[key] = os.path.join(self.home, key.lower())
        self.env["GSETTINGS_BACKEND"] = "keyfile"
        if lang == "de":
            # gettext ignores LANGUAGE under the C locale.
            self.env.update(LANGUAGE="de", LANG="de_DE.UTF-8", LC_ALL="de_DE.UTF-8")
        else:
            self.env.update(LANGUAGE="en", LANG="C.UTF-8", LC_ALL="C.UTF-8")
        self.env.update(env or {})
        self.args = [binary(), "--splash-ms", str(splash_ms), "--storage", storage, *args]
        self.started = time.monotonic()
        # stderr goes to a file so a crash report is never lost in an unread pipe.
        self.stderr_path = os.path.join(self.home, "stderr.log")
        self._stderr = open(self.stderr_path, "wb")
        self.proc = subprocess.Popen(self.args, env=self.env, stdout=subprocess.DEVNULL, stderr=self._stderr,
                                     preexec_fn=_limit_file_size(file_size_limit) if file_size_limit else None)
        self._accessible = None

    # MARK: lifetime

    def close(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self._stderr.close()

    def stderr(self):
        with open(self.stderr_path, encoding="utf-8", errors="replace") as f:
            return f.read()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # MARK: accessibility tree

    def accessible(self, timeout=20):
        """The application's AT-SPI root, once it has a window."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                err = self.stderr()
                if self.proc.returncode == -11 and "g_variant_new_object_path" in err:
                    raise GtkAtspiCrash(err[-2000:])
                at = err.find("crashed:")
                raise AssertionError(f"favblue exited with {self.proc.returncode}: {err[max(at - 1500, 0):at + 2500] if at >= 0 else err[-4000:]}")
            desktop = Atspi.get_desktop(0)
            for i in range(desktop.get_child_count()):
                app = desktop.get_child_at_index(i)
                try:
                    if app and app.get_process_id() == self.proc.pid and app.get_child_count() > 0:
                        self._accessible = app
                        return app
                except gi.repository.GLib.Error:
                    continue
            time.sleep(0.1)
        raise AssertionError("favblue never showed a window in the accessibility tree")

    def nodes(self, skip=()):
        """Every showing node as (Node, role name, raw name, as a screen reader gets it); the subtrees of nodes named
        in `skip` (a long device list) are left out, so a short-lived notice is reached in time."""
        root = self.accessible()
        nodes = walk_tree(a11y_connection(), root.app.bus_name, root.path, skip)
        return [(node, node.role, node.name or "") for node in nodes]

    BUTTONS = {"push button", "toggle button", "button"}

    def names(self, role=None, skip=()):
        """Names of showing nodes; role "button" means any kind of button."""
        roles = self.BUTTONS if role == "button" else {role}
        return [name for _, r, name in self.nodes(skip) if role is None or r in roles]

    def wait_for(self, predicate, timeout=20, what="condition"):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if predicate():
                return
            # Each check walks the whole tree; GTK 4.8's AT-SPI code can crash when
            # walked while widgets are torn down, so do not walk it more than needed.
            time.sleep(0.3)
        self.accessible(timeout=1)  # raises if the app died meanwhile
        raise AssertionError(f"timed out waiting for {what}; showing: {sorted(set(self.names()))}")

    def focused_name(self):
        now = self.focused_now()
        return now[1] if now else None

    def unnamed_nodes(self):
        """Every showing node, with its states but not its name or role (half a walk's questions)."""
        root = self.accessible()
        return walk_tree(a11y_connection(), root.app.bus_name, root.path, named=False)

    def focused(self):
        """(role, name) of the focused node, after activating the main window as a window
        manager does when a dialog closes (bare Xvfb has none to do it)."""
        subprocess.run(["xdotool", "windowfocus", "--sync", self.window_id()], check=False, timeout=10)
        time.sleep(0.3)
        return self.focused_now()

    def focused_now(self):
        """(role, name) of the focused node as the tree says it now, without activating the window.
        The walk asks only states and children, then the focused node its name and role."""
        for node in self.unnamed_nodes():
            if node.get_state_set().contains(Atspi.StateType.FOCUSED):
                try:
                    named_now(node)
                except gi.repository.GLib.Error:
                    continue  # gone meanwhile
                return node.role, node.name
        return None

    def tab(self, shift=False, before=None, timeout=3):
        """Presses Tab (Shift+Tab) in the window, which has the keyboard already, and returns the
        (role, name) focused next as soon as the focus has moved: a walk through a page's controls
        waits for each move, not a fixed while. Moving focus tears nothing down, so the tree may be
        asked again at once. `before` is the stop the focus is on, when the caller knows it (a walk
        of the tree saved). Returns the same stop when the focus did not move within `timeout`."""
        before = before or self.focused_now()
        subprocess.run(["xdotool", "key", "--clearmodifiers", "shift+Tab" if shift else "Tab"], check=True, timeout=10)
        deadline = time.monotonic() + timeout
        while True:
            time.sleep(0.05)
            now = self.focused_now()
            if (now is not None and now != before) or time.monotonic() > deadline:
                return now

    def find(self, name, role=None, skip=()):
        roles = self.BUTTONS if role == "button" else {role}
        for node, r, n in self.nodes(skip):
            if n == name and (role is None or r in roles):
                return node
        raise AssertionError(f"no {role or 'node'} named {name!r}; showing: {sorted(set(self.names()))}")

    def press(self, name, role="button", skip=()):
        """Activates a control by its accessible name, as assistive technology does."""
        # A row's buttons move to whichever row shows their device as the list re-sorts; GTK then
        # drops the accessible the walk found, or the walk passes a button mid-move. A screen
        # reader asks again, and so does this, a few times.
        for attempt in range(4):
            try:
                node = self.find(name, role, skip)
                assert node.n_actions() > 0, f"{name!r} has no action"
                node.do_action(0)
                break
            except (gi.repository.GLib.Error, AssertionError) as error:
                moved = "no longer exists" in str(error) or str(error).startswith("no ")
                if not moved or attempt == 3:
                    raise
                time.sleep(0.3)
        self.settle()

    def settle(self):
        """Gives the app time to finish what an action started (closing a dialog,
        rebuilding rows) before the tree is walked again: GTK 4.8's AT-SPI bridge
        can crash when it is queried about widgets that are being torn down."""
        time.sleep(0.8)

    # MARK: keyboard and screen

    def windows(self):
        """The app's visible X windows, newest last, tooltips left out: a tooltip is a window of
        its own that takes no keys, and one shown under the pointer on a loaded machine took
        the keyboard's focus from the window a test typed into."""
        out = subprocess.run(["xdotool", "search", "--sync", "--pid", str(self.proc.pid), "--onlyvisible"],
                             capture_output=True, text=True, timeout=15).stdout.split()
        shown = []
        for wid in out:
            # GTK 4.8 gives a tooltip's window the same type as a menu's (_NET_WM_WINDOW_TYPE_MENU):
            # told apart by height, one line of text against a menu's items.
            geometry = subprocess.run(["xdotool", "getwindowgeometry", "--shell", wid], capture_output=True, text=True, timeout=10).stdout
            height = next((int(l.split("=")[1]) for l in geometry.splitlines() if l.startswith("HEIGHT=")), 0)
            if height >= 60:
                shown.append(wid)
        return shown

    def window_id(self):
        # A window closing (a dialog, a menu) can leave the search empty for a moment: ask again.
        for _ in range(20):
            out = self.windows()
            if out:
                return out[-1]
            time.sleep(0.1)
        raise AssertionError(f"the app shows no window; it {'ended' if self.proc.poll() is not None else 'is running'}")

    def key(self, *keys):
        wid = self.window_id()
        subprocess.run(["xdotool", "windowfocus", "--sync", wid], check=False, timeout=10)
        subprocess.run(["xdotool", "key", "--clearmodifiers", *keys], check=True, timeout=10)
        self.settle()

    def click_on(self, name, role=None):
        """Clicks the middle of a node once it has stopped moving, as a pointer user aims at
        where a thing is, not where it was while the window still laid itself out."""
        node = self.find(name, role)
        rect = None
        for _ in range(20):
            extents = node.extents(Atspi.CoordType.SCREEN)
            now = (extents.x, extents.y, extents.width, extents.height)
            if now == rect:
                break
            rect = now
            time.sleep(0.1)
        self.click(rect[0] + rect[2] // 2, rect[1] + rect[3] // 2)

    def click_on_until(self, name, role, predicate, what, tries=3):
        """Clicks as click_on does, again if nothing happened: on a loaded machine the first
        click can reach the window before it takes pointer input."""
        for _ in range(tries - 1):
            self.click_on(name, role)
            try:
                self.wait_for(predicate, timeout=8, what=what)
                return
            except AssertionError:
                if not any(n == name for n in self.names(role)):
                    raise
        self.click_on(name, role)
        self.wait_for(predicate, what=what)

    def click_menu_item(self, name):
        """Clicks an open menu's item with the pointer. GTK 4.8 gives a popover's nodes in the
        coordinates of the window it belongs to, not of the screen; the popover is an X window of
        its own, found by its size, so the item is where the popover's window puts it."""
        node = self.find(name, "menu item")
        menu = node
        while menu is not None and menu.role != "menu":
            menu = menu.parent
        assert menu is not None, f"{name!r} is in no menu"
        item, box = node.extents(), menu.extents()
        tree = subprocess.run(["xwininfo", "-root", "-tree"], capture_output=True, text=True, timeout=10).stdout
        origin = None
        for line in tree.splitlines():
            # "     0x400012 (has no name): ()  289x479+332+24  +332+24"
            parts = line.split()
            if len(parts) >= 2 and parts[-2].startswith(f"{box.width}x{box.height}+"):
                x, y = parts[-1].lstrip("+").split("+")
                origin = (int(x), int(y))
        assert origin, f"no popover window of {box.width}x{box.height}"
        self.click(origin[0] + item.x - box.x + item.width // 2, origin[1] + item.y - box.y + item.height // 2)

    def keys_until_focused(self, key, name, roles, limit=20):
        """Presses `key` until the focus is on `name` in one of `roles`, as a keyboard user walks
        a header or a menu."""
        for _ in range(limit):
            now = self.focused_now()
            if now and now[1] == name and now[0] in roles:
                return True
            subprocess.run(["xdotool", "key", "--clearmodifiers", key], check=True, timeout=10)
            time.sleep(0.15)
        return False

    def in_view(self, name, role=None):
        """Whether the node shows whole inside its window, not scrolled out of sight."""
        node = self.find(name, role)
        window = node
        while window.parent is not None and window.role != "frame":
            window = window.parent
        inner, outer = node.extents(), window.extents()
        return inner.height > 0 and outer.y <= inner.y and inner.y + inner.height <= outer.y + outer.height

    def frames(self):
        """The names of the app's windows. A window closing between the count and the walk
        leaves a hole the bridge answers with None; it is no window any more."""
        root = self.accessible()
        windows = (root.get_child_at_index(i) for i in range(root.get_child_count()))
        return [w.get_name() for w in windows if w is not None]

    def type_text(self, text):
        """Types into the window, activated first as a window manager does when a dialog over it
        closes (bare Xvfb has none: keys typed then went to no window)."""
        subprocess.run(["xdotool", "windowfocus", "--sync", self.window_id()], check=False, timeout=10)
        subprocess.run(["xdotool", "type", "--delay", "5", text], check=True, timeout=30)

    def page_on_show(self):
        """The title of the page tab selected (Preferences' pages); GTK 4.8 marks no control
        of a page out of sight as such, so the tab tells which page is on show."""
        for node, role, name in self.nodes():
            try:
                if role == "page tab" and node.get_state_set().contains(Atspi.StateType.SELECTED):
                    return name
            except Exception:
                continue
        return None

    def is_sensitive(self, name, role="button"):
        node = self.find(name, role)
        node.clear_cache()  # the client library keeps what it read once
        return node.get_state_set().contains(Atspi.StateType.SENSITIVE)

    def click(self, x, y):
        # No --sync: it waits forever when the pointer is already there. The pointer comes from
        # a corner, so the window sees it arrive even where an earlier test left it.
        subprocess.run(["xdotool", "mousemove", "0", "0", "sleep", "0.05", "mousemove", str(x), str(y), "sleep", "0.1",
                        "click", "1"], check=True, timeout=10)


UBUNTU_LAYOUT = "appmenu:minimize,maximize,close"


def home_with(width, height=640, layout=UBUNTU_LAYOUT):
    """A fresh home whose window opens `width` px wide under the title-bar `layout`."""
    home = scratch()
    config = os.path.join(home, "xdg_config_home")
    os.makedirs(os.path.join(config, "glib-2.0", "settings"))
    os.makedirs(os.path.join(config, "gtk-4.0"))
    with open(os.path.join(config, "glib-2.0", "settings", "keyfile"), "w") as f:
        f.write(f"[io/github/favblue/FavBlue]\nwindow-width={width}\nwindow-height={height}\n")
    with open(os.path.join(config, "gtk-4.0", "settings.ini"), "w") as f:
        f.write(f"[Settings]\ngtk-decoration-layout={layout}\n")
    return home


def iso(name):
    """A device's name as FavBlue puts it inside a sentence: between Unicode isolates."""
    return "\u2068" + name + "\u2069"


def screenshot_pixels():
    """The whole screen as (width, height, bytes in RGB)."""
    data = subprocess.run(["import", "-window", "root", "-depth", "8", "ppm:-"],
                          capture_output=True, check=True, timeout=20).stdout
    # Binary PPM: "P6\n<w> <h>\n<max>\n" then RGB bytes.
    parts = data.split(b"\n", 3)
    width, height = (int(v) for v in parts[1].split())
    return width, height, parts[3]


def pixel(shot, x, y):
    width, _, raw = shot
    i = (y * width + x) * 3
    return tuple(raw[i:i + 3])
